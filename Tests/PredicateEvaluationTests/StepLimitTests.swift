import PredicateSyntax
import Testing

@testable import PredicateEvaluation

/// `PredicateEvaluator.Options.maximumSteps`: both evaluators count the same steps and stop at the same
/// one with the same error.
@Suite struct StepLimitTests {
  /// Three nested SUBQUERYs, within the eight-level nesting limit, over `x`.
  static let nestedSubqueries =
    "SUBQUERY(x, $a, SUBQUERY(x, $b, SUBQUERY(x, $c, $c == -1).@count > 0).@count > 0).@count > 0"

  /// How every step-limit message ends: why loops cost so much, and what to do.
  static let advice =
    "every element a SUBQUERY or ANY/ALL/NONE visits is a step, once per pass of each loop around it, so "
    + "nested loops over large collections multiply: nest fewer of them or evaluate a smaller context"

  /// `{"x": [0, 1, …, count - 1]}`.
  static func numbers(_ count: Int) -> PredicateValue {
    ["x": .array((0..<count).map { .integer($0) })]
  }

  /// The error of `result` when it is a step-limit error; otherwise nil, with the result recorded as an issue.
  private func stepLimitError(_ result: Result<Bool, EvaluationError>) -> EvaluationError? {
    if case .failure(let error) = result, error.kind == .stepLimit { return error }
    Issue.record("expected the step limit, got \(result)")
    return nil
  }

  @Test func theDefaultIsTenMillionSteps() {
    #expect(PredicateEvaluator.Options().maximumSteps == 10_000_000)
    #expect(PredicateEvaluator.Options.defaultMaximumSteps == 10_000_000)
  }

  @Test func threeNestedSubqueriesOverAThousandElementsStopInsteadOfRunningForMinutes() throws {
    // A 4.9 KB context: a billion steps, about 1 000 s of the tree-walker before the limit existed.
    let predicate = try PredicateParser.parse(Self.nestedSubqueries)
    guard let error = stepLimitError(evaluateBoth(predicate, on: Self.numbers(1_000))) else { return }
    // Each $a takes 1 + 1 000 × 1 001 steps, so the ten millionth falls in the middle SUBQUERY.
    #expect(error.range.start == SourcePosition(line: 1, column: 26, offset: 25))
    #expect(
      error.message
        == "evaluation stopped after 10000000 steps, the limit (PredicateEvaluator.Options.maximumSteps), in the "
        + "SUBQUERY over x (1000 elements); " + Self.advice)
  }

  @Test func aSmallerContextForTheSameNestingIsEvaluated() throws {
    // 20 elements: 20 + 20 × 20 + 20 × 20 × 20 steps at most, well under the limit.
    let predicate = try PredicateParser.parse(Self.nestedSubqueries)
    #expect(evaluateBoth(predicate, on: Self.numbers(20)) == .success(false))
  }

  @Test(
    "the steps a predicate takes: accepted with exactly that many, stopped with one fewer",
    arguments: [
      ("SUBQUERY(x, $e, TRUEPREDICATE).@count == 3", #"{"x": [1, 2, 3]}"#, 3),
      ("SUBQUERY(d, $v, $v > 0).@count == 2", #"{"d": {"a": 1, "b": 2}}"#, 2),
      // ANY stops at the first match, ALL and NONE at the first counterexample.
      ("ANY x == 2", #"{"x": [1, 2, 3]}"#, 2),
      ("ALL x > 0", #"{"x": [1, 2, 3]}"#, 3),
      ("NONE x == 5", #"{"x": [1, 2, 3]}"#, 3),
      ("NOT (ALL x > 1)", #"{"x": [1, 2, 3]}"#, 1),
      // IN and CONTAINS count the whole collection they search.
      ("3 IN x", #"{"x": [1, 2, 3, 4]}"#, 4),
      ("x CONTAINS 1", #"{"x": [1, 2, 3, 4]}"#, 4),
      ("ANY x IN y", #"{"x": [1, 2], "y": [5, 6, 1]}"#, 4),
      ("SUBQUERY(x, $a, ANY y == $a).@count == 1", #"{"x": [1, 2], "y": [2, 3]}"#, 5),
      ("SUBQUERY(x, $a, SUBQUERY(x, $b, $a == $b).@count == 1).@count == 3", #"{"x": [1, 2, 3]}"#, 12),
    ])
  func stepsAreCountedExactly(text: String, json: String, steps: Int) throws {
    let predicate = try PredicateParser.parse(text)
    let object = try PredicateValue(json: json)
    #expect(evaluateBoth(predicate, on: object, options: .init(maximumSteps: steps)) == .success(true))
    _ = stepLimitError(evaluateBoth(predicate, on: object, options: .init(maximumSteps: steps - 1)))
  }

  @Test(arguments: ["a == 1", "'abc' CONTAINS 'b'", "'b' IN 'abc'", "TRUEPREDICATE", "b.@count == 2"])
  func predicatesWithoutCollectionLoopsTakeNoSteps(text: String) throws {
    let predicate = try PredicateParser.parse(text)
    #expect(
      evaluateBoth(predicate, on: ["a": 1, "b": [1, 2]], options: .init(maximumSteps: 0)) == .success(true))
  }

  @Test func theErrorSaysWhereWhatAndHowToFix() throws {
    let predicate = try PredicateParser.parse("a == 0 AND ANY items == 9")
    let result = evaluateBoth(predicate, on: ["items": [1, 2, 3], "a": 0], options: .init(maximumSteps: 2))
    guard let error = stepLimitError(result) else { return }
    #expect(error.range.start.column == 16)
    #expect(
      error.description
        == "1:16: error: evaluation stopped after 2 steps, the limit (PredicateEvaluator.Options.maximumSteps), "
        + "in the ANY over items (3 elements); " + Self.advice)
  }

  @Test(
    "a search that passes the limit explains searches, not loops",
    arguments: [("3 IN x", "IN"), ("x CONTAINS 3", "CONTAINS")])
  func searchErrorExplainsSearches(text: String, construct: String) throws {
    let predicate = try PredicateParser.parse(text)
    let result = evaluateBoth(predicate, on: ["x": [1, 2, 3, 4]], options: .init(maximumSteps: 3))
    guard let error = stepLimitError(result) else { return }
    #expect(
      error.message
        == "evaluation stopped after 3 steps, the limit (PredicateEvaluator.Options.maximumSteps), in the "
        + "\(construct) over x (4 elements); every element an IN or CONTAINS searches is a step, once per pass "
        + "of each loop around the search, so searching a large collection inside loops multiplies: search a "
        + "smaller collection, nest fewer loops around the search or evaluate a smaller context")
  }

  @Test func aTraceStopsAtTheSameStep() throws {
    let predicate = try PredicateParser.parse(Self.nestedSubqueries)
    let options = PredicateEvaluator.Options(maximumSteps: 1_000)
    let evaluated = Result { () throws(EvaluationError) -> Bool in
      try PredicateEvaluator.evaluate(predicate, on: Self.numbers(100), options: options)
    }
    let traced = Result { () throws(EvaluationError) -> Bool in
      try PredicateEvaluator.trace(predicate, on: Self.numbers(100), options: options).result
    }
    #expect(traced == evaluated)
    _ = stepLimitError(traced)
  }
}
