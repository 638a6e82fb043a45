import ActivationRules
import Foundation
import PredicateSyntax
import Testing

@Suite struct RuleFileTests {
  static let infoPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>IntuneMAMSettings</key>
    \t<dict/>
    \t<key>NSExtension</key>
    \t<dict>
    \t\t<key>NSExtensionAttributes</key>
    \t\t<dict>
    \t\t\t<key>NSExtensionActivationUsesStrictMatching</key>
    \t\t\t<true/>
    \t\t\t<key>NSExtensionActivationRule</key>
    \t\t\t<string>SUBQUERY(extensionItems, $e, $e.attachments.@count &gt; 0).@count == 1</string>
    \t\t</dict>
    \t\t<key>NSExtensionPointIdentifier</key>
    \t\t<string>com.apple.share-services</string>
    \t</dict>
    </dict>
    </plist>
    """

  @Test func readsAnOldStyleInfoPlist() throws {
    let text = """
      // An Info.plist in the old (OpenStep) format.
      {
        NSExtension = {
          NSExtensionAttributes = {
            NSExtensionActivationRule = "SUBQUERY(extensionItems, $e, $e.attachments.@count > 0).@count == 1";
          };
          NSExtensionPointIdentifier = "com.apple.share-services";
        };
      }
      """
    let file = try RuleFile(path: "Info.plist", data: Data(text.utf8))
    #expect(file.form == .infoPlist)
    #expect(file.predicateText == "SUBQUERY(extensionItems, $e, $e.attachments.@count > 0).@count == 1")
    #expect(file.facts.extensionPointIdentifier == "com.apple.share-services")
  }

  /// A predicate can start with `{` (an aggregate); it never reads as an old-style dictionary.
  @Test(arguments: ["{1, 2} CONTAINS 1", "{'public.image'} CONTAINS 'x'", "{ a = 1 }"])
  func aggregatesStayPredicates(_ text: String) throws {
    let file = try RuleFile(path: "rule.predicate", data: Data(text.utf8))
    #expect(file.form == .predicateFile)
    #expect(file.predicateText == text)
  }

  /// wallabag commits 1-byte Info.plists: named `.plist`, such a file is a property list that ends too soon,
  /// not an empty predicate.
  @Test(arguments: ["\n", "", "   "])
  func anEmptyPlistIsABrokenPropertyList(_ text: String) throws {
    let error = #expect(throws: ActivationRuleError.self) {
      try RuleFile(path: "macOS/Info.plist", data: Data(text.utf8))
    }
    #expect(error?.description.contains("predicate") == false, "\(String(describing: error))")
    #expect(error?.description.contains("property list") == true, "\(String(describing: error))")
  }

  @Test func readsRuleAndFactsFromInfoPlist() throws {
    let file = try RuleFile(path: "Info.plist", data: Data(Self.infoPlist.utf8))
    #expect(file.form == .infoPlist)
    #expect(file.predicateText == "SUBQUERY(extensionItems, $e, $e.attachments.@count > 0).@count == 1")
    #expect(file.facts.hasIntuneMAMSettings)
    #expect(file.facts.strictMatchingOutsideRule)
    #expect(file.facts.extensionPointIdentifier == "com.apple.share-services")
  }

  @Test func predicatePositionsMapThroughEntities() throws {
    let file = try RuleFile(path: "Info.plist", data: Data(Self.infoPlist.utf8))
    let text = try #require(file.predicateText)
    let start = file.filePosition(ofPredicateOffset: 0)
    #expect((start.line, start.column) == (13, 12))
    #expect(
      TextPositions.line(13, in: file.contents).utf8.dropFirst(start.column - 1).starts(with: "SUBQUERY".utf8)
    )
    // The byte after the decoded `>` is four bytes further on in the file than in the predicate.
    let afterGreater = try #require(text.utf8.firstIndex(of: UInt8(ascii: ">")))
    let offset = text.utf8.distance(from: text.utf8.startIndex, to: afterGreater) + 1
    let position = file.filePosition(ofPredicateOffset: offset)
    #expect(position.line == 13)
    #expect(position.column == 12 + offset + 3)
  }

  @Test func keyPositionsPointAtTheKey() throws {
    let file = try RuleFile(path: "Info.plist", data: Data(Self.infoPlist.utf8))
    #expect(file.position(ofKey: "NSExtensionActivationUsesStrictMatching").line == 10)
    #expect(file.position(ofKey: "NSExtensionActivationUsesStrictMatching").column == 4)
  }

  @Test(arguments: Fixtures.corpusFiles)
  func everyCorpusFileReads(name: String) throws {
    let file = try RuleFile(path: name, data: Fixtures.data(name))
    if name.hasSuffix(".predicate") {
      #expect(file.form == .predicateFile)
      #expect(file.predicateText != nil)
    } else {
      #expect(file.form == .rulePlist)
      guard case .dictionary = file.value else {
        Issue.record("\(name) is not a dictionary")
        return
      }
    }
  }

  @Test func infoPlistWithoutRuleIsAnError() throws {
    let plist = "<plist version=\"1.0\"><dict><key>NSExtension</key><dict/></dict></plist>"
    let error = try #require(throws: ActivationRuleError.self) {
      try RuleFile(path: "x", data: Data(plist.utf8))
    }
    #expect(error.kind == .ruleNotFound)
    #expect(
      error.message
        == "no NSExtensionActivationRule in NSExtension › NSExtensionAttributes: a share or action extension is "
        + "offered only where its rule accepts what is shared")
    // An app's Info.plist (no NSExtension) says that it is one.
    let app = "<plist version=\"1.0\"><dict><key>CFBundleIdentifier</key><string>a.b</string></dict></plist>"
    #expect(throws: ActivationRuleError.ruleNotFound) { try RuleFile(path: "x", data: Data(app.utf8)) }
  }

  /// AssisChat's keyboard extension (Tests/Fixtures/xcode-projects/assischat): a kind of extension without a
  /// rule, which the error names instead of calling the file an app's.
  @Test(
    "an extension of a kind without a rule is named as such",
    arguments: [
      "com.apple.keyboard-service", "com.apple.widgetkit-extension", "com.apple.usernotifications.service",
    ])
  func extensionKindWithoutRule(_ point: String) throws {
    let plist =
      "<plist version=\"1.0\"><dict><key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key>"
      + "<string>\(point)</string><key>NSExtensionAttributes</key><dict/></dict></dict></plist>"
    let error = try #require(throws: ActivationRuleError.self) {
      try RuleFile(path: "x", data: Data(plist.utf8))
    }
    #expect(error.kind == .ruleNotFound)
    #expect(
      error.message
        == "this is the Info.plist of a \(point) extension, a kind without NSExtensionActivationRule (share and "
        + "action extensions have one): there is no rule to check")
    #expect(error.hint?.contains("--skip-files-without-rule") == true)
  }

  @Test(
    "share and action extensions without a rule are told to add one",
    arguments: ["com.apple.share-services", "com.apple.ui-services", "com.apple.services"])
  func ruleExtensionWithoutRule(_ point: String) throws {
    let plist =
      "<plist version=\"1.0\"><dict><key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key>"
      + "<string>\(point)</string></dict></dict></plist>"
    let error = try #require(throws: ActivationRuleError.self) {
      try RuleFile(path: "x", data: Data(plist.utf8))
    }
    #expect(error.message.hasPrefix("no NSExtensionActivationRule in NSExtension › NSExtensionAttributes"))
    #expect(error.hint?.hasPrefix("add NSExtensionActivationRule to NSExtensionAttributes") == true)
  }

  /// A real app's Info.plist (Docuport, found by the third sweep) has NSExtensionAttributes with a rule at its
  /// root, where the system never reads it: the error says so, at the key, with the move to make.
  @Test func attributesAtTheRootAreNamedWhereTheyAre() throws {
    let plist = """
      <plist version="1.0">
      <dict>
      	<key>CFBundleIdentifier</key>
      	<string>com.example.app</string>
      	<key>NSExtensionAttributes</key>
      	<dict>
      		<key>NSExtensionActivationRule</key>
      		<string>TRUEPREDICATE</string>
      	</dict>
      </dict>
      </plist>
      """
    let error = try #require(throws: ActivationRuleError.self) {
      try RuleFile(path: "x", data: Data(plist.utf8))
    }
    #expect(error.kind == .ruleMisplaced)
    #expect(error.message.contains("at the root of the property list"))
    #expect(error.location?.line == 5 && error.location?.column == 2)
    #expect(error.hint?.contains("into the NSExtension dictionary") == true)
  }

  @Test func ruleOfWrongTypeIsAnError() {
    let plist =
      "<plist version=\"1.0\"><dict><key>NSExtensionActivationRule</key><integer>1</integer></dict></plist>"
    #expect(throws: ActivationRuleError.unexpectedRuleValue(.integer)) {
      try RuleFile(path: "x", data: Data(plist.utf8))
    }
  }

  @Test(arguments: [
    ("ab\ncd", 4, SourcePosition(line: 2, column: 2, offset: 4)),
    ("é\nx", 2, SourcePosition(line: 1, column: 2, offset: 2)),
    ("", 0, SourcePosition(line: 1, column: 1, offset: 0)),
  ])
  func textPositions(text: String, offset: Int, expected: SourcePosition) {
    #expect(TextPositions.position(ofByteOffset: offset, in: text) == expected)
  }

  /// Positions are counted over the UTF-8 bytes now (they made a string per scalar); they must equal the
  /// count by scalars: a line per LF, a column per scalar, an offset inside a scalar before it.
  @Test func textPositionsMatchTheCountByScalars() {
    var generator = SystemRandomNumberGenerator()
    let pieces = ["a", " ", "\n", "\r\n", "é", "\u{2028}", "😀", "(\"x\")"]
    for length in [0, 1, 5, 40] {
      for _ in 0..<20 {
        let text = (0..<length).map { _ in pieces.randomElement(using: &generator) ?? "" }.joined()
        for offset in 0...text.utf8.count {
          var line = 1
          var column = 1
          var consumed = 0
          for scalar in text.unicodeScalars {
            let width = String(scalar).utf8.count
            if consumed + width > offset { break }
            consumed += width
            if scalar == "\n" {
              line += 1
              column = 1
            } else {
              column += 1
            }
          }
          #expect(
            TextPositions.position(ofByteOffset: offset, in: text)
              == SourcePosition(line: line, column: column, offset: offset),
            "\(offset) in \(text.debugDescription)")
        }
      }
    }
  }

  /// Two real share extensions (XDM: the rule directly in NSExtension; prophetie_app: the dictionary's keys
  /// loose in NSExtensionAttributes) read as "no rule", and `--skip-files-without-rule` passed over them.
  @Test(
    "a rule one level off is named where it is, as a misplaced rule",
    arguments: [
      (
        "<key>NSExtension</key><dict><key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string>"
          + "<key>NSExtensionActivationRule</key><dict><key>NSExtensionActivationSupportsText</key><true/></dict>"
          + "</dict>",
        "NSExtensionActivationRule is directly in NSExtension, where the system does not read it"
      ),
      (
        "<key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>"
          + "<key>NSExtensionActivationSupportsAttachmentsWithMaxCount</key><integer>5</integer></dict>"
          + "<key>NSExtensionPointIdentifier</key><string>com.apple.share-services</string></dict>",
        "the NSExtensionActivation… keys are in NSExtension › NSExtensionAttributes, not in an "
          + "NSExtensionActivationRule dictionary"
      ),
    ])
  func misplacedRule(_ body: String, _ message: String) throws {
    let plist = "<plist version=\"1.0\">\n<dict>" + body + "</dict>\n</plist>"
    let error = try #require(throws: ActivationRuleError.self) {
      try RuleFile(path: "x", data: Data(plist.utf8))
    }
    #expect(error.kind == .ruleMisplaced)
    #expect(error.message.hasPrefix(message), "\(error.message)")
    #expect(error.location?.line == 2)
    #expect(error.location?.column != nil)
    #expect(error.hint != nil)
  }
}
