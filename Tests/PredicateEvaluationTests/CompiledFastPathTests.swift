import PredicateSyntax
import TestSupport
import Testing
import UniformTypes

@testable import PredicateEvaluation

/// The compiled evaluator's fast paths (`CompiledFastPaths.swift`, the `CONTAINS "literal"` test) give what
/// the tree-walker gives: the same answer, the same error at the same range, the same step at which a small
/// step limit stops. The shapes here are the ones the fast paths take, with operands that make them fall back.
@Suite("Compiled fast paths agree with the tree-walker")
struct CompiledFastPathTests {
  static let keys = ["a", "b", "name"]

  /// An object whose keys hold arrays of (mostly) dictionaries, so `ANY a.b …` reads element by element,
  /// with the occasional null, scalar or nested array that makes it fall back.
  static func object(_ generator: inout SeededGenerator, depth: Int = 2) -> PredicateValue {
    func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &generator)] }
    let leaves: [PredicateValue] = [
      .null, .integer(1), .integer(5), .double(2.5), .string("abc"), .string("ABC"), .string("café"),
      .string("xabcx"), .bool(true),
    ]
    guard depth > 0 else { return pick(leaves) }
    switch Int.random(in: 0..<10, using: &generator) {
    case 0: return pick(leaves)
    case 1...4:
      var elements: [PredicateValue] = []
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        elements.append(
          Int.random(in: 0..<8, using: &generator) == 0 ? pick(leaves) : object(&generator, depth: depth - 1))
      }
      return .array(elements)
    default:
      var members: PredicateDictionary = [:]
      for key in keys where Bool.random(using: &generator) {
        members[key] = object(&generator, depth: depth - 1)
      }
      return .dictionary(members)
    }
  }

  static func predicate(_ generator: inout SeededGenerator, offset: Int) -> PredicateNode {
    func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &generator)] }
    func range(_ at: Int) -> SourceRange {
      let position = SourcePosition(line: 1, column: at, offset: at)
      return SourceRange(start: position, end: position)
    }
    var components: [KeyPathComponent] = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
      .key(pick(keys))
    }
    let shape = Int.random(in: 0..<3, using: &generator)
    if shape == 1 { components = [.key(pick(keys)), .collectionOperator("count")] }
    let lhs = ExpressionNode(.keyPath(base: nil, components: components), range: range(offset))
    let constants: [Constant] = [
      .integer(1), .integer(2), .double(2.5), .string("abc"), .string("bc"), .string(""), .null, .bool(true),
    ]
    let op: ComparisonOperator =
      shape == 2
      ? .contains
      : pick([.equalTo, .notEqualTo, .lessThan, .greaterThanOrEqualTo, .contains, .beginsWith, .in])
    var options: ComparisonOptions = []
    if Bool.random(using: &generator) { options.insert(.caseInsensitive) }
    let comparison = Comparison(
      quantifier: shape == 0 ? pick(Quantifier.allCases) : nil, lhs: lhs, op: op, options: options,
      rhs: ExpressionNode(.constant(pick(constants)), range: range(offset + 1)),
      operatorRange: range(offset + 2))
    return PredicateNode(.comparison(comparison), range: range(offset + 3))
  }

  @Test("on 20 000 generated (predicate, object, step limit) triples")
  func generated() {
    var generator = SeededGenerator(seed: 0xFA57_0A75)
    let oracle = TypeOracle(TypeRegistry.system)
    var agreement = EvaluatorAgreement()
    for round in 0..<2_000 {
      let predicate = Self.predicate(&generator, offset: 1 + round % 50)
      let compiled = CompiledPredicate(predicate, oracle: oracle)
      for trial in 0..<10 {
        let object = Self.object(&generator)
        let options = PredicateEvaluator.Options(maximumSteps: trial < 5 ? trial : 10_000)
        agreement.compare(predicate, compiled, on: object, oracle: oracle, options: options)
      }
    }
    let outcomes = agreement.outcomes
    #expect(agreement.disagreements == 0)
    #expect(outcomes["true", default: 0] > 1_000)
    #expect(outcomes["false", default: 0] > 1_000)
    #expect(outcomes[EvaluationError.Kind.typeMismatch.rawValue, default: 0] > 100)
    #expect(outcomes[EvaluationError.Kind.stepLimit.rawValue, default: 0] > 100)
  }

  /// The single-byte string tests (`SingleByteLiteralTest`, the byte-wise `LIKE`): every operator and option
  /// against literals of single-byte characters, on strings that take the byte path (ASCII) and strings
  /// that must not (ß, which `[c]` folds to two letters; é; CR LF; a non-string).
  @Test("string literal tests agree with the tree-walker on ASCII and beyond")
  func stringLiterals() throws {
    let oracle = TypeOracle(TypeRegistry.system)
    let subjects: [PredicateValue] = [
      "abc", "ABC", "aBc", "xabcx", "XABCX", "", "ss", "SS", "Straße", "STRASSE", "café", "CAFE", "a\r\nb",
      "a\rb", "bc", "ab", .integer(1), .null, .array(["abc", "ABC", "x"]), .array(["Straße", .integer(2)]),
    ]
    let literals = ["abc", "AB", "bc", "", "a?c", "*c", "a*", "ss", "SS", "cafe", "é", "?"]
    let operators = ["==", "!=", "BEGINSWITH", "ENDSWITH", "CONTAINS", "LIKE", "MATCHES"]
    var agreement = EvaluatorAgreement()
    for op in operators {
      for options in ["", "[c]", "[d]", "[cd]", "[n]"] {
        for literal in literals {
          for quantifier in ["", "ANY "] {
            let text = "\(quantifier)name \(op)\(options) \"\(literal)\""
            let predicate = try PredicateParser.parse(text)
            let compiled = CompiledPredicate(predicate, oracle: oracle)
            for subject in subjects {
              agreement.compare(
                predicate, compiled, on: .dictionary(["name": subject]), oracle: oracle, options: .init())
            }
          }
        }
      }
    }
    #expect(agreement.disagreements == 0)
    #expect(agreement.outcomes["true", default: 0] > 500)
  }

  @Test("a quantified key path over an array of dictionaries reads element by element")
  func elementByElement() throws {
    var compiler = PredicateCompiler(oracle: TypeOracle(TypeRegistry.system))
    let lhs = try PredicateParser.parseExpression("children.age")
    let lhsCode = compiler.compile(lhs)
    let code = compiler.quantifiedElementsCode(lhs, lhsCode, .all, at: lhs.range)
    var budget = StepBudget(.init())
    let children: PredicateValue = .array([.dictionary(["age": .integer(5)]), .null, .dictionary([:])])
    let elements = try withUnsafeMutablePointer(to: &budget) { budget in
      try code(
        Frame(
          object: .dictionary(["children": children]), slots: UnsafeMutablePointer(bitPattern: 8)!,
          memos: UnsafeMutablePointer(bitPattern: 8)!, budget: budget))
    }
    #expect(elements.key?.text == "age")
    #expect(Array(elements) == [.integer(5), .null, .null])
  }
}
