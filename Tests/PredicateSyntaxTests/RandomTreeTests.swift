import PredicateSyntax
import TestSupport
import Testing

/// Builds random trees of every node kind, in the shapes the parser produces.
struct RandomTreeGenerator {
  var random: SeededGenerator

  private static let names = [
    "a", "name", "items", "x1", "_k", "size", "first", "Any", "union", "cast", "nil", "in",
  ]
  private static let functionNames = ["sum", "count", "now", "max", "lowercase", "union", "abs"]

  mutating func identifier() -> String { random.pick(Self.names) }

  mutating func predicate(depth: Int) -> PredicateNode {
    let leaf = depth <= 0
    switch Int.random(in: 0..<(leaf ? 3 : 8), using: &random) {
    case 0: return PredicateNode(random.chance(0.5) ? .truePredicate : .falsePredicate)
    case 1, 2, 3: return PredicateNode(.comparison(comparison(depth: depth - 1)))
    case 4: return PredicateNode(.not(predicate(depth: depth - 1)))
    case 5: return PredicateNode(.and(predicate(depth: depth - 1), predicate(depth: depth - 1)))
    default: return PredicateNode(.or(predicate(depth: depth - 1), predicate(depth: depth - 1)))
    }
  }

  mutating func comparison(depth: Int) -> Comparison {
    var options: ComparisonOptions = []
    for option in [ComparisonOptions.caseInsensitive, .diacriticInsensitive, .normalized, .localeSensitive]
    where random.chance(0.2) {
      options.insert(option)
    }
    return Comparison(
      quantifier: random.chance(0.3) ? random.pick(Quantifier.allCases) : nil, lhs: expression(depth: depth),
      op: random.pick(ComparisonOperator.allCases), options: options, rhs: expression(depth: depth))
  }

  mutating func constant() -> Constant {
    switch Int.random(in: 0..<6, using: &random) {
    case 0: return .null
    case 1: return .bool(random.chance(0.5))
    case 2: return .integer(random.pick([0, 1, -1, 42, -7, Int.max, Int.min, 1 << 40]))
    case 3:
      let value = random.pick([0.5, -2.25, 1e-300, 6.02e23, -0.0, 1.0 / 3.0, 1e16, .infinity, -.infinity])
      return .double(value)
    default:
      let pieces = [
        "", "a", " ", "\"", "'", "\\", "\n", "\t", "é", "😀", "“", "”", "%@", "$x", "\u{1}", "UTI-EQUALS",
      ]
      var text = ""
      for _ in 0..<Int.random(in: 0..<5, using: &random) { text += random.pick(pieces) }
      return .string(text)
    }
  }

  mutating func keyPathComponents() -> [KeyPathComponent] {
    (0..<Int.random(in: 1...3, using: &random)).map { _ in
      random.chance(0.25)
        ? .collectionOperator(random.pick(["count", "sum", "avg", "max"])) : .key(identifier())
    }
  }

  mutating func expression(depth: Int) -> ExpressionNode {
    if depth <= 0 {
      switch Int.random(in: 0..<6, using: &random) {
      case 0, 1: return ExpressionNode(.constant(constant()))
      case 2: return ExpressionNode(.evaluatedObject)
      case 3: return ExpressionNode(.variable(identifier()))
      case 4: return ExpressionNode(.anyKey)
      default: return ExpressionNode(.keyPath(base: nil, components: keyPathComponents()))
      }
    }
    let next = depth - 1
    switch Int.random(in: 0..<15, using: &random) {
    case 0: return ExpressionNode(.keyPath(base: expression(depth: next), components: keyPathComponents()))
    case 1:
      let index: IndexKind = random.pick([.first, .last, .size, .expression(expression(depth: next))])
      return ExpressionNode(.index(expression(depth: next), index))
    case 2:
      return ExpressionNode(
        .aggregate((0..<Int.random(in: 0..<3, using: &random)).map { _ in expression(depth: next) }))
    case 3:
      return ExpressionNode(
        .subquery(
          collection: expression(depth: next), variable: identifier(), predicate: predicate(depth: next)))
    case 4:
      let arguments = (0..<Int.random(in: 0..<3, using: &random)).map { _ in expression(depth: next) }
      return ExpressionNode(.function(name: random.pick(Self.functionNames), arguments: arguments))
    case 5:
      let arguments = (0..<Int.random(in: 0..<2, using: &random)).map { _ in expression(depth: next) }
      return ExpressionNode(
        .functionCall(
          receiver: expression(depth: next), selector: random.pick(["a:", "add:to:", "x"]),
          arguments: arguments))
    case 6: return ExpressionNode(.cast(expression(depth: next), type: expression(depth: next)))
    case 7, 8:
      return ExpressionNode(
        .arithmetic(
          random.pick(ArithmeticOperator.allCases), expression(depth: next), expression(depth: next)))
    case 9: return ExpressionNode(.negate(expression(depth: next)))
    case 10:
      return ExpressionNode(
        .setOperation(random.pick(SetOperator.allCases), expression(depth: next), expression(depth: next)))
    case 11: return ExpressionNode(.assignment(variable: identifier(), value: expression(depth: next)))
    case 12:
      return ExpressionNode(
        .ternary(predicate(depth: next), expression(depth: next), expression(depth: next)))
    default: return expression(depth: 0)
    }
  }
}

@Suite struct RandomTreeTests {
  @Test(arguments: [1, 2, 3, 4] as [UInt64])
  func randomTreesRoundTripThroughBothLayouts(seed: UInt64) throws {
    var generator = RandomTreeGenerator(random: SeededGenerator(seed: seed))
    for iteration in 0..<750 {
      let tree = generator.predicate(depth: 1 + iteration % 6)
      for printer in [PredicatePrinter(), PredicatePrinter(layout: .pretty, logicalOperators: .words)] {
        let printed = printer.string(for: tree)
        let reparsed: PredicateNode
        do {
          reparsed = try PredicateParser.parse(printed)
        } catch {
          Issue.record("seed \(seed) #\(iteration): \(error)\n\(printed)")
          return
        }
        #expect(reparsed == tree, "seed \(seed) #\(iteration): \(printed)")
        #expect(printer.string(for: reparsed) == printed, "seed \(seed) #\(iteration) is not idempotent")
        if reparsed != tree { return }
      }
    }
  }
}
