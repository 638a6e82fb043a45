// Plans the Intune configuration of ../SampleApp through the library API and prints the report and the
// diff, writing nothing (what `rulekit configure --dry-run --diff` does, from a wrapper's point of view);
// then lints the extensions' activation rules (what `rulekit lint` does). Every error and finding is printed
// at its file:line:column.
//
//   swift run ConfigureSampleApp [SampleApp folder]
//
// Two RuleKit imports: IntuneConfigurator for the configuration, ActivationRules for the rules. Foundation
// is only for the command line (the folder, standard error, the exit status).
import ActivationRules
import Foundation
import IntuneConfigurator

/// The sample app's folder: the first argument, or ../SampleApp beside this package.
let sampleApp =
  CommandLine.arguments.dropFirst().first
  ?? URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()  // Sources/ConfigureSampleApp
  .appendingPathComponent("../../../SampleApp").standardizedFileURL.path

/// The targets to configure: the app with its entitlements, and its share extension (whose containing app
/// the configurator finds beside it, for `ContainingAppBundleId`).
let targets: [(infoPlist: String, entitlements: String?)] = [
  ("App/Info.plist", "App/App.entitlements"),
  ("ShareExtension/Info.plist", nil),
]

/// The extensions whose activation rules are linted.
let extensions = ["ShareExtension", "ActionExtension", "OpenInExtension"]

var failed = false
let configurator = AppConfigurator()
for target in targets {
  do throws(ConfiguratorError) {
    // Plan, then review: the report and the diff. `plan.apply()` would write both files, or neither.
    let plan = try configurator.plan(
      infoPlistAt: "\(sampleApp)/\(target.infoPlist)",
      entitlementsAt: target.entitlements.map { "\(sampleApp)/\($0)" })
    print("== \(target.infoPlist): \(plan.changes.count) changes, \(plan.findings.count) findings")
    print(plan.report())
    print(try plan.diff())
  } catch {
    // `file:line:column: error: message`, with the fix when there is one.
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    if let hint = error.hint { FileHandle.standardError.write(Data("hint: \(hint)\n".utf8)) }
    failed = true
  }
}

let linter = RuleLinter()
for name in extensions {
  let path = "\(sampleApp)/\(name)/Info.plist"
  do {
    let file = try ActivationRule.load(URL(fileURLWithPath: path)).file
    let findings = linter.lint(file)
    print("== \(name): \(findings.count) lint findings")
    for finding in findings {
      print(
        "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message)")
    }
  } catch {
    FileHandle.standardError.write(Data("\(error)\n".utf8))
    failed = true
  }
}
exit(failed ? 1 : 0)
