import ActivationRules
import Foundation
import RuleKitTesting
import Testing

@Suite("Loading rules")
struct RuleLoadingTests {
  /// Rules in every form a test can give one, each against the hosts it should and should not serve.
  static let table:
    [(rule: @Sendable () throws -> RuleUnderTest, activatesFor: HostPreset, not: HostPreset)] = [
      (
        { try RuleUnderTest(contentsOf: "../../Examples/SampleApp/ActionExtension/Info.plist") }, .safariPage,
        .filesPDF
      ),
      (
        {
          try RuleUnderTest(
            predicate:
              #"SUBQUERY(extensionItems, $item, SUBQUERY($item.attachments, $attachment, "#
              + #"ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "com.adobe.pdf").@count >= 1).@count >= 1"#
          )
        },
        .filesPDF, .safariPage
      ),
      (
        { try RuleUnderTest(dictionary: ["NSExtensionActivationSupportsImageWithMaxCount": 3]) },
        .photos(count: 3), .photos(count: 4)
      ),
      (
        {
          try RuleUnderTest(
            dictionary: ActivationDictionary(propertyList: ["NSExtensionActivationSupportsText": true]))
        },
        .mail, .filesPDF
      ),
    ]

  @Test("every form of rule loads and answers", arguments: table.indices)
  func forms(_ index: Int) throws {
    let row = Self.table[index]
    let rule = try row.rule()
    expectActivation(rule, for: row.activatesFor)
    expectNoActivation(rule, for: row.not)
  }

  @Test("an absolute path is used as given")
  func absolutePath() throws {
    let here = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    let path = here.appendingPathComponent("../../Examples/SampleApp/ShareExtension/Info.plist").standardized
      .path
    let rule = try RuleUnderTest(contentsOf: path, relativeTo: "/nonexistent/File.swift")
    #expect(rule.source == path)
    expectActivation(rule, for: .safariPage)
  }

  @Test("a predicate that does not parse throws with its position")
  func syntaxError() {
    let error = #expect(throws: ActivationRuleError.self) {
      try RuleUnderTest(predicate: "TRUEPREDICATE AND (")
    }
    #expect(error?.position?.offset == 19)
  }

  @Test("a missing file throws missingFile with the resolved path")
  func missingFile() {
    #expect(throws: ActivationRuleError.missingFile("/nonexistent/Info.plist")) {
      try RuleUnderTest(contentsOf: "/nonexistent/Info.plist")
    }
  }
}

@Suite("Types the Info.plist declares")
struct DeclaredTypesTests {
  /// A share extension that exports its own note type, declared to conform to public.plain-text; shared with
  /// the end-to-end tests of `rulekit test` (Tests/EndToEndTests/DeclaredTypesEndToEndTests.swift).
  static let info = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/declared-types/Info.plist")

  @Test("an attachment of a declared type conforms to what the declaration says")
  func declaredTypeActivates() throws {
    let rule = try RuleUnderTest(url: Self.info)
    #expect(rule.activates(for: ExtensionContext(attachments: [["com.example.note"]])))
    #expect(!rule.activates(for: ExtensionContext(attachments: [["com.example.other"]])))
    // The same rule without the declarations does not know the type.
    let bare = try RuleUnderTest(
      predicate: try #require(RuleFile(path: "Info.plist", data: Data(contentsOf: Self.info)).predicateText))
    #expect(!bare.activates(for: ExtensionContext(attachments: [["com.example.note"]])))
  }
}
