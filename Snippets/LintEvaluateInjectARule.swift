//! Lint activation rules, evaluate one for what real hosts share, and add Intune's twin types to it.
import ActivationRules
import Foundation

// snippet.hide
// Paths relative to Examples/, wherever the snippet is run from.
guard
  FileManager.default.changeCurrentDirectoryPath(
    URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("../Examples").standardizedFileURL.path)
else { fatalError("no Examples folder beside Snippets/") }
var failed = false
// snippet.show
// Lint: each finding at its file:line:column; a rule that does not parse is an error at its position.
let linter = RuleLinter()
let rules = [
  "SampleApp/ShareExtension/Info.plist", "rules/immich-share-extension.predicate",
  "rules-with-errors/intune-guide-2018-open-in-rule.predicate",
]
for path in rules {
  do throws(ActivationRuleError) {
    let findings = linter.lint(try ActivationRule.load(URL(fileURLWithPath: path)).file)
    if findings.isEmpty { print("\(path): no findings") }
    for finding in findings {
      print(
        "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message)")
    }
  } catch {
    print(error)  // file:line:column: error: …
  }
}

do throws(ActivationRuleError) {
  let (_, rule) = try ActivationRule.load(URL(fileURLWithPath: "SampleApp/ShareExtension/Info.plist"))

  // Evaluate: the rule compiled once, then asked about what hosts share.
  let evaluator = RuleEvaluator(rule)
  for host in [HostPreset.safariPage, .photos(count: 3), .photos(count: 6), .intuneManagedApp] {
    print("\(host.name): \(evaluator.accepts(host.context) ? "activates" : "does not activate")")
  }
  let pdfFile = ExtensionContext(attachments: [["com.adobe.pdf", "public.file-url"]])
  print("a PDF file: \(evaluator.accepts(pdfFile) ? "activates" : "does not activate")")

  // Inject: the `com.microsoft.intune.mam.` twin beside every type test, as a minimal text edit
  // (`file.contents(inserting: injected.insertions)` is the Info.plist with only the rule's bytes changed).
  if case .predicate(_, let text) = rule {
    let injected = try TwinInjector.inject(text: text)
    print("adds \(injected.addedTwins.joined(separator: ", ")):\n\(injected.text)")
  }
} catch {
  print(error)
  failed = true
}
// snippet.hide
exit(failed ? 1 : 0)
