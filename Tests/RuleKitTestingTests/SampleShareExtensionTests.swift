import ActivationRules
import RuleKitTesting
import Testing

/// The sample share extension's rule, tested the way an app's own test suite would.
@Suite("Sample share extension")
struct SampleShareExtensionTests {
  let share: RuleUnderTest

  init() throws {
    share = try RuleUnderTest(contentsOf: "../../Examples/SampleApp/ShareExtension/Info.plist")
  }

  @Test(
    "activates for the hosts it is meant for",
    arguments: [HostPreset.safariPage, .photos(count: 1), .photos(count: 5), .filesPDF])
  func activates(for preset: HostPreset) {
    expectActivation(share, for: preset)
  }

  @Test(
    "stays hidden for the hosts it cannot handle",
    arguments: [HostPreset.photos(count: 6), .firefoxURLText, .mail])
  func staysHidden(for preset: HostPreset) {
    expectNoActivation(share, for: preset)
  }

  /// The sample ships its rule as written before Intune: only `rulekit configure` adds the
  /// `com.microsoft.intune.mam.` twins that managed apps share (SampleAppConfigureTests checks that).
  @Test("managed apps share twin types, which the rule accepts only once configured")
  func refusesManagedAppsBeforeConfigure() {
    expectNoActivation(share, for: .intuneManagedApp)
  }

  @Test("a web link and a PDF in one item activate it; an empty item does not")
  func customContexts() {
    expectActivation(share, on: ExtensionContext(attachments: [["public.url"], ["com.adobe.pdf"]]))
    expectNoActivation(share, on: ExtensionContext(attachments: []), named: "an item without attachments")
  }

  @Test("a passing expectation says so and carries the explanation")
  func passingResult() {
    let result = expectActivation(share, for: .safariPage)
    #expect(result.passed)
    #expect(result.contextName == "safari-page")
    #expect(result.explanation?.accepted == true)
    #expect(result.smallestContextWithExpectedOutcome == nil)
  }

  @Test("a file URL conforms to public.url, so Finder's file shares activate it too")
  func fileURLsAreURLs() {
    expectActivation(share, for: .finderFileURL)
  }

  @Test("activates(for:) answers without recording anything")
  func plainAnswers() {
    #expect(share.activates(for: .filesPDF))
    #expect(!share.activates(for: .photos(count: 6)))
  }
}
