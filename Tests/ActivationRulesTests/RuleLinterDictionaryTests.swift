import ActivationRules
import Foundation
import PredicateSyntax
import Testing

/// Lint checks on dictionary rules and Info.plist facts (no predicate text involved).
@Suite struct RuleLinterDictionaryTests {
  typealias Key = ActivationDictionary.Key

  static func lint(_ name: String, data: Data) throws -> [LintFinding] {
    let file = try RuleFile(path: name, data: data)
    return RuleLinter().lint(file) { text throws(ActivationRuleError) in
      throw .syntax(
        message: "unexpected predicate \(text)", position: SourcePosition(line: 1, column: 1, offset: 0))
    }
  }

  @Test func stringCountIsMistyped() throws {
    let findings = try Self.lint("12.plist", data: Fixtures.data("12.plist"))
    #expect(findings.map(\.id) == ["RK007"])
    let finding = try #require(findings.first)
    #expect((finding.line, finding.column) == (5, 2))
    #expect(finding.fix == "write <integer>1</integer>")
    #expect(finding.severity == .warning)
  }

  @Test func integerBooleanIsMistyped() throws {
    let findings = try Self.lint("15.plist", data: Fixtures.data("15.plist"))
    #expect(findings.map(\.id) == ["RK007"])
    #expect(findings.first?.fix == "write <true/>")
  }

  /// Only `…AttachmentsWithMaxCount = 1`: it activates for one attachment of any type (DictionaryModel), so
  /// lint no longer calls it never-activating, agreeing with `convert`, `explain` and `diff`.
  @Test func undocumentedKeyOnly() throws {
    let findings = try Self.lint("02.plist", data: Fixtures.data("02.plist"))
    #expect(findings.map(\.id).sorted() == ["RK006"])
    let undocumented = try #require(findings.first { $0.id == "RK006" })
    #expect(undocumented.line == 7)
  }

  /// Keys that misspell a documented one, two of them as a hold-out app wrote them
  /// (real-rules-holdout/15.plist): the fix names the documented key instead of suggesting a predicate.
  @Test(arguments: [
    ("NSExtensionActivationSupportsWebURL", ActivationDictionary.WrittenType.boolean, Key.webURLMaxCount),
    ("NSExtensionActivationSupportsWebPageWithMaxNItems", .integer, .webPageMaxCount),
    ("NSExtensionActivationSupportsAttachmentsWithMinimumCount", .integer, .attachmentsMinCount),
    ("NSExtensionActivationSupportsAttachmentsWithMax", .string, .attachmentsMaxCount),
    ("NSExtensionActivationSupportsTextWithMinCount", .integer, .text),
    ("nsextensionactivationsupportsimagewithmaxcount", .integer, .imageMaxCount),
    // damus-io/damus, highlighter action extension/Info.plist (9d287c7): the extension's only key.
    ("NSExtensionActivationRuleSupportsText", .boolean, .text),
    ("NSExtentionActivationSupportsImageWithMaxCount", .integer, .imageMaxCount),
    ("ExtensionActivationSupportsMovieWithMaxCount", .integer, .movieMaxCount),
  ])
  func misspelledKeysNameTheDocumentedOne(name: String, written: ActivationDictionary.WrittenType, meant: Key)
  {
    #expect(ActivationDictionary.UndocumentedKey(name: name, written: written).likelyMeant == meant)
  }

  /// Keys no documented key expresses keep the advice to write a predicate: types (real-rules-holdout/02.plist),
  /// attachment attributes (real-rules 02), content Apple has no key for.
  @Test(arguments: [
    ("NSExtensionActivationSupportsFileWithType", ActivationDictionary.WrittenType.array),
    ("NSExtensionActivationAttachmentAttribute", .dictionary),
    ("NSExtensionActivationSupportsFolderWithMaxCount", .integer),
    ("NSExtensionActivationSupportsWebURLWithType", .array),
    // Too far from the documented head to be a misspelling of it.
    ("UIApplicationSupportsText", .boolean),
    ("NSExtensionAttributesSupportsImageWithMaxCount", .integer),
  ])
  func keysNoDocumentedKeyExpresses(name: String, written: ActivationDictionary.WrittenType) {
    #expect(ActivationDictionary.UndocumentedKey(name: name, written: written).likelyMeant == nil)
  }

  @Test func misspelledKeyFixNamesTheDocumentedKey() throws {
    let data = try Data(contentsOf: Fixtures.holdout.appendingPathComponent("15.plist"))
    let findings = try Self.lint("15.plist", data: data).filter { $0.id == "RK006" }
    #expect(
      findings.map(\.fix) == [
        "did you mean NSExtensionActivationSupportsWebURLWithMaxCount? Only that spelling is read",
        "did you mean NSExtensionActivationSupportsWebPageWithMaxCount? Only that spelling is read",
      ])
    let types = try Data(contentsOf: Fixtures.holdout.appendingPathComponent("02.plist"))
    #expect(
      try Self.lint("02.plist", data: types).filter { $0.id == "RK006" }.map(\.fix) == [
        "use a predicate rule to express this"
      ])
  }

  /// A documented key with a line break inside its `<key>` (a shipping share extension's image limit, the
  /// system reads no key of that name): the finding escapes the key, so it stays on one line, and says what
  /// differs instead of suggesting the same-looking spelling.
  @Test func keyWithALineBreakSaysSoOnOneLine() throws {
    let data = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      	<key>NSExtensionActivationSupportsImageWithMaxCount
      </key>
      	<integer>3</integer>
      	<key>	NSExtensionActivationSupportsText </key>
      	<true/>
      </dict>
      </plist>
      """.utf8)
    let findings = try Self.lint("rule.plist", data: data).filter { $0.id == "RK006" }
    #expect(findings.count == 2)
    for finding in findings {
      let oneLine = !finding.message.contains { $0.isNewline || $0 == "\t" }
      #expect(oneLine)
      #expect(finding.fix?.contains("did you mean") == false)
    }
    let image = try #require(findings.first { $0.message.contains("Image") })
    #expect((image.line, image.column) == (4, 2))
    #expect(
      image.message
        == "NSExtensionActivationSupportsImageWithMaxCount\\n is not a documented NSExtensionActivationRule "
        + "key; the system ignores it: it is NSExtensionActivationSupportsImageWithMaxCount followed by a line "
        + "break (U+000A)")
    #expect(
      image.fix
        == "remove the whitespace inside <key>, so that it reads NSExtensionActivationSupportsImageWithMaxCount"
    )
    let text = try #require(findings.first { $0.message.contains("Text") })
    #expect(
      text.message.hasPrefix(
        "\\tNSExtensionActivationSupportsText\\u{20} is not a documented NSExtensionActivationRule key"))
    #expect(
      text.message.hasSuffix(
        "it is NSExtensionActivationSupportsText preceded by a tab (U+0009), followed by a space (U+0020)"))
  }

  @Test(arguments: [
    ("NSExtensionActivationSupportsText", "NSExtensionActivationSupportsText"),
    ("Key\n", "Key\\n"),
    ("\r\nKey\t", "\\r\\nKey\\t"),
    (" Key With Spaces ", "\\u{20}Key With Spaces\\u{20}"),
    ("Key\u{200B}\u{A0}\u{7}", "Key\\u{200B}\\u{A0}\\u{7}"),
    ("C:\\n", "C:\\\\n"),
    ("Ключ", "Ключ"),
  ])
  func escapedKeysShowWhatCannotBeSeen(key: String, shown: String) {
    #expect(ActivationDictionary.escapedKey(key) == shown)
    let oneLine = !ActivationDictionary.escapedKey(key).contains { $0.isNewline }
    #expect(oneLine)
  }

  /// Every key 0 or `<false/>` (real-rules-holdout/18.plist): never activates, and the fix names keys, not
  /// the `@count` comparisons a dictionary does not have.
  @Test func dictionaryThatAllowsNothingIsToldWhichKeysLetContentIn() throws {
    let data = try Data(contentsOf: Fixtures.holdout.appendingPathComponent("18.plist"))
    let findings = try Self.lint("18.plist", data: data)
    #expect(findings.map(\.id) == ["RK002"])
    let fix = try #require(findings.first?.fix)
    #expect(fix.contains("…WithMaxCount key a count above 0") && !fix.contains("@count"))
  }

  @Test(arguments: ["04.plist", "08.plist", "11.plist", "27.plist", "30.plist", "36.plist"])
  func cleanDictionaries(name: String) throws {
    #expect(try Self.lint(name, data: Fixtures.data(name)).isEmpty)
  }

  /// Files, images and movies of up to 99 each: three counts compared with 99 that attachments raise
  /// independently make 100³ count states; the interval search decides them exactly, so lint no longer
  /// reports that it fell back to enumeration (it did while the count search was the only one).
  @Test func largeMaximaDecidedExactly() throws {
    #expect(try Self.lint("20.plist", data: Fixtures.data("20.plist")).isEmpty)
  }

  static func infoPlist(rule: String, attributes: String = "", intune: Bool = false) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \(intune ? "<key>IntuneMAMSettings</key><dict/>" : "")
      <key>NSExtension</key>
      <dict>
      <key>NSExtensionAttributes</key>
      <dict>
      \(attributes)
      <key>NSExtensionActivationRule</key>
      \(rule)
      </dict>
      <key>NSExtensionPointIdentifier</key>
      <string>com.apple.share-services</string>
      </dict>
      </dict>
      </plist>
      """.utf8)
  }

  @Test func strictMatchingBesideTheRule() throws {
    let data = Self.infoPlist(
      rule: "<dict><key>NSExtensionActivationSupportsText</key><true/></dict>",
      attributes: "<key>NSExtensionActivationUsesStrictMatching</key><integer>2</integer>")
    let findings = try Self.lint("Info.plist", data: data)
    #expect(findings.map(\.id) == ["RK008"])
    #expect(findings.first?.line == 9)
    #expect(findings.first?.fix == "move the key into the NSExtensionActivationRule dictionary")
  }

  /// Cordova's openwith template keeps the key beside the rule; once `convert` (or `configure`) has made the
  /// rule a predicate, the fix said to move it into a dictionary that is no longer there.
  @Test func strictMatchingBesideAPredicateRule() throws {
    let data = Self.infoPlist(
      rule: "<string>SUBQUERY(extensionItems, $e, $e.attachments.@count > 0).@count > 0</string>",
      attributes: "<key>NSExtensionActivationUsesStrictMatching</key><integer>2</integer>")
    let findings = try Self.lint("Info.plist", data: data).filter { $0.id == "RK008" }
    #expect(findings.count == 1)
    #expect(
      findings.first?.fix
        == "the rule is a predicate, to which strict matching does not apply: remove the key")
  }

  /// Activation keys beside the rule, as shipping apps wrote them: an empty rule with its keys beside it
  /// (Leitmotif, ShareExtension/Info.plist at bda8c44), so the extension is offered for nothing.
  @Test func keysBesideAnEmptyRuleAreNamed() throws {
    let data = Self.infoPlist(
      rule: "<dict/>",
      attributes: """
        <key>NSExtensionActivationSupportsImageWithMaxCount</key><integer>1</integer>
        <key>NSExtensionActivationSupportsWebURLWithMaxCount</key><integer>1</integer>
        """)
    let findings = try Self.lint("Info.plist", data: data)
    #expect(findings.map(\.id) == ["RK016", "RK016", "RK002"])
    #expect(
      findings.first?.message
        == "NSExtensionActivationSupportsImageWithMaxCount is beside NSExtensionActivationRule, where the system "
        + "does not read it")
    #expect(findings.first?.fix == "move the key into the NSExtensionActivationRule dictionary")
    #expect(findings.map(\.line) == [9, 10, 12])
    #expect(findings.first?.severity == .warning)
  }

  /// A rule plist that is an empty dictionary is that rule, not an Info.plist without one: it never activates.
  @Test func emptyRulePlistNeverActivates() throws {
    let data = Data(
      "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict/>\n</plist>\n".utf8)
    let findings = try Self.lint("rule.plist", data: data)
    #expect(findings.map(\.id) == ["RK002"])
  }

  /// Beside a predicate rule (swift-paperless, LeitnerBox) and one level up in NSExtension (Rocket.Chat,
  /// Seafile): the predicate says it itself, and NSExtension is not where activation keys go.
  @Test func keysBesideAPredicateOrInNSExtensionAreNamed() throws {
    let predicate = Self.infoPlist(
      rule: "<string>SUBQUERY(extensionItems, $e, $e.attachments.@count > 0).@count > 0</string>",
      attributes: "<key>NSExtensionActivationSupportsAttachmentsWithMaxCount</key><integer>10</integer>")
    let beside = try Self.lint("Info.plist", data: predicate).filter { $0.id == "RK016" }
    #expect(
      beside.map(\.fix) == [
        "the rule is a predicate, which says this itself: express it there, or remove the key"
      ])
    let text = String(
      decoding: Self.infoPlist(rule: "<dict><key>NSExtensionActivationSupportsText</key><true/></dict>"),
      as: UTF8.self
    )
    .replacing(
      "<key>NSExtensionPointIdentifier</key>",
      with:
        "<key>NSExtensionActivationDictionaryVersion</key><integer>2</integer>\n<key>NSExtensionPointIdentifier</key>"
    )
    let above = try Self.lint("Info.plist", data: Data(text.utf8))
    #expect(above.map(\.id) == ["RK016"])
    #expect(
      above.first?.message
        == "NSExtensionActivationDictionaryVersion is in NSExtension, where the system does not read it")
    #expect(above.first?.line == 13)
  }

  @Test func webPageNeedsPreprocessing() throws {
    let rule = "<dict><key>NSExtensionActivationSupportsWebPageWithMaxCount</key><integer>1</integer></dict>"
    let findings = try Self.lint("Info.plist", data: Self.infoPlist(rule: rule))
    #expect(findings.map(\.id) == ["RK009"])
    // A note, not a warning: the extension is still offered for pages and gets their URL (docs/language.md).
    #expect(findings.first?.severity == .note)
    #expect(
      findings.first?.message.hasSuffix("receives the page's URL but no JavaScript preprocessing results")
        == true)
    let withScript = Self.infoPlist(
      rule: rule, attributes: "<key>NSExtensionJavaScriptPreprocessingFile</key><string>Action</string>")
    #expect(try Self.lint("Info.plist", data: withScript).isEmpty)
  }

  @Test func intuneAppWithDictionaryRule() throws {
    let rule = "<dict><key>NSExtensionActivationSupportsImageWithMaxCount</key><integer>1</integer></dict>"
    let findings = try Self.lint("Info.plist", data: Self.infoPlist(rule: rule, intune: true))
    #expect(findings.map(\.id) == ["RK010"])
  }

  @Test func repeatedKeyIsReportedAtTheValueThatWins() throws {
    // The device keeps the last value: 0 images, so the rule never activates for images.
    let rule = """
      <dict>
      <key>NSExtensionActivationSupportsImageWithMaxCount</key>
      <integer>5</integer>
      <key>NSExtensionActivationSupportsImageWithMaxCount</key>
      <integer>0</integer>
      <key>NSExtensionActivationSupportsText</key>
      <true/>
      </dict>
      """
    let findings = try Self.lint("Info.plist", data: Self.infoPlist(rule: rule))
    #expect(findings.map(\.id) == ["RK013"])
    let finding = try #require(findings.first)
    #expect((finding.line, finding.column, finding.severity) == (14, 1, .warning))
    #expect(
      finding.message
        == "the key NSExtensionActivationSupportsImageWithMaxCount appears twice in one dictionary (first at "
        + "line 12, column 1); the system uses this later value and ignores the first")
    #expect(finding.fix == "remove one of the two entries")
  }

  @Test func repeatedKeyInAnOldStylePlist() throws {
    let text =
      "{\n  NSExtensionActivationSupportsImageWithMaxCount = 2;\n  NSExtensionActivationSupportsImageWithMaxCount = 1;\n}"
    let findings = try Self.lint("rule.plist", data: Data(text.utf8))
    // Old-style plists hold strings only, so the count is also a mistyped value.
    #expect(findings.map(\.id) == ["RK007", "RK013"])
    let duplicate = try #require(findings.last)
    #expect((duplicate.line, duplicate.column) == (3, 3))
    #expect(duplicate.message.contains("(first at line 2, column 3)"))
  }

  @Test func repeatedKeyOutsideTheRuleIsReportedToo() throws {
    let data = Self.infoPlist(
      rule: "<dict><key>NSExtensionActivationSupportsText</key><true/></dict>",
      attributes: "<key>NSExtensionServiceAllowsFinderPreviewItem</key><true/>"
        + "<key>NSExtensionServiceAllowsFinderPreviewItem</key><false/>")
    let findings = try Self.lint("Info.plist", data: data)
    #expect(findings.map(\.id) == ["RK013"])
    #expect((findings.first?.line, findings.first?.column) == (9, 60))
  }

  @Test func buildSettingRuleCannotBeChecked() throws {
    let findings = try Self.lint(
      "Info.plist", data: Self.infoPlist(rule: "<string>$(SHARE_EXTENSION_SUBQUERY)</string>"))
    #expect(findings.map(\.id) == ["RK011"])
    #expect(findings.first?.severity == .note)
  }

  @Test func idsAreStableAndUnique() {
    let ids = LintCheck.allCases.map(\.rawValue)
    #expect(Set(ids).count == ids.count)
    #expect(LintCheck(rawValue: "RK001") == .truePredicate)
    #expect(LintCheck.missingIntuneTwins.name == "missing-intune-twins")
  }
}

@Suite struct ExpectationsTests {
  static let json = """
    {
      "rules": {"images": "images.rule"},
      "contexts": {
        "two-jpegs": {"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["public.jpeg"]},
                                                          {"registeredTypeIdentifiers": ["public.jpeg"]}]}]},
        "from-file": "url.json"
      },
      "expectations": [
        {"rule": "images", "context": "two-jpegs", "activates": true},
        {"rule": "images", "context": "photos-3", "activates": false},
        {"rule": "images", "context": "from-file", "activates": true},
        {"rule": "missing", "context": "two-jpegs", "activates": true},
        {"rule": "images", "context": "no-such-preset", "activates": true}
      ]
    }
    """

  @Test func outcomesAndReport() throws {
    let file = try ExpectationsFile(json: Data(Self.json.utf8))
    let rule = DictionaryConverter.predicate(for: ActivationDictionary([.imageMaxCount: 2]), style: .apple)
    var loadedRules: [String] = []
    let outcomes = file.run(
      directory: URL(fileURLWithPath: "/examples"),
      loadRule: { url throws(ActivationRuleError) in
        loadedRules.append(url.path)
        return rule
      },
      loadContext: { url throws(ActivationRuleError) in
        #expect(url.path == "/examples/url.json")
        return ExtensionContext(attachments: [["public.url"]])
      })
    #expect(loadedRules == ["/examples/images.rule"])
    #expect(outcomes.map(\.passed) == [true, true, false, false, false])
    #expect(outcomes[3].problem == "malformed JSON: no rule named missing in \"rules\"")
    let report = ExpectationsFile.report(outcomes)
    #expect(report.hasPrefix("rule     context         expected   actual\n"))
    #expect(report.hasSuffix("3 of 5 expectations not met"))
    #expect(ExpectationsFile.report(Array(outcomes.prefix(2))) == "2 expectations, all met")
  }
}
