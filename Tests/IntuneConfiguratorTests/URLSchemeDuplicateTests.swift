import Foundation
import PropertyLists
import Testing

@testable import IntuneConfigurator

/// An Expo head declares the app's scheme in one URL type and react-native-share-menu in another (trial 4:
/// exposhare's Info.plist): the twin was added to both arrays.
@Suite("a URL scheme two URL types declare gets one twin")
struct URLSchemeDuplicateTests {
  static func urlTypes(_ lists: [[String]]) -> String {
    "\t<key>CFBundleIdentifier</key>\n\t<string>com.example.app</string>\n\t<key>CFBundleURLTypes</key>\n\t<array>\n"
      + lists.map { schemes in
        "\t\t<dict>\n\t\t\t<key>CFBundleURLSchemes</key>\n\t\t\t<array>\n"
          + schemes.map { "\t\t\t\t<string>\($0)</string>\n" }.joined() + "\t\t\t</array>\n\t\t</dict>\n"
      }.joined() + "\t</array>\n"
  }

  static func plan(_ lists: [[String]]) throws -> ConfigurationPlan {
    try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.document(body: urlTypes(lists)), entitlements: nil,
      options: IntuneConfiguratorOptions())
  }

  @Test func twinnedOnceBesideTheFirstDeclaration() throws {
    let plan = try Self.plan([["com.example.app"], ["other", "COM.example.app"]])
    let twins = plan.changes.filter { $0.kind == .urlSchemeTwin }
    #expect(twins.map(\.summary) == ["add com.example.app-intunemam", "add other-intunemam"])
    #expect(twins.map(\.keyPath.description).first?.contains("[0]") == true)
    let note = try #require(plan.findings.first { $0.id == "url-scheme-declared-twice" })
    #expect(note.severity == .note)
    #expect(
      note.message
        == "URL scheme \"COM.example.app\" is also declared in CFBundleURLTypes[0]; its twin goes beside that one only"
    )
    let configured = try plan.configuredInfoPlist()
    let text = String(decoding: try configured.serialized(), as: UTF8.self)
    #expect(text.components(separatedBy: "com.example.app-intunemam").count == 2)
  }

  /// A twin already beside one declaration covers the other.
  @Test func anExistingTwinCoversBoth() throws {
    let plan = try Self.plan([["com.example.app", "com.example.app-intunemam"], ["com.example.app"]])
    #expect(!plan.changes.contains { $0.kind == .urlSchemeTwin })
  }
}
