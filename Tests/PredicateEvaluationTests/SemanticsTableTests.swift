import PredicateEvaluation
import PredicateSyntax
import Testing
import UniformTypes

@Suite("Apple's predicate semantics, as a table")
struct SemanticsTableTests {
  @Test("the table is large enough to cover each documented behaviour")
  func tableSize() {
    #expect(SemanticsTable.all.count >= 300)
    #expect(
      Set(SemanticsTable.all.map(\.predicate)).count == SemanticsTable.all.count, "rows must not repeat")
  }

  @Test("each row, with the tree-walker and the compiled form", arguments: SemanticsTable.all)
  func row(_ row: SemanticsCase) throws {
    let predicate = try PredicateParser.parse(row.predicate)
    let object = try PredicateValue(json: row.object)
    guard case .dictionary(let members) = try PredicateValue(json: row.variables) else {
      Issue.record("variables must be a JSON object")
      return
    }
    let variables = [String: PredicateValue](members)
    let walked = Result { () throws(EvaluationError) -> Bool in
      try PredicateEvaluator.evaluate(predicate, on: object, variables: variables)
    }
    let compiled = Result { () throws(EvaluationError) -> Bool in
      try PredicateEvaluator.compile(predicate).evaluate(on: object, variables: variables)
    }
    #expect(walked == compiled, "the two evaluators disagree")
    switch (row.expected, walked) {
    case (.answer(let expected), .success(let answer)):
      #expect(answer == expected)
    case (.error(let expected), .failure(let error)):
      #expect(error.kind == expected, "\(error)")
      #expect(error.range != .synthesized, "errors name a source range")
    case (_, .failure(let error)):
      Issue.record("unexpected error: \(error)")
    case (_, .success(let answer)):
      Issue.record("expected \(row.expected), evaluated to \(answer)")
    }
  }
}
