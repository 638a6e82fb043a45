import PredicateEvaluation
import PredicateSyntax
import Testing

/// The JSON and regular-expression limits: accepted at the limit, refused past it with an error that names
/// the limit and its value.
@Suite struct LimitTests {
  private func nested(_ levels: Int) -> String {
    String(repeating: "[", count: levels) + String(repeating: "]", count: levels)
  }

  @Test func jsonDepthLimitIsExact() throws {
    let limit = PredicateValue.JSONLimits.maximumDepth
    #expect(limit == 256)
    _ = try PredicateValue(json: nested(limit))
    let error = try #require(throws: JSONParseError.self) { try PredicateValue(json: nested(limit + 1)) }
    #expect(error.message.hasPrefix("JSON nested deeper than the limit of 256 levels"))
    #expect(error.message.contains("PredicateValue.JSONLimits.maximumDepth"))
    #expect(error.position.column == limit + 1)
  }

  @Test func jsonSizeLimitIsExact() throws {
    let limit = PredicateValue.JSONLimits.maximumBytes
    #expect(limit == 16 << 20)
    let atLimit = Array("[1]".utf8) + [UInt8](repeating: UInt8(ascii: " "), count: limit - 3)
    #expect(try PredicateValue(jsonUTF8: atLimit) == .array([.integer(1)]))
    let error = try #require(throws: JSONParseError.self) {
      try PredicateValue(jsonUTF8: atLimit + [UInt8(ascii: " ")])
    }
    #expect(
      error.message.hasPrefix("the JSON text is \(limit + 1) bytes, more than the limit of \(limit) bytes"))
    #expect(error.message.contains("PredicateValue.JSONLimits.maximumBytes"))
  }

  @Test func invalidUTF8IsAnErrorAtTheByte() throws {
    let bytes = Array("{\n  \"name\": \"caf".utf8) + [0xE9] + Array("\"}".utf8)
    let error = try #require(throws: JSONParseError.self) { try PredicateValue(jsonUTF8: bytes) }
    #expect(error.message.hasPrefix("invalid UTF-8: byte 0xE9 at offset 16"))
    #expect(error.position == SourcePosition(line: 2, column: 15, offset: 16))
  }

  @Test(
    "JSON that is almost right says what to change",
    arguments: [
      ("[1, 2,]", "trailing comma before ']'; JSON allows none, remove the comma", 6),
      ("{\"a\": 1,\n}", "trailing comma before '}'; JSON allows none, remove the comma", 8),
      ("[NaN]", "NaN and Infinity are not JSON values; write null or a number", 2),
      (
        "[1e400]", "the number 1e400 is too large for a 64-bit floating-point value; write a smaller number",
        2
      ),
    ])
  func almostJSON(text: String, message: String, column: Int) throws {
    let error = try #require(throws: JSONParseError.self) { try PredicateValue(json: text) }
    #expect(error.message == message)
    // Every one is on line 1, at the comma, the N or the number.
    #expect(error.position.line == 1)
    #expect(error.position.column == column)
  }

  @Test func catastrophicBacktrackingEndsInALimitError() throws {
    // 2^30 ways to split the a's between the groups: without the match limit this would not finish.
    let predicate = try PredicateParser.parse(#""aaaaaaaaaaaaaaaaaaaaaaaaaaaaaab" MATCHES "(a+)+$""#)
    let walked = try #require(throws: EvaluationError.self) {
      try PredicateEvaluator.evaluate(predicate, on: .dictionary([:]))
    }
    #expect(walked.kind == .regularExpressionLimit)
    #expect(
      walked.message.contains(
        "the PCRE2 match limit of \(RegularExpressionLimits.matchLimit) backtracking steps "
          + "(RegularExpressionLimits.matchLimit)"))
    #expect(walked.message.contains("simplify the pattern"))
    // The range is the MATCHES operator.
    #expect(walked.range.start.column == 35)
    let compiled = try #require(throws: EvaluationError.self) {
      try PredicateEvaluator.compile(predicate).evaluate(on: .dictionary([:]))
    }
    #expect(compiled == walked)
  }

  @Test func aPatternWithinTheLimitsMatches() throws {
    // The same pattern on a subject it matches: PCRE2 finds it at once, far from the limit.
    let predicate = try PredicateParser.parse(#""aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" MATCHES "(a+)+$""#)
    #expect(try PredicateEvaluator.evaluate(predicate, on: .dictionary([:])))
  }

  @Test func theLimitsAreWhatTheDocumentationSays() {
    #expect(RegularExpressionLimits.matchLimit == 1_000_000)
    #expect(RegularExpressionLimits.depthLimit == 10_000)
    #expect(RegularExpressionLimits.heapLimitKibibytes == 20_000)
  }

  @Test(
    "a 100 000-clause chain evaluates the same in both evaluators, without deep recursion",
    arguments: [
      (" OR ", #"{"a": 99999}"#, true), (" OR ", #"{"a": -1}"#, false), (" OR ", #"{"a": "x"}"#, false),
      (" AND ", #"{"a": 5}"#, false),
    ])
  func longChain(separator: String, json: String, expected: Bool) throws {
    let op = separator == " OR " ? "==" : "!="
    let text = (0..<100_000).map { "a \(op) \($0)" }.joined(separator: separator)
    let predicate = try PredicateParser.parse(text, options: .init(maximumInputBytes: 4 << 20))
    #expect(evaluateBoth(predicate, on: try PredicateValue(json: json)) == .success(expected))
  }

  @Test func theThreeHundredClauseExampleEvaluates() throws {
    let text = (0..<300).map { "a == \($0)" }.joined(separator: " OR ")
    let predicate = try PredicateParser.parse(text)
    #expect(evaluateBoth(predicate, on: ["a": 299]) == .success(true))
    #expect(evaluateBoth(predicate, on: ["a": 300]) == .success(false))
  }
}
