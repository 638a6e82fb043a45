import Foundation
import PredicateSyntax
import Testing

@testable import PredicateEvaluation

@Suite("String options [c] [d] [n]")
struct StringOptionTests {
  /// `SELF op[options] literal` against a string object.
  static func evaluate(
    _ object: String, _ op: ComparisonOperator, _ literal: String, _ options: ComparisonOptions
  )
    -> Result<Bool, EvaluationError>
  {
    evaluateBoth(
      comparison(ExpressionNode(.evaluatedObject), op, string(literal), options: options), on: .string(object)
    )
  }

  struct FoldingCase: Sendable, CustomTestStringConvertible {
    var object: String
    var op: ComparisonOperator
    var literal: String
    var options: ComparisonOptions
    var expected: Bool
    init(
      _ object: String, _ op: ComparisonOperator, _ literal: String, _ options: ComparisonOptions,
      _ expected: Bool
    ) {
      (self.object, self.op, self.literal, self.options, self.expected) = (
        object, op, literal, options, expected
      )
    }
    var testDescription: String { "\(object) \(op.rawValue)[\(options.rawValue)] \(literal)" }
  }

  @Test(
    "folding follows Unicode on every platform",
    arguments: [
      FoldingCase("Ü", .equalTo, "U", .diacriticInsensitive, true),
      FoldingCase("Ü", .equalTo, "u", .diacriticInsensitive, false),
      FoldingCase("Ü", .equalTo, "u", [.caseInsensitive, .diacriticInsensitive], true),
      FoldingCase("naïve", .equalTo, "naive", .diacriticInsensitive, true),
      FoldingCase("naïve", .like, "naive", .diacriticInsensitive, true),
      FoldingCase("café", .endsWith, "e", .diacriticInsensitive, true),
      FoldingCase("café", .endsWith, "e", [], false),
      FoldingCase("straße", .equalTo, "STRASSE", .caseInsensitive, true),
      FoldingCase("straße", .equalTo, "strasse", [], false),
      FoldingCase("İstanbul", .beginsWith, "i", [.caseInsensitive, .diacriticInsensitive], true),
      FoldingCase("İstanbul", .beginsWith, "i", [], false),
      FoldingCase("NeXT", .like, "next", .caseInsensitive, true),
      FoldingCase("NeXT", .like, "next", [], false),
      FoldingCase("ΣΊΣΥΦΟΣ", .equalTo, "σίσυφος", .caseInsensitive, true),
      FoldingCase("Ünïcödé", .contains, "NICO", [.caseInsensitive, .diacriticInsensitive], true),
      FoldingCase("Ünïcödé", .contains, "NICO", .normalized, false),
      // [n] supersedes [c] and [d] and compares scalars: precomposed é is not e + U+0301.
      FoldingCase("\u{E9}", .equalTo, "e\u{301}", .normalized, false),
      FoldingCase("\u{E9}", .equalTo, "e\u{301}", [], true),
      FoldingCase("ABC", .equalTo, "abc", [.normalized, .caseInsensitive], false),
    ])
  func folding(_ testCase: FoldingCase) {
    #expect(
      Self.evaluate(testCase.object, testCase.op, testCase.literal, testCase.options)
        == .success(testCase.expected))
  }

  @Test(
    "LIKE: ? is one character, * any run, everything else literal, whole string",
    arguments: [
      FoldingCase("abc", .like, "a?c", [], true),
      FoldingCase("abbc", .like, "a?c", [], false),
      FoldingCase("abbbc", .like, "a*c", [], true),
      FoldingCase("ac", .like, "a*c", [], true),
      FoldingCase("abcd", .like, "a*c", [], false),
      FoldingCase("a.c", .like, "a.c", [], true),
      FoldingCase("abc", .like, "a.c", [], false),
      FoldingCase("a+b", .like, "a+b", [], true),
      FoldingCase("a*b", .like, "a\\*b", [], true),
      FoldingCase("axb", .like, "a\\*b", [], false),
      FoldingCase("a?b", .like, "a\\?b", [], true),
      FoldingCase("", .like, "*", [], true),
      FoldingCase("", .like, "?", [], false),
      FoldingCase("é", .like, "?", [], true),
      FoldingCase("aaaaaaaaaaaaaaaaaaaaaaaaaaaaab", .like, "*a*a*a*a*a*a*c", [], false),
    ])
  func like(_ testCase: FoldingCase) {
    #expect(Self.evaluate(testCase.object, .like, testCase.literal, []) == .success(testCase.expected))
  }

  @Test(
    "the ASCII fast path folds every ASCII character as Foundation does",
    arguments: [
      ComparisonOptions.caseInsensitive, .diacriticInsensitive, [.caseInsensitive, .diacriticInsensitive],
    ])
  func asciiFolding(_ options: ComparisonOptions) throws {
    let strings = StringComparison(options)
    var foundationOptions: String.CompareOptions = []
    if strings.foldsCase { foundationOptions.insert(.caseInsensitive) }
    if strings.foldsDiacritics { foundationOptions.insert(.diacriticInsensitive) }
    let everyASCIICharacter = (0..<128).compactMap { Unicode.Scalar($0) }.map { String(Character($0)) }
    for text in everyASCIICharacter + ["Hello, World! 0x1F", "MiXeD_case-Text with ~^`'\"", ""] {
      let fast = try #require(StringComparison.asciiFolded(text, foldsCase: strings.foldsCase))
      #expect(fast == text.folding(options: foundationOptions, locale: nil), "\(text.debugDescription)")
      #expect(strings.fold(text) == fast)
    }
    #expect(StringComparison.asciiFolded("Zoë", foldsCase: true) == nil)
  }

  @Test(
    "byte-wise CONTAINS and LIKE keep to characters: CR LF is one, a combining mark joins its base",
    arguments: [
      FoldingCase("a\r\nb", .contains, "\r", [], false),
      FoldingCase("a\r\nb", .contains, "\r\n", [], true),
      FoldingCase("e\u{301}x", .contains, "e", [], false),
      FoldingCase("xe\u{301}", .contains, "e\u{301}", [], true),
      FoldingCase("abcabd", .contains, "abd", [], true),
      FoldingCase("abcabd", .contains, "abe", [], false),
      FoldingCase("ABCabd", .contains, "cAB", .caseInsensitive, true),
      FoldingCase("a\r\nb", .like, "a?b", [], true),
      FoldingCase("a\r\nb", .like, "a??b", [], false),
      FoldingCase("e\u{301}", .like, "?", [], true),
      FoldingCase("AbC", .like, "a?c", .caseInsensitive, true),
    ])
  func characterWise(_ testCase: FoldingCase) {
    #expect(
      Self.evaluate(testCase.object, testCase.op, testCase.literal, testCase.options)
        == .success(testCase.expected))
  }

  @Test(
    "MATCHES is a whole-string PCRE2 match in UTF mode",
    arguments: [
      FoldingCase("CATCATCAT", .matches, ".*(CAT){3,}(?!CA).*", [], true),
      FoldingCase("abc", .matches, "b", [], false),
      FoldingCase("abc", .matches, ".*b.*", [], true),
      FoldingCase("ABC", .matches, "abc", ComparisonOptions.caseInsensitive, true),
      FoldingCase("ABC", .matches, "abc", [], false),
      FoldingCase("é", .matches, ".", [], true),
      FoldingCase("😀", .matches, "^.$", [], true),
      FoldingCase("Ünï", .matches, "\\w+", [], true),
      FoldingCase("naïve", .matches, "naive", .diacriticInsensitive, true),
      // `.` matches a line break, as GNUstep's UREGEX_DOTALL and OS X (docs/language.md).
      FoldingCase("line\nbreak", .matches, "line.break", [], true),
    ])
  func matches(_ testCase: FoldingCase) {
    #expect(
      Self.evaluate(testCase.object, .matches, testCase.literal, testCase.options)
        == .success(testCase.expected))
  }

  @Test("a catastrophic pattern ends with an error through PCRE2's limits, not a hang")
  func catastrophicBacktracking() {
    let subject = String(repeating: "a", count: 30) + "b"
    let result = Self.evaluate(subject, .matches, "(a+)+$", [])
    guard case .failure(let error) = result else {
      Issue.record("expected a limit error, got \(result)")
      return
    }
    #expect(error.kind == .regularExpressionLimit)
  }

  @Test("an invalid pattern is an error naming the pattern's range")
  func invalidPattern() {
    let start = SourcePosition(line: 1, column: 14, offset: 13)
    let end = SourcePosition(line: 1, column: 19, offset: 18)
    let pattern = ExpressionNode(.constant(.string("(ab")), range: SourceRange(start: start, end: end))
    let result = evaluateBoth(
      comparison(ExpressionNode(.evaluatedObject), .matches, pattern), on: .string("ab"))
    guard case .failure(let error) = result else {
      Issue.record("expected an error, got \(result)")
      return
    }
    #expect(error.kind == .invalidRegularExpression)
    #expect(error.range.start == start)
  }

  @Test("compiled patterns are cached")
  func patternCache() throws {
    let cache = PCRE2PatternCache()
    let first = try cache.pattern("a+", caseInsensitive: false)
    let second = try cache.pattern("a+", caseInsensitive: false)
    let caseless = try cache.pattern("a+", caseInsensitive: true)
    #expect(first === second)
    #expect(first !== caseless)
    #expect(cache.count == 2)
  }
}
