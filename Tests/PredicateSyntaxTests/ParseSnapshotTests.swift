import Foundation
import PredicateSyntax
import TestSupport
import Testing

/// The parser's whole observable outcome — the tree with every node's range, or the error with its kind,
/// range, message and fix, and the warnings — for about 9 000 inputs, compared with a snapshot recorded from
/// the parser before the lexer and descent were rewritten for speed (issue 18, part 12). The inputs are the
/// corpus, lexer edge cases, printed random trees, and byte-level mutations of all of them (deletions,
/// insertions of delimiters, quotes, escapes, invalid and non-ASCII bytes), so every error path of the
/// lexer is reached too.
///
/// `RULEKIT_RECORD_PARSE_SNAPSHOT=1 swift test --filter ParseSnapshotTests` writes the snapshot again; do
/// that only for a deliberate change of the parser's behaviour, and say so in the commit. The inputs are
/// generated (`RandomTreeGenerator`, `SeededGenerator` with fixed seeds), so a change to the generator or to
/// the printer changes the inputs too: record again at the commit before that change, not after it.
@Suite struct ParseSnapshotTests {
  static let snapshotURL = Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/parse-snapshot.txt")

  /// Lexer edge cases: every token form, in several spellings, and the errors around them.
  static let edgeCases: [String] = [
    "a == 1", "a==1", "a\t==\n1", "a\r\n== 1", "a\r== 1", "\u{FEFF}a == 1", "  \n\t ", "",
    "naïve == 'café'", "name == \"日本語\"", "名前 == 1", "a == \"\\u00e9\\n\\t\\\\\\\"\"", "a == '\\x41'",
    "a == \"\\q\"", "a == \"unterminated", "a == 'it''s'", "a == \"a\\\nb\"", "a == \"\u{1F600}\"",
    "a == 0x1F", "a == 0X1f", "a == 0o17", "a == 0b101", "a == 0B2", "a == 0x", "a == 1e5", "a == 1E-5",
    "a == 1.5e+3", "a == .5", "a == 5.", "a == 1.2.3", "a == 12abc", "a == 18446744073709551615",
    "a == 18446744073709551616", "a == -9223372036854775808", "a == 007", "a == 1e", "a == 1e+",
    "a and b == 1", "a AND b == 1 aNd c == 2", "NOT a == 1", "not a == 1", "! a == 1", "TruePredicate",
    "falsepredicate", "a In {1,2}", "a between {1, 2}", "a BeginsWith 'x'", "a endswith[cd] 'x'",
    "a like[c] 'x*'", "a matches '.*'", "a contains[n] 'x'", "a == nil", "a == NULL", "a == yes",
    "a == No", "self == 1", "SELF.a == 1", "anykey == 1", "a[first] == 1", "a[LAST] == 1", "a[size] == 1",
    "a[0] == 1", "size == 2", "#size == 2", "#AND == 1", "$x == 1", "$ == 1", "@count == 1", "a.@count > 1",
    "@ == 1", "# == 1", "#1 == 1", "$1 == 1", "a.#first == 1", "x UTI-CONFORMS-TO 'public.item'",
    "x uti-conforms-to 'public.item'", "x UTI-EQUALS 'a'", "x Uti-Equals 'a'", "x UTI-CONFORMS 'a'",
    "x UTI-CONFORMS-TOO 'a'", "x UTI - EQUALS 'a'", "x UTI-EQUALSX 'a'", "UTI == 1", "UTI-CONFORMS-TO",
    "a == %@", "a == %K", "%K == %@", "a == %d", "a == %ld", "a == %", "a =< 1", "a => 1", "a <> 1",
    "a != 1", "a = 1", "a < 1", "a <= 1", "a > 1", "a >= 1", "a == 1 && b == 2 || c == 3", "a & b",
    "a | b", "a == 1 &amp;&amp; b == 2", "a == 1 &lt; 2", "a ? 1", "a ~ 1", "a == 1 ;", "a == 1 \u{0}",
    "a == \u{201C}x\u{201D}", "a == \u{2018}x\u{2019}", "a == \"x\u{201D}", "a == \u{201C}x",
    "a \u{00A0}== 1", "a == 1\u{2028}", "sum:({1, 2}) == 3", "add:to:(1, 2) == 3", "a:b == 1", "a := 1",
    "$a := 1", "$a := $b := 1", "FUNCTION(a, 'x:', 1) == 1", "function(a, 'x') == 1",
    "TERNARY(a == 1, 2, 3) == 2", "CAST('1', 'NSNumber') == 1", "cast(1, \"NSDate\") == 1",
    "SUBQUERY(a, $x, $x == 1).@count > 0", "subquery(a, x, x == 1).@count > 0", "a UNION b == c",
    "a union b intersect c minus d == e", "2 ** 3 ** 2 == 1", "-2 ** 2 == 1", "- -1 == 1", "-a == 1",
    "a + b * c - d / e == 1", "(a + b) * 2 > 3", "((a == 1))", "(a == 1", "a == 1)", "{1, 2", "a[1",
    "a == (1", "ANY ANY a == 1", "ALL a == 1", "NONE a == 1", "SOME a == 1", "any a == 1", "a ==",
    "== 1", "a", "a.b.c.d == 1", "(a).b == 1", "a.b[0].c == 1", "a . b == 1", "a.", "a.1 == 1",
    "a.AND == 1", "a.first == 1", "a == 'x' 'y'", "abcdefghijklmnopqrstuvwxyz == 1",
    "ABCDEFGHIJKLMNOP == 1", "CASEINSENSITIVE == 1", "ci == 1", "a ==[c] 1", "a ==[cdnl] 1", "a ==[x] 1",
    "a ==[] 1", "a ==[c 1", "truepredicatex", "TRUEPREDICATE AND FALSEPREDICATE", "\u{7F} == 1",
    "a\u{0301} == 1", "é == 1",
  ]

  /// Bytes inserted by the mutations: delimiters, operators, quotes, escapes, digits, letters, whitespace,
  /// and the starts of multi-byte and invalid sequences.
  static let insertions: [[UInt8]] =
    [
      "(", ")", "{", "}", "[", "]", ",", ".", "=", "!", "<", ">", "&", "|", "+", "-", "*", "/", ":", "$", "@",
      "#", "%", "\"", "'", "\\", "0", "9", "x", "e", "_", " ", "\t", "\n", "\r", "\u{201C}", "é", "\u{0}",
    ].map { Array(($0 as String).utf8) } + [[0x80], [0xC3], [0xFF], [0xE2, 0x80]]

  /// Every input, in a fixed order.
  static func inputs() throws -> [[UInt8]] {
    var texts = edgeCases
    for name in Fixtures.corpusRuleNames { texts.append(try Fixtures.corpusRule(name)) }
    var generator = RandomTreeGenerator(random: SeededGenerator(seed: 12))
    for iteration in 0..<400 {
      let tree = generator.predicate(depth: 1 + iteration % 5)
      texts.append(PredicatePrinter().string(for: tree))
      if iteration % 4 == 0 {
        texts.append(PredicatePrinter(layout: .pretty, logicalOperators: .words).string(for: tree))
      }
    }
    var inputs = texts.map { Array($0.utf8) }
    var random = SeededGenerator(seed: 99)
    for text in inputs where !text.isEmpty {
      for _ in 0..<(text.count > 200 ? 40 : 6) {
        var mutated = text
        let at = Int.random(in: 0..<mutated.count, using: &random)
        switch Int.random(in: 0..<3, using: &random) {
        case 0: mutated.remove(at: at)
        case 1: mutated.insert(contentsOf: random.pick(insertions), at: at)
        default: mutated.removeSubrange(at..<mutated.count)
        }
        inputs.append(mutated)
      }
    }
    return inputs
  }

  static func describe(_ range: SourceRange) -> String {
    "\(range.start.line):\(range.start.column)@\(range.start.offset)-\(range.end.line):\(range.end.column)@\(range.end.offset)"
  }

  static func describe(_ diagnostic: PredicateDiagnostic) -> String {
    var text = "\(describe(diagnostic.range)) \(diagnostic.message)"
    if let fix = diagnostic.fix { text += " [fix \(fix.title) \(describe(fix.range)) '\(fix.replacement)']" }
    return text
  }

  /// One line: the outcome of parsing `input` strictly and leniently. Trees are given by a hash of their JSON
  /// (every node, field and range) and their canonical print (a hash of it when longer than 80 bytes, which
  /// keeps the snapshot small).
  static func outcome(_ input: [UInt8]) -> String {
    var parts: [String] = []
    for lenient in [false, true] {
      do {
        let result = try PredicateParser.parse(utf8: input, options: .init(lenient: lenient))
        let json = SyntaxTreeJSON.string(for: result.predicate)
        let warnings = result.warnings.map(describe).joined(separator: " | ")
        let printed = PredicatePrinter.canonical(result.predicate)
        parts.append("ok \(hash(json)) \(printed.utf8.count <= 80 ? printed : hash(printed)) \(warnings)")
      } catch {
        let warnings = error.warnings.map(describe).joined(separator: " | ")
        parts.append("error \(error.kind) \(describe(error.diagnostic)) \(warnings)")
      }
    }
    // Lenient reading differs only with typographic quotes: otherwise its half is "same".
    if parts[1] == parts[0] { parts[1] = "same" }
    return parts.joined(separator: " || ").replacingOccurrences(of: "\n", with: "\\n")
      .replacingOccurrences(of: "\r", with: "\\r")
  }

  /// FNV-1a over the UTF-8 bytes: stable across runs, unlike `Hasher`.
  static func hash(_ text: String) -> String {
    var value: UInt64 = 0xCBF2_9CE4_8422_2325
    for byte in text.utf8 { value = (value ^ UInt64(byte)) &* 0x100_0000_01B3 }
    return String(value, radix: 16)
  }

  @Test func everyOutcomeMatchesTheSnapshot() throws {
    let lines = try Self.inputs().enumerated().map { "\($0.offset) \(Self.outcome($0.element))" }
    if ProcessInfo.processInfo.environment["RULEKIT_RECORD_PARSE_SNAPSHOT"] == "1" {
      try (lines.joined(separator: "\n") + "\n").write(
        to: Self.snapshotURL, atomically: true, encoding: .utf8)
      return
    }
    let recorded = try String(contentsOf: Self.snapshotURL, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false
    ).dropLast().map(String.init)
    #expect(recorded.count == lines.count)
    var mismatches = 0
    for (line, expected) in zip(lines, recorded) where line != expected {
      mismatches += 1
      if mismatches <= 10 { Issue.record("now:    \(line)\nbefore: \(expected)") }
    }
    #expect(mismatches == 0)
  }
}
