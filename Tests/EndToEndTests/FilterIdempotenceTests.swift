import CLITestSupport
import Foundation
import Testing

/// `rulekit inject` and `rulekit format` as filters: a second pass changes nothing, and standard output
/// carries exactly what `--in-place` writes (issue 17).
@Suite struct FilterIdempotenceTests {
  /// Every rule of the real corpus and the examples that parses.
  static let rules: [String] = {
    var paths: [String] = []
    let corpus = RuleKitBinary.corpus
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    for name in names.sorted() where name.hasSuffix(".predicate") || name.hasSuffix(".plist") {
      paths.append("Tests/Fixtures/real-rules/" + name)
    }
    let examples = RuleKitBinary.packageRoot.appendingPathComponent("Examples")
    let enumerator = FileManager.default.enumerator(atPath: examples.path)
    while let relative = enumerator?.nextObject() as? String {
      if relative.hasSuffix(".predicate"), !relative.hasPrefix("rules-with-errors/") {
        paths.append("Examples/" + relative)
      }
    }
    return paths.sorted()
  }()

  static func contents(_ path: String) throws -> String {
    try String(contentsOf: RuleKitBinary.packageRoot.appendingPathComponent(path), encoding: .utf8)
  }

  @Test func theCorpusIsThere() {
    #expect(Self.rules.count >= 40)
  }

  @Test("inject < r | inject == inject < r, and the same for format", arguments: ["inject", "format"], rules)
  func secondPassChangesNothing(command: String, rule: String) throws {
    let first = try RuleKitBinary.run([command], standardInput: try Self.contents(rule))
    #expect(first.status == 0, "\(first.standardError)")
    let second = try RuleKitBinary.run([command], standardInput: first.standardOutput)
    #expect(second.status == 0, "\(second.standardError)")
    #expect(Array(second.standardOutput.utf8) == Array(first.standardOutput.utf8))
  }

  @Test("standard output is what --in-place writes", arguments: rules.filter { $0.hasSuffix(".predicate") })
  func standardOutputIsTheInPlaceEdit(rule: String) throws {
    let text = try Self.contents(rule)
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    for command in ["inject", "format"] {
      let file = directory.appendingPathComponent("rule.predicate")
      try Data(text.utf8).write(to: file)
      let filtered = try RuleKitBinary.run([command], standardInput: text)
      let inPlace = try RuleKitBinary.run([command, "--in-place", "--quiet", "--rule", file.path])
      #expect(inPlace.status == 0, "\(inPlace.standardError)")
      let written = try Data(contentsOf: file)
      #expect(Array(written) == Array(filtered.standardOutput.utf8), "\(command)")
    }
  }

  @Test func aRuleWithoutAFinalLineBreakKeepsItsBytes() throws {
    let rule = #"ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url""#
    let first = try RuleKitBinary.run(["inject"], standardInput: rule)
    #expect(!first.standardOutput.hasSuffix("\n"), "a file without a final line break is written without one")
    let second = try RuleKitBinary.run(["inject"], standardInput: first.standardOutput)
    #expect(second.standardOutput == first.standardOutput)
  }

  /// A dictionary rule copied out of an Info.plist without its `<plist>` wrapper reads as that rule.
  @Test func aBareDictFragmentIsTheDictionaryRule() throws {
    let fragment = """
      <dict>
      \t<key>NSExtensionActivationSupportsWebURLWithMaxCount</key>
      \t<integer>1</integer>
      \t<key>NSExtensionActivationSupportsImageWithMaxCount</key>
      \t<integer>3</integer>
      </dict>

      """
    let wrapped =
      #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<plist version=\"1.0\">\n" + fragment
      + "</plist>\n"
    let bare = try RuleKitBinary.run(["format"], standardInput: fragment)
    #expect(bare.status == 0, "\(bare.standardError)")
    let whole = try RuleKitBinary.run(["format"], standardInput: wrapped)
    #expect(bare.standardOutput == whole.standardOutput)
    #expect(bare.standardOutput.contains(#"UTI-CONFORMS-TO "public.image""#))
    let lint = try RuleKitBinary.run(["lint", "--rule", "-"], standardInput: fragment)
    #expect(lint.status == 0, "\(lint.standardOutput)\(lint.standardError)")
  }

  /// Rule text with its XML entities still escaped: an error whose fix is the decoded text.
  @Test func xmlEscapedTextGetsTheDecodedTextAsItsFix() throws {
    let escaped =
      "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO &quot;public.url&quot; &amp;&amp; x &gt; 1\n"
    let outcome = try RuleKitBinary.run(["format", "--color", "never"], standardInput: escaped)
    #expect(outcome.status == 65)
    let lines = outcome.standardError.split(separator: "\n").map(String.init)
    #expect(lines.first?.hasPrefix("<stdin>:1:50: error: XML entity '&quot;' in predicate text") == true)
    // The fix, under the text it replaces: from the first entity to the end of the last, decoded.
    #expect(lines.last?.trimmingCharacters(in: .whitespaces) == #""public.url" && x >"#)
  }
}
