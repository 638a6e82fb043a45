import PredicateSyntax

/// Evaluates predicates with Apple's `NSPredicate` semantics by walking the syntax tree.
///
/// Use ``CompiledPredicate`` when one predicate is evaluated many times; it gives the same answers.
public enum PredicateEvaluator {
  static func evaluate(
    _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue],
    oracle: TypeOracle
  ) throws(EvaluationError) -> Bool {
    var walker = TreeWalker(object: object, variables: variables, oracle: oracle, recorder: nil)
    return try walker.evaluate(predicate)
  }

  static func trace(
    _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue],
    oracle: TypeOracle
  ) throws(EvaluationError) -> EvaluationTrace {
    let recorder = TraceRecorder()
    var walker = TreeWalker(object: object, variables: variables, oracle: oracle, recorder: recorder)
    let result = try walker.evaluate(predicate)
    return recorder.root ?? EvaluationTrace(range: predicate.range, step: .predicate, result: result)
  }
}
