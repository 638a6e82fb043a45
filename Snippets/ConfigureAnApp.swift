//! Configure an app for Intune: plan the changes, review the report, apply them.
// snippet.hide
import Foundation
// snippet.show
import IntuneConfigurator

// snippet.hide
// Run from a copy of Examples/SampleApp, so the snippet leaves the repository as it found it and the paths it
// prints are the sample's own (App/Info.plist, not a temporary folder).
let sampleApp = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("../Examples/SampleApp").standardizedFileURL
let copy = FileManager.default.temporaryDirectory.appendingPathComponent(
  "rulekit-snippet-\(UUID().uuidString)")
try FileManager.default.copyItem(at: sampleApp, to: copy)
guard FileManager.default.changeCurrentDirectoryPath(copy.path) else {
  fatalError("cannot enter \(copy.path)")
}
var failed = false
// snippet.show
let configurator = AppConfigurator()
let targets: [(infoPlist: String, entitlements: String?)] = [
  ("App/Info.plist", "App/App.entitlements"),
  ("ShareExtension/Info.plist", nil),  // its containing app is found beside it, in App/
]
for target in targets {
  do throws(ConfiguratorError) {
    // 1. Plan: read the files and work out every change; nothing is written.
    let plan = try configurator.plan(infoPlistAt: target.infoPlist, entitlementsAt: target.entitlements)
    // 2. Review: findings as file:line:column lines, then the changes by file.
    print(plan.report())
    // 3. Apply: both files or neither, atomically; not when a finding is an error.
    guard !plan.isBlocked else {
      failed = true
      continue
    }
    let written = try plan.apply()
    print("wrote \(written.joined(separator: ", "))")
    // Planning a configured file again plans nothing.
    let again = try configurator.plan(infoPlistAt: target.infoPlist, entitlementsAt: target.entitlements)
    print("\(target.infoPlist): \(again.changes.count) changes left\n")
  } catch {
    print(error)  // file:line:column: error: message, where the file has a line and column
    if let hint = error.hint { print("hint: \(hint)") }
    failed = true
  }
}
// snippet.hide
try FileManager.default.removeItem(at: copy)
exit(failed ? 1 : 0)
