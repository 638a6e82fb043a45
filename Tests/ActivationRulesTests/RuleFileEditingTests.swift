import Foundation
import Testing

@testable import ActivationRules

@Suite struct RuleFileEditingTests {
  static func plist(_ rule: String) -> Data {
    Data(
      """
      <plist version="1.0">
      <dict>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t\(rule)
      \t\t</dict>
      \t</dict>
      </dict>
      </plist>
      """.utf8)
  }

  @Test func insertionsKeepTheFilesEntityStyle() throws {
    let file = try RuleFile(
      path: "Info.plist",
      data: Self.plist("<string>ANY t UTI-CONFORMS-TO &quot;a&quot; &amp;&amp; x &gt; 1</string>"))
    #expect(file.predicateText == "ANY t UTI-CONFORMS-TO \"a\" && x > 1")
    // Insert after `"a"` (decoded offset 25) and at the very end (decoded offset 34).
    let edited = try #require(
      file.contents(inserting: [.init(offset: 25, text: " || \"b\""), .init(offset: 34, text: " && y < 2")]))
    let expected = String(
      decoding: Self.plist(
        "<string>ANY t UTI-CONFORMS-TO &quot;a&quot; || &quot;b&quot; &amp;&amp; x &gt; 1 &amp;&amp; y &lt; 2</string>"
      ),
      as: UTF8.self)
    #expect(edited == expected)
  }

  @Test func insertionIntoAPredicateFile() throws {
    let file = RuleFile(path: "rule.predicate", predicate: "a == 1\n")
    #expect(file.contents(inserting: [.init(offset: 6, text: " OR b == 2")]) == "a == 1 OR b == 2\n")
  }

  /// NearDrop's `a OR b AND NOT (c)` (real-rules-holdout3/04.predicate): the twin of `c` closes its new
  /// parentheses at the offset where the twin of `a` is appended to the OR chain. Written into a file, the
  /// two keep the injector's order, so the file says what the injector's own text says: not `NOT (c OR
  /// twin-a …)`, which would exclude the twin of an accepted type.
  @Test func insertionsAtOneOffsetLandInTheirOrder() throws {
    let rule = #"ANY t UTI-CONFORMS-TO "a" OR ANY t UTI-CONFORMS-TO "b" AND NOT (ANY t UTI-CONFORMS-TO "c")"#
    let injected = try TwinInjector.inject(text: rule)
    #expect(Set(injected.insertions.map(\.offset)).count < injected.insertions.count)
    let file = RuleFile(path: "rule.predicate", predicate: rule + "\n")
    #expect(file.contents(inserting: injected.insertions) == injected.text + "\n")
    let plist = try RuleFile(path: "Info.plist", data: Self.plist("<string>\(rule)</string>"))
    let expected = String(decoding: Self.plist("<string>\(injected.text)</string>"), as: UTF8.self)
    #expect(plist.contents(inserting: injected.insertions) == expected)
  }

  @Test func dictionaryRuleIsReplacedByAString() throws {
    let rule =
      "<dict>\n<!-- </dict> -->\n<key>NSExtensionActivationSupportsText</key><true/><key>x</key><dict/></dict>"
    let file = try RuleFile(path: "Info.plist", data: Self.plist(rule))
    let edited = try #require(file.contents(replacingRuleWith: "x > 1"))
    // The dictionary's comment is the author's: it stays, on its own line before the string.
    #expect(
      edited
        == String(decoding: Self.plist("<!-- </dict> -->\n\t\t\t<string>x &gt; 1</string>"), as: UTF8.self))
  }

  /// The Info.plist Flutter's receive_sharing_intent tells apps to paste: comments between the keys.
  @Test func dictionaryCommentsStayWhenTheRuleBecomesAString() throws {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/info-plists/flutter-share-extension.plist")
    let data = try Data(contentsOf: url)
    let file = try RuleFile(path: "Info.plist", data: data)
    let edited = try #require(file.contents(replacingRuleWith: "TRUEPREDICATE"))
    let original = String(decoding: data, as: UTF8.self)
    for comment in original.matches(of: /<!--.*?-->/)
    where original[..<comment.range.lowerBound].contains("ActivationRule") {
      #expect(edited.contains("\n            " + comment.output), "\(comment.output)")
    }
    #expect(edited.contains("-->\n            <string>TRUEPREDICATE</string>\n        </dict>"))
    let reread = try RuleFile(path: "Info.plist", data: Data(edited.utf8))
    #expect(reread.ruleNode?.kind == .string)
  }

  @Test func rulePlistRootIsReplaced() throws {
    let file = try RuleFile(path: "12.plist", data: Fixtures.data("12.plist"))
    let edited = try #require(file.contents(replacingRuleWith: "TRUEPREDICATE"))
    #expect(edited.contains("<plist version=\"1.0\">\n<string>TRUEPREDICATE</string>\n</plist>"))
  }
}
