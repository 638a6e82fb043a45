import PredicateSyntax
import UniformTypes

extension SemanticDiff {
  /// A comparison and whether it covers every context.
  public struct Decision: Sendable, Hashable {
    /// ``ExactRuleAnalysis/Exactness/exact``, or bounded with the reason.
    public var exactness: ExactRuleAnalysis.Exactness
    /// Exact: ``Report/contextsChecked`` counts the classes of contexts the search told apart (every
    /// context behaves like one of them) and ``Report/disagreementCount`` the classes the rules answer
    /// differently. Bounded: the contexts enumerated within the bounds, as ``compare(_:_:bounds:registry:keep:)``.
    public var report: Report
    /// The bounds of the enumeration, when the comparison is bounded.
    public var bounds: Bounds?
    /// Whether the rules are inside the exact fragment and only the search's time bound made the
    /// comparison bounded: ``ExactRuleAnalysis/Effort/exhaustive`` decides it.
    public var searchLimitReached = false
  }

  /// Compares `first` and `second` over every extension context when both rules are inside the fragment
  /// ``ExactRuleAnalysis`` decides; otherwise over the contexts within `bounds`, saying why.
  ///
  /// - Parameters:
  ///   - first: The first rule.
  ///   - second: The second rule.
  ///   - bounds: Compare by enumeration within these bounds, whatever the rules (as
  ///     ``compare(_:_:bounds:registry:keep:)``); nil decides exactly where it can and falls back to the
  ///     default bounds.
  ///   - registry: The types both rules are evaluated with.
  ///   - keep: How many of the smallest disagreements to return.
  ///   - effort: How long the exact search may take before the comparison falls back to enumeration.
  /// - Throws: ``ContextEnumerator/LimitExceeded`` when the comparison falls back to enumeration and the
  ///   bounds ask for too many contexts.
  public static func decide(
    _ first: PredicateNode, _ second: PredicateNode, bounds: Bounds? = nil, registry: TypeRegistry = .system,
    keep: Int = 5, effort: ExactRuleAnalysis.Effort = .standard
  ) throws(ContextEnumerator.LimitExceeded) -> Decision {
    let reason: String
    if let bounds {
      reason = "enumerated within the bounds asked for"
      let report = try compare(first, second, bounds: bounds, registry: registry, keep: keep)
      return Decision(exactness: .bounded(reason: reason), report: report, bounds: bounds)
    }
    do {
      let exact = try ExactRuleAnalysis.compare(first, second, registry: registry, keep: keep, effort: effort)
      let report = Report(
        contextsChecked: exact.contextClasses, disagreementCount: exact.disagreeingClasses,
        smallestDisagreements: exact.smallestDisagreements,
        types: RuleAnalysis.mentionedTypes(first) + RuleAnalysis.mentionedTypes(second))
      return Decision(exactness: .exact, report: report, bounds: nil)
    } catch {
      let fallback = Bounds()
      let report = try compare(first, second, bounds: fallback, registry: registry, keep: keep)
      return Decision(
        exactness: .bounded(reason: error.reason), report: report, bounds: fallback,
        searchLimitReached: error.searchLimitReached)
    }
  }
}
