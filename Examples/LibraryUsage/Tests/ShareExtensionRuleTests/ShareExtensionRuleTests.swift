import ActivationRules
import Foundation
import IntuneConfigurator
import PropertyLists
import RuleKitTesting
import Testing

/// The sample share extension's activation rule, checked the way an app's own test target would check its
/// extension: straight from the Info.plist the extension ships.
@Suite("Share extension rule")
struct ShareExtensionRuleTests {
  let share: RuleUnderTest

  init() throws {
    share = try RuleUnderTest(contentsOf: "../../../SampleApp/ShareExtension/Info.plist")
  }

  @Test(
    "shows up for web pages, a few photos and PDFs",
    arguments: [HostPreset.safariPage, .photos(count: 3), .filesPDF])
  func activates(for host: HostPreset) {
    expectActivation(share, for: host)
  }

  /// The shipped rule predates Intune; configured through the library, it accepts the twin types managed
  /// apps share, and still everything it accepted before.
  @Test("once configured for Intune, it also shows up for managed apps")
  func configuredRuleAcceptsManagedApps() throws {
    let extensionFolder = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().appendingPathComponent("../../../SampleApp/ShareExtension")
      .standardizedFileURL.path
    let info = try PropertyListFile.read(contentsOf: "\(extensionFolder)/Info.plist")
    let plan = try IntuneConfigurator.plan(
      infoPlist: info, entitlements: nil,
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.example.notes")))
    let rulePath: PropertyListPath = ["NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule"]
    let rule = try #require(try plan.configuredInfoPlist().value.value(at: rulePath)?.stringValue)
    let configured = try RuleUnderTest(predicate: rule)
    expectNoActivation(share, for: .intuneManagedApp)
    expectActivation(configured, for: .intuneManagedApp)
    for host in [HostPreset.safariPage, .photos(count: 3), .filesPDF] {
      expectActivation(configured, for: host)
    }
  }

  @Test("stays hidden for six photos and for text", arguments: [HostPreset.photos(count: 6), .mail])
  func staysHidden(for host: HostPreset) {
    expectNoActivation(share, for: host)
  }

  @Test("a link and a PDF shared together in one item")
  func linkAndPDF() {
    expectActivation(share, on: ExtensionContext(attachments: [["public.url"], ["com.adobe.pdf"]]))
  }
}

/// What a configurator wrapper relies on: a plan for an unconfigured app, and nothing left to do once it
/// is applied.
@Suite("Configurator through the library")
struct ConfiguratorTests {
  @Test("the sample app needs changes, and none after they are applied")
  func planThenIdempotent() throws {
    let appFolder = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().appendingPathComponent("../../../SampleApp/App").standardizedFileURL.path
    let info = try PropertyListFile.read(contentsOf: "\(appFolder)/Info.plist")
    let entitlements = try PropertyListFile.read(contentsOf: "\(appFolder)/App.entitlements")
    let plan = try IntuneConfigurator.plan(infoPlist: info, entitlements: entitlements)
    #expect(!plan.changes.isEmpty)
    let again = try IntuneConfigurator.plan(
      infoPlist: try plan.configuredInfoPlist(), entitlements: try plan.configuredEntitlements())
    #expect(again.changes.isEmpty)
  }
}
