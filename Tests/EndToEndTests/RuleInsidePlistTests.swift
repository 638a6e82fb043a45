import CLITestSupport
import Foundation
import Testing

@Suite("--rule FILE finds the rule inside a plist (docs/design.md's CLI contract)")
struct RuleInsidePlistTests {
  static let share = ConfiguredSampleApp.example.appendingPathComponent("ShareExtension/Info.plist").path
  static let action = ConfiguredSampleApp.example.appendingPathComponent("ActionExtension/Info.plist").path

  @Test func evalReadsAnExtensionsPredicateRule() throws {
    let outcome = try RuleKitBinary.run(["eval", "--rule", Self.share, "--attachment", "com.adobe.pdf"])
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput == "true\n")
  }

  @Test func aDictionaryRuleIsEvaluatedAsApplesPredicate() throws {
    let url = try RuleKitBinary.run(["eval", "--rule", Self.action, "--attachment", "public.url"])
    #expect(url.standardOutput == "true\n")
    let pdf = try RuleKitBinary.run(["eval", "--rule", Self.action, "--attachment", "com.adobe.pdf"])
    #expect(pdf.standardOutput == "false\n")
  }

  @Test func aSyntaxErrorPointsIntoThePlist() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-rule-plist-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let broken = folder.appendingPathComponent("Info.plist")
    let text = try String(contentsOfFile: Self.share, encoding: .utf8)
      .replacingOccurrences(of: "UTI-CONFORMS-TO \"com.adobe.pdf\"", with: "UTI-CONFORMS \"com.adobe.pdf\"")
    try Data(text.utf8).write(to: broken)
    let outcome = try RuleKitBinary.run(["parse", "--rule", broken.path])
    #expect(outcome.status == 65)
    #expect(
      outcome.standardError.hasPrefix(
        "\(broken.path):27:51: error: expected a comparison operator such as '==' or 'IN', found 'UTI'\n"
          + "        ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS \"com.adobe.pdf\" ||\n"))
  }

  /// The third sweep met a built extension's binary Info.plist committed under `build/` (melvinlu/snapzify,
  /// no licence, so not vendored: the sample app's share extension is packed as binary here instead).
  /// `--in-place` cannot edit it as text; the error used to say "needs --rule with an XML plist" without
  /// saying the file was not one, nor how to make it one.
  @Test func inPlaceOnABinaryPlistSaysWhatItIsAndHowToConvertIt() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-rule-plist-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let binary = folder.appendingPathComponent("Info.plist")
    let value = try PropertyListSerialization.propertyList(
      from: try Data(contentsOf: URL(fileURLWithPath: Self.share)), format: nil)
    let bytes = Data(SyntheticApp.binaryPlist(value))
    try bytes.write(to: binary)
    for subcommand in ["inject", "convert"] {
      let outcome = try RuleKitBinary.run([subcommand, "--rule", binary.path, "--in-place"])
      #expect(outcome.status == 2, "\(subcommand)")
      #expect(
        outcome.standardError.contains(
          "rulekit: error: \(binary.path): a binary property list: --in-place edits the rule in an XML plist "
            + "or a predicate file as text\nhint: convert it to XML first (plutil -convert xml1 \(binary.path))"
        ),
        "\(subcommand): \(outcome.standardError)")
      // Nothing is said of an edit that is not written (inject used to print "added 3: …" first).
      #expect(!outcome.standardError.contains("added"), "\(subcommand): \(outcome.standardError)")
      #expect(try Data(contentsOf: binary) == bytes)
    }
    let standardInput = try RuleKitBinary.run(["inject", "--in-place"], standardInput: "TRUEPREDICATE")
    #expect(standardInput.status == 2)
    #expect(standardInput.standardError.contains("a rule from standard input or --predicate has no file"))
  }

  /// A dictionary rule is converted before its twins are added; `inject` said nothing of them (and its
  /// JSON had no `addedTwins`), though its help promises the list (a blind trial on Hacki's share extension).
  @Test func injectListsTheTwinsADictionaryRuleGains() throws {
    // Web URLs that are not file URLs: the exclusion excludes the file URL's twin too.
    let expected = ["com.microsoft.intune.mam.public.url", "com.microsoft.intune.mam.public.file-url"]
    let text = try RuleKitBinary.run(["inject", "--rule", Self.action])
    #expect(text.status == 0)
    #expect(
      text.standardError.contains("added 2: \(expected.joined(separator: ", "))\n"), "\(text.standardError)")
    let json = try RuleKitBinary.run(["inject", "--rule", Self.action, "--format", "json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    #expect(document?["addedTwins"] as? [String] == expected)
    let canonical = try RuleKitBinary.run(["inject", "--rule", Self.share, "--canonical", "--format", "json"])
    let rebuilt =
      try JSONSerialization.jsonObject(with: Data(canonical.standardOutput.utf8)) as? [String: Any]
    #expect((rebuilt?["addedTwins"] as? [String])?.isEmpty == false, "\(canonical.standardOutput)")
  }

  /// A rule plist whose root is a dictionary rule becomes one whose root is a predicate string when
  /// `inject --in-place` or `convert --in-place` converts it; rulekit refused its own output ("the root of
  /// the property list is not a dictionary"), found by mutating the corpus's rule plists.
  @Test func aConvertedRulePlistReadsBack() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-rule-plist-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let corpus = RuleKitBinary.packageRoot.appendingPathComponent("Tests/Fixtures/real-rules/08.plist")
    for subcommand in ["inject", "convert"] {
      let copy = folder.appendingPathComponent("\(subcommand).plist")
      try FileManager.default.copyItem(at: corpus, to: copy)
      #expect(try RuleKitBinary.run([subcommand, "--rule", copy.path, "--in-place"]).status == 0)
      let written = try String(contentsOf: copy, encoding: .utf8)
      #expect(written.contains("<plist version=\"1.0\">\n<string>SUBQUERY"), "\(written)")
      for command in [["parse"], ["lint"], ["inject", "--in-place"], ["format", "--in-place"]] {
        let outcome = try RuleKitBinary.run(
          command + (command == ["lint"] ? [copy.path] : ["--rule", copy.path]))
        #expect(
          outcome.status == 0 || command == ["lint"] && outcome.status == 1,
          "\(command): \(outcome.standardError)")
        #expect(!outcome.standardError.contains("error"), "\(command): \(outcome.standardError)")
      }
    }
  }

  @Test func formatInPlaceRewritesOnlyTheRuleString() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-rule-plist-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let copy = folder.appendingPathComponent("Info.plist")
    try FileManager.default.copyItem(atPath: Self.share, toPath: copy.path)
    let outcome = try RuleKitBinary.run(["format", "--rule", copy.path, "--in-place"])
    #expect(outcome.status == 0)
    let before = try String(contentsOfFile: Self.share, encoding: .utf8)
    let after = try String(contentsOf: copy, encoding: .utf8)
    #expect(after.hasPrefix(before.components(separatedBy: "\t\t\t<string>SUBQUERY")[0]))
    #expect(after.contains("<string>SUBQUERY(extensionItems, $extensionItem, SUBQUERY("))
    #expect(after.contains("&lt;= 5).@count == 1</string>"))
    #expect(after.hasSuffix(before.components(separatedBy: "</string>\n\t\t</dict>")[1]))
    // The dictionary rule is refused, and its file is left as it was.
    let dictionaryCopy = folder.appendingPathComponent("Action.plist")
    try FileManager.default.copyItem(atPath: Self.action, toPath: dictionaryCopy.path)
    let refused = try RuleKitBinary.run(["format", "--rule", dictionaryCopy.path, "--in-place"])
    #expect(refused.status == 65)
    #expect(refused.standardError.contains("'rulekit convert --in-place'"))
    #expect(try Data(contentsOf: dictionaryCopy) == (try Data(contentsOf: URL(fileURLWithPath: Self.action))))
  }
}
