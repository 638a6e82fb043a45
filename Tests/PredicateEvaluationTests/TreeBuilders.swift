import PredicateSyntax
import Testing

@testable import PredicateEvaluation

// Small builders for syntax trees, so tests can state a predicate's structure without the parser.

/// A key path of the evaluated object, written `a.b.@count`.
func keyPath(_ path: String, base: ExpressionNode? = nil) -> ExpressionNode {
  let components = path.split(separator: ".").map { part -> KeyPathComponent in
    part.hasPrefix("@") ? .collectionOperator(String(part.dropFirst())) : .key(String(part))
  }
  return ExpressionNode(.keyPath(base: base, components: components))
}

func variable(_ name: String) -> ExpressionNode { ExpressionNode(.variable(name)) }

func constant(_ value: Constant) -> ExpressionNode { ExpressionNode(.constant(value)) }

func string(_ text: String) -> ExpressionNode { constant(.string(text)) }

func integer(_ value: Int) -> ExpressionNode { constant(.integer(value)) }

func aggregate(_ elements: [ExpressionNode]) -> ExpressionNode { ExpressionNode(.aggregate(elements)) }

func comparison(
  _ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode, options: ComparisonOptions = []
) -> PredicateNode {
  PredicateNode(.comparison(Comparison(lhs: lhs, op: op, options: options, rhs: rhs)))
}

func quantified(
  _ quantifier: Quantifier, _ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode,
  options: ComparisonOptions = []
) -> PredicateNode {
  PredicateNode(.comparison(Comparison(quantifier: quantifier, lhs: lhs, op: op, options: options, rhs: rhs)))
}

func subquery(_ collection: ExpressionNode, _ name: String, _ predicate: PredicateNode) -> ExpressionNode {
  ExpressionNode(.subquery(collection: collection, variable: name, predicate: predicate))
}

func count(_ expression: ExpressionNode) -> ExpressionNode {
  ExpressionNode(.keyPath(base: expression, components: [.collectionOperator("count")]))
}

func or(_ predicates: [PredicateNode]) -> PredicateNode {
  predicates.dropFirst().reduce(predicates[0]) { PredicateNode(.or($0, $1)) }
}

/// Apple's "attachments" rule shape: some extension item with `inner` over its attachments.
func activationRule(
  _ types: [String], attachmentCount innerOp: ComparisonOperator = .greaterThan, _ innerValue: Int = 0,
  itemCount outerOp: ComparisonOperator = .greaterThan, _ outerValue: Int = 0
) -> PredicateNode {
  let clauses = types.map { type in
    quantified(
      .any, keyPath("registeredTypeIdentifiers", base: variable("attachment")), .utiConformsTo, string(type))
  }
  let inner = subquery(keyPath("attachments", base: variable("extensionItem")), "attachment", or(clauses))
  let outer = subquery(
    keyPath("extensionItems"), "extensionItem", comparison(count(inner), innerOp, integer(innerValue)))
  return comparison(count(outer), outerOp, integer(outerValue))
}

/// A registry stand-in for tests that do not exercise UTI conformance: identifiers conform only to
/// themselves, compared case-insensitively.
let identityOracle = TypeOracle(
  conforms: { $0.lowercased() == $1.lowercased() },
  equals: { $0.lowercased() == $1.lowercased() },
  conformanceTest: { target in
    let lowered = target.lowercased()
    return { $0.lowercased() == lowered }
  }
)

/// Evaluates with both evaluators and insists they agree; returns the common answer.
func evaluateBoth(
  _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue] = [:],
  oracle: TypeOracle = identityOracle, options: PredicateEvaluator.Options = .init()
) -> Result<Bool, EvaluationError> {
  let walked = Result { () throws(EvaluationError) -> Bool in
    try PredicateEvaluator.evaluate(
      predicate, on: object, variables: variables, oracle: oracle, options: options)
  }
  let compiled = Result { () throws(EvaluationError) -> Bool in
    try CompiledPredicate(predicate, oracle: oracle).evaluate(
      on: object, variables: variables, options: options)
  }
  #expect(walked == compiled, "tree-walker and compiled form disagree on \(predicate)")
  return walked
}
