import Foundation
import PropertyLists
import Testing

@testable import IntuneConfigurator

/// Trial 4: a Xamarin sample's `com.[your company name].…` was copied into ContainingAppBundleId, app groups,
/// keychain groups and the redirect URI without a word.
@Suite("a bundle identifier Apple does not allow")
struct BundleIdentifierTests {
  @Test(arguments: [
    ("com.example.app", ""), ("com.example.$(PRODUCT_NAME:rfc1034identifier)", ""), ("${BUNDLE}.share", ""),
    ("com.[your company name].App", "[ ]"), ("com.example.my_app", "_"), ("com.exämple.app", "ä"),
  ])
  func invalidCharacters(_ identifier: String, _ expected: String) {
    #expect(String(Planner.invalidBundleIdentifierCharacters(identifier)) == expected)
  }

  static func plan(_ identifier: String) throws -> ConfigurationPlan {
    try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.document(
        body: "\t<key>CFBundleIdentifier</key>\n\t<string>\(identifier)</string>\n"),
      entitlements: nil, options: IntuneConfiguratorOptions())
  }

  @Test func aPlaceholderIsAnErrorAtTheKey() throws {
    let plan = try Self.plan("com.[your company name].App")
    let finding = try #require(plan.findings.first { $0.id == "bundle-identifier-invalid" })
    #expect(finding.severity == .error)
    #expect(finding.keyPath == ["CFBundleIdentifier"])
    #expect(finding.position.map { [$0.line, $0.column] } == [4, 2])
    #expect(
      finding.message
        == "CFBundleIdentifier \"com.[your company name].App\" is not a bundle identifier: it holds \"[\", spaces, "
        + "\"]\", where only letters, digits, hyphens and periods are allowed (a template's placeholder?)")
    #expect(plan.isBlocked)
  }

  @Test func anUnderscoreIsAWarning() throws {
    let plan = try Self.plan("com.example.my_app")
    let finding = try #require(plan.findings.first { $0.id == "bundle-identifier-invalid" })
    #expect(finding.severity == .warning)
    #expect(!plan.isBlocked)
  }

  @Test func aValidIdentifierSaysNothing() throws {
    #expect(!(try Self.plan("com.example.app")).findings.contains { $0.id == "bundle-identifier-invalid" })
  }
}
