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
  ///   - predicate: the parsed predicate.
  ///   - object: the value the predicate's key paths start from.
  ///   - variables: values for the `$names` the predicate uses outside a `SUBQUERY`.
  ///   - registry: answers `UTI-CONFORMS-TO` and `UTI-EQUALS`.
  ///   - options: the work bound, ``Options/maximumSteps``.
  /// - Throws: ``EvaluationError`` with the source range of the offending expression; reason
  ///   ``EvaluationError/Kind/stepLimit`` when the evaluation passes `options.maximumSteps`.
  public static func evaluate(
    _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue] = [:],
    registry: TypeRegistry = .system, options: Options = Options()
  ) throws(EvaluationError) -> Bool {
    try evaluate(predicate, on: object, variables: variables, oracle: TypeOracle(registry), options: options)
  }

  /// Evaluates like ``evaluate(_:on:variables:registry:options:)`` and records how the answer came about.
  ///
  /// The trace's root is the whole predicate; its ``EvaluationTrace/result`` is the answer.
  public static func trace(
    _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue] = [:],
    registry: TypeRegistry = .system, options: Options = Options()
  ) throws(EvaluationError) -> EvaluationTrace {
    try trace(predicate, on: object, variables: variables, oracle: TypeOracle(registry), options: options)
  }

  /// Compiles `predicate` once for many evaluations; see ``CompiledPredicate``.
  public static func compile(_ predicate: PredicateNode, registry: TypeRegistry = .system)
    -> CompiledPredicate
  {
    CompiledPredicate(predicate, registry: registry)
  }

  /// Whether `predicate` calls a function whose answer changes from one evaluation to the next:
  /// `random`, `random:`, `randomn:` or `now`, in call form (`now()`) or as `FUNCTION(…, 'now')`.
  ///
  /// Two evaluations of such a predicate may rightly disagree, so it cannot be cached or compared across
  /// evaluators. Only calls count: a key or string that merely spells a name (`known`, `"now"`) does not.
  public static func callsNondeterministicFunction(_ predicate: PredicateNode) -> Bool {
    predicate.containsExpression { expression in
      switch expression.kind {
      case .function(let name, _):
        return PredicateFunctions.function(callFormName: name)?.isNondeterministic ?? false
      case .functionCall(_, let selector, _):
        return PredicateFunctions.Function(rawValue: selector)?.isNondeterministic ?? false
      default:
        return false
      }
    }
  }

  static func evaluate(
    _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue],
    oracle: TypeOracle, options: Options = Options()
  ) throws(EvaluationError) -> Bool {
    var walker = TreeWalker(
      object: object, variables: variables, oracle: oracle, recorder: nil, budget: StepBudget(options))
    return try walker.evaluate(predicate)
  }

  static func trace(
    _ predicate: PredicateNode, on object: PredicateValue, variables: [String: PredicateValue],
    oracle: TypeOracle, options: Options = Options()
  ) throws(EvaluationError) -> EvaluationTrace {
    let recorder = TraceRecorder()
    var walker = TreeWalker(
      object: object, variables: variables, oracle: oracle, recorder: recorder, budget: StepBudget(options))
    let result = try walker.evaluate(predicate)
    return recorder.root ?? EvaluationTrace(range: predicate.range, step: .predicate, result: result)
  }
}
