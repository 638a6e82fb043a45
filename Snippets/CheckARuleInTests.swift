//! Check an extension's activation rule the way a test does, and print why it fails.
import ActivationRules
import RuleKitTesting

// In a test target: `expectActivation(share, for: .safariPage)` records an issue at your line with the same
// message; `check` returns the result without recording anything.
do throws(ActivationRuleError) {
  // A relative path is resolved against this source file's folder, so it works from any directory.
  let share = try RuleUnderTest(contentsOf: "../Examples/SampleApp/ShareExtension/Info.plist")
  let expectations: [(host: HostPreset, activates: Bool)] = [
    (.safariPage, true), (.photos(count: 3), true), (.filesPDF, true),
    (.photos(count: 6), false), (.mail, false),
    (.intuneManagedApp, true),  // fails until the rule has Intune's twin types
  ]
  for expectation in expectations {
    let result = share.check(activates: expectation.activates, for: expectation.host)
    print(result.passed ? "passed: \(expectation.host.name)" : "failed: \(result.message)")
  }
} catch {
  print(error)  // file:line:column: error: …
}
