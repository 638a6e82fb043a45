// Plans the Intune configuration of ../SampleApp through the library API and prints the report and the
// diff, writing nothing: what `rulekit configure --dry-run --diff` does, from a wrapper's point of view.
//
//   swift run ConfigureSampleApp [SampleApp folder]
import Foundation
import IntuneConfigurator
import PropertyLists

/// The sample app's folder: the first argument, or ../SampleApp beside this package.
let sampleApp =
  CommandLine.arguments.dropFirst().first
  ?? URL(fileURLWithPath: #filePath)
  .deletingLastPathComponent()  // Sources/ConfigureSampleApp
  .appendingPathComponent("../../../SampleApp").standardizedFileURL.path

/// The targets to configure: the app with its entitlements, and its share extension (whose containing app
/// the configurator needs for `ContainingAppBundleId`).
let targets: [(infoPlist: String, entitlements: String?)] = [
  ("App/Info.plist", "App/App.entitlements"),
  ("ShareExtension/Info.plist", nil),
]

var failed = false
for target in targets {
  let infoPath = "\(sampleApp)/\(target.infoPlist)"
  do {
    let info = try PropertyListFile.read(contentsOf: infoPath)
    let entitlements = try target.entitlements.map { path throws(PropertyListError) in
      try PropertyListFile.read(contentsOf: "\(sampleApp)/\(path)")
    }
    var options = IntuneConfiguratorOptions()
    options.containingApp = ContainingAppLocator.locateFile(forExtensionAt: infoPath).map {
      ContainingApp(infoPlist: $0)
    }
    let plan = try IntuneConfigurator.plan(infoPlist: info, entitlements: entitlements, options: options)
    print("== \(target.infoPlist): \(plan.changes.count) changes, \(plan.findings.count) findings")
    print(
      ConfigurationReport.text(plan, infoPlistName: target.infoPlist, entitlementsName: target.entitlements))
    print(
      try ConfigurationReport.diff(
        plan, infoPlistName: target.infoPlist, entitlementsName: target.entitlements))
  } catch {
    FileHandle.standardError.write(Data("\(infoPath): \(error)\n".utf8))
    failed = true
  }
}
exit(failed ? 1 : 0)
