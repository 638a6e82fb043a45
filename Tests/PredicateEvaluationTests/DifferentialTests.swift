import PredicateSyntax
import TestSupport
import Testing
import UniformTypes

@testable import PredicateEvaluation

/// Draws random predicates and objects over a small vocabulary, so that keys hit, operators meet every
/// operand type, and errors happen as often as answers.
struct RandomTrees {
  var generator: SeededGenerator
  /// Each node gets its own range, so a disagreement about which node an error names is caught too.
  private var nextOffset = 1

  init(seed: UInt64) { generator = SeededGenerator(seed: seed) }

  static let keys = ["a", "b", "items", "name", "types"]
  static let strings = [
    "abc", "ABC", "café", "CAFE", "", "a*c", "public.jpeg", "public.image", "public.url", "ß",
  ]

  private mutating func range() -> SourceRange {
    defer { nextOffset += 1 }
    let position = SourcePosition(line: 1, column: nextOffset, offset: nextOffset)
    return SourceRange(start: position, end: position)
  }

  private mutating func pick<T>(_ choices: [T]) -> T {
    choices[Int.random(in: 0..<choices.count, using: &generator)]
  }

  private mutating func chance(_ percent: Int) -> Bool {
    Int.random(in: 0..<100, using: &generator) < percent
  }

  mutating func object(depth: Int = 3) -> PredicateValue {
    switch Int.random(in: 0..<(depth > 0 ? 9 : 6), using: &generator) {
    case 0: return .null
    case 1: return .bool(chance(50))
    case 2: return .integer(Int.random(in: -3...3, using: &generator))
    case 3: return .double(pick([0.5, -1.5, 2.0, 3.0]))
    case 4, 5: return .string(pick(Self.strings))
    case 6:
      var elements: [PredicateValue] = []
      for _ in 0..<Int.random(in: 0...3, using: &generator) { elements.append(object(depth: depth - 1)) }
      return .array(elements)
    default:
      var members: PredicateDictionary = [:]
      for key in Self.keys where chance(60) { members[key] = object(depth: depth - 1) }
      return .dictionary(members)
    }
  }

  mutating func predicate(depth: Int = 3) -> PredicateNode {
    let kind: PredicateNode.Kind
    switch Int.random(in: 0..<(depth > 0 ? 10 : 6), using: &generator) {
    case 0: kind = chance(50) ? .truePredicate : .falsePredicate
    case 1...5:
      let op = pick(ComparisonOperator.allCases)
      var options: ComparisonOptions = []
      if chance(30) { options.insert(.caseInsensitive) }
      if chance(30) { options.insert(.diacriticInsensitive) }
      if chance(10) { options.insert(.normalized) }
      kind = .comparison(
        Comparison(
          quantifier: chance(30) ? pick(Quantifier.allCases) : nil, lhs: expression(depth: depth - 1), op: op,
          options: options, rhs: expression(depth: depth - 1), operatorRange: range()))
    case 6: kind = .not(predicate(depth: depth - 1))
    case 7: kind = .and(predicate(depth: depth - 1), predicate(depth: depth - 1))
    default: kind = .or(predicate(depth: depth - 1), predicate(depth: depth - 1))
    }
    return PredicateNode(kind, range: range())
  }

  mutating func expression(depth: Int) -> ExpressionNode {
    let kind: ExpressionNode.Kind
    switch Int.random(in: 0..<(depth > 0 ? 16 : 6), using: &generator) {
    case 0: kind = .constant(pick([.null, .bool(true), .integer(1), .integer(0), .double(2.5)]))
    case 1, 2: kind = .constant(.string(pick(Self.strings)))
    case 3: kind = .evaluatedObject
    case 4: kind = .variable(pick(["x", "v", "unbound"]))
    case 5:
      var components: [KeyPathComponent] = [.key(pick(Self.keys))]
      if chance(30) { components.append(.key(pick(Self.keys))) }
      if chance(25) {
        components.append(
          .collectionOperator(pick(["count", "sum", "avg", "min", "max", "distinctUnionOfObjects"])))
      }
      kind = .keyPath(
        base: chance(30) ? ExpressionNode(.variable(pick(["x", "v"])), range: range()) : nil,
        components: components)
    case 6:
      kind = .aggregate([expression(depth: depth - 1), expression(depth: depth - 1)])
    case 7:
      kind = .index(
        expression(depth: depth - 1),
        pick([.first, .last, .size, .expression(ExpressionNode(.constant(.integer(0)), range: range()))]))
    case 8, 9:
      let collection = expression(depth: depth - 1)
      let inner = predicate(depth: depth - 1)
      let subquery = ExpressionNode(
        .subquery(collection: collection, variable: "v", predicate: inner), range: range())
      kind = chance(60) ? .keyPath(base: subquery, components: [.collectionOperator("count")]) : subquery.kind
    case 10:
      kind = .arithmetic(
        pick(ArithmeticOperator.allCases), expression(depth: depth - 1), expression(depth: depth - 1))
    case 11:
      kind = .function(
        name: pick(["sum", "count", "max", "abs", "average", "unknownFunction"]),
        arguments: [expression(depth: depth - 1)])
    case 12:
      kind = .functionCall(
        receiver: expression(depth: depth - 1),
        selector: pick(["uppercase:", "length:", "add:to:", "evil:"]),
        arguments: chance(50) ? [expression(depth: depth - 1)] : [])
    case 13:
      kind = .setOperation(
        pick(SetOperator.allCases), expression(depth: depth - 1), expression(depth: depth - 1))
    case 14:
      kind = .ternary(predicate(depth: depth - 1), expression(depth: depth - 1), expression(depth: depth - 1))
    default:
      kind = .negate(expression(depth: depth - 1))
    }
    return ExpressionNode(kind, range: range())
  }
}

/// Both evaluators on one (predicate, object) pair after another: how often each outcome (`true`, `false`, an
/// error reason) came up and how many pairs disagreed, the first few recorded as issues. Shared by the
/// differential tests here and the compiled fast paths' (CompiledFastPathTests).
struct EvaluatorAgreement {
  var disagreements = 0
  var outcomes: [String: Int] = [:]

  mutating func compare(
    _ predicate: PredicateNode, _ compiled: CompiledPredicate, on object: PredicateValue,
    variables: [String: PredicateValue] = [:], oracle: TypeOracle, options: PredicateEvaluator.Options
  ) {
    let walked = Result { () throws(EvaluationError) -> Bool in
      try PredicateEvaluator.evaluate(
        predicate, on: object, variables: variables, oracle: oracle, options: options)
    }
    let fast = Result { () throws(EvaluationError) -> Bool in
      try compiled.evaluate(on: object, variables: variables, options: options)
    }
    switch walked {
    case .success(let answer): outcomes[String(answer), default: 0] += 1
    case .failure(let error): outcomes[error.kind.rawValue, default: 0] += 1
    }
    if walked != fast {
      disagreements += 1
      if disagreements <= 5 {
        Issue.record("disagree on \(predicate) with \(object): tree-walker \(walked), compiled \(fast)")
      }
    }
  }
}

@Suite("Tree-walker and compiled form agree")
struct DifferentialTests {
  /// Evaluates 1 500 random predicates on 8 random objects each with both evaluators, `options(round)`
  /// for the `round`-th pair; returns how many pairs disagreed (recording the first few) and how often
  /// each outcome (`true`, `false`, an error reason) came up.
  private func compareOnRandomPairs(seed: UInt64, options: (Int) -> PredicateEvaluator.Options)
    -> (disagreements: Int, outcomes: [String: Int])
  {
    var trees = RandomTrees(seed: seed)
    let oracle = TypeOracle(TypeRegistry.system)
    var agreement = EvaluatorAgreement()
    var round = 0
    for _ in 0..<1_500 {
      let predicate = trees.predicate()
      let compiled = CompiledPredicate(predicate, oracle: oracle)
      for _ in 0..<8 {
        let object = trees.object()
        let variables: [String: PredicateValue] = ["x": trees.object(depth: 2)]
        let options = options(round)
        round += 1
        agreement.compare(
          predicate, compiled, on: object, variables: variables, oracle: oracle, options: options)
      }
    }
    return (agreement.disagreements, agreement.outcomes)
  }

  @Test("on 12 000 seeded random (predicate, object) pairs")
  func randomPairs() {
    let (disagreements, outcomes) = compareOnRandomPairs(seed: 0x5EED_1234) { _ in .init() }
    #expect(disagreements == 0)
    // The generator must exercise both answers and errors, or agreement would prove little.
    #expect(outcomes["true", default: 0] > 1_000)
    #expect(outcomes["false", default: 0] > 1_000)
    #expect(outcomes[EvaluationError.Kind.typeMismatch.rawValue, default: 0] > 100)
  }

  @Test("on 12 000 random pairs with step limits of 0 to 4: both stop at the same step with the same error")
  func randomPairsWithSmallStepLimits() {
    let (disagreements, outcomes) = compareOnRandomPairs(seed: 0x57E9_5EED) { .init(maximumSteps: $0 % 5) }
    #expect(disagreements == 0)
    #expect(outcomes[EvaluationError.Kind.stepLimit.rawValue, default: 0] > 100)
    #expect(outcomes["true", default: 0] > 1_000)
  }
}
