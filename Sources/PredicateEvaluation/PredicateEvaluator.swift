import PredicateSyntax
import UniformTypes

/// Evaluates predicates with Apple's `NSPredicate` semantics by walking the syntax tree.
///
/// Use ``compile(_:registry:)`` when one predicate is evaluated many times; the compiled form gives the
/// same answers and the same errors.
public enum PredicateEvaluator {
  /// Whether `predicate` holds for `object`.
  ///
  /// - Parameters:
  ///   - variables: values for the `$names` the predicate uses outside a `SUBQUERY`.
  ///   - registry: answers `UTI-CONFORMS-TO` and `UTI-EQUALS`.
  /// - Throws: ``EvaluationError`` with the source range of the offending expression.
  public static func evaluate(
    _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue] = [:],
    registry: TypeRegistry = .system
  ) throws(EvaluationError) -> Bool {
    try evaluate(predicate, on: object, variables: variables, oracle: TypeOracle(registry))
  }

  /// Evaluates like ``evaluate(_:on:variables:registry:)`` and records how the answer came about.
  ///
  /// The trace's root is the whole predicate; its ``EvaluationTrace/result`` is the answer.
  public static func trace(
    _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue] = [:],
    registry: TypeRegistry = .system
  ) throws(EvaluationError) -> EvaluationTrace {
    try trace(predicate, on: object, variables: variables, oracle: TypeOracle(registry))
  }

  /// Compiles `predicate` once for many evaluations; see ``CompiledPredicate``.
  public static func compile(_ predicate: PredicateNode, registry: TypeRegistry = .system)
    -> CompiledPredicate
  {
    CompiledPredicate(predicate, registry: registry)
  }

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
