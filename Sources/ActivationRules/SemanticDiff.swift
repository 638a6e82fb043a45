import PredicateSyntax
import UniformTypes

/// Compares what two rules accept by bounded exhaustive enumeration of extension contexts.
///
/// The contexts hold 1…``Bounds/maximumItems`` extension items and 0…``Bounds/maximumAttachments``
/// attachments in all, each attachment registering one type drawn from the types either rule mentions, their
/// Intune twins, ``ContextEnumerator/distractors`` and, as far as the enumeration limits allow, one declared
/// direct subtype of each mentioned type (``ContextEnumerator/directSubtypes(of:in:)``). "No disagreement" is
/// therefore a proof within those bounds, not a sample.
public enum SemanticDiff {
  /// How far the enumeration goes.
  public struct Bounds: Sendable, Hashable {
    /// Most attachments in one context, over all its items.
    public var maximumAttachments: Int
    /// Most extension items in one context.
    public var maximumItems: Int

    /// Bounds of up to `maximumAttachments` attachments in up to `maximumItems` items per context.
    public init(maximumAttachments: Int = 3, maximumItems: Int = 2) {
      self.maximumAttachments = maximumAttachments
      self.maximumItems = maximumItems
    }
  }

  /// A context on which the rules answer differently.
  public struct Disagreement: Sendable, Hashable {
    /// The context.
    public var context: ExtensionContext
    /// Whether the first rule activates for it.
    public var acceptedByFirst: Bool
    /// Whether the second rule activates for it.
    public var acceptedBySecond: Bool
  }

  /// The outcome of a comparison.
  public struct Report: Sendable, Hashable {
    /// How many contexts were evaluated.
    public var contextsChecked: Int
    /// How many of them the rules disagree on.
    public var disagreementCount: Int
    /// The smallest disagreements (fewest attachments, then fewest items), at most the requested number.
    public var smallestDisagreements: [Disagreement]
    /// The attachment types the enumeration drew from.
    public var types: [String]

    /// Whether no enumerated context tells the rules apart.
    public var rulesAgree: Bool { disagreementCount == 0 }
  }

  /// Compares `first` and `second` over every context within `bounds`.
  ///
  /// - Throws: ``ContextEnumerator/LimitExceeded`` before evaluating anything when the bounds ask for more
  ///   than ``ContextEnumerator/maximumContexts`` contexts or ``ContextEnumerator/maximumObjects`` extension
  ///   items and attachments.
  public static func compare(
    _ first: PredicateNode, _ second: PredicateNode, bounds: Bounds = Bounds(),
    registry: TypeRegistry = .system,
    keep: Int = 5
  ) throws(ContextEnumerator.LimitExceeded) -> Report {
    let types = RuleAnalysis.mentionedTypes(first) + RuleAnalysis.mentionedTypes(second)
    // A subtype of each tested type tells a conformance test from an equality test (`[[public.file-url]]`
    // for UTI-CONFORMS-TO "public.url" against ==[c] "PUBLIC.URL"), which the named types alone cannot.
    let enumerator = ContextEnumerator(
      shapes: ContextEnumerator.shapes(mentioning: types), maximumAttachments: bounds.maximumAttachments,
      maximumItems: bounds.maximumItems
    ).addingSubtypes(of: types, in: registry)
    let shapes = enumerator.shapes
    let firstEvaluator = RuleEvaluator(first, registry: registry)
    let secondEvaluator = RuleEvaluator(second, registry: registry)
    var checked = 0
    var count = 0
    var smallest: [Disagreement] = []
    for context in try enumerator.checkedContexts() {
      checked += 1
      let value = context.predicateValue
      let a = firstEvaluator.accepts(value: value)
      let b = secondEvaluator.accepts(value: value)
      guard a != b else { continue }
      count += 1
      if smallest.count < keep {
        smallest.append(Disagreement(context: context, acceptedByFirst: a, acceptedBySecond: b))
      }
    }
    return Report(
      contextsChecked: checked, disagreementCount: count, smallestDisagreements: smallest,
      types: shapes.flatMap { $0 })
  }

  /// A context the original rule accepts on which the injected rule fails the twin property.
  public struct TwinCounterexample: Sendable, Hashable {
    /// A context the original rule accepts.
    public var context: ExtensionContext
    /// Whether the injected rule accepts the context itself.
    public var injectedAcceptsContext: Bool
    /// Whether the injected rule accepts the context's twin image.
    public var injectedAcceptsTwinImage: Bool
  }

  /// Checks that `injected` accepts every context `original` accepts, and the twin image of each, within
  /// `bounds`. Empty means the property holds.
  ///
  /// Use a registry with `TwinPolicy.mirrored`: under the literal policy a twin conforms only to itself,
  /// so a rule testing `public.image` cannot accept the twin of `public.jpeg` however many twins it lists.
  public static func twinCounterexamples(
    original: PredicateNode, injected: PredicateNode, bounds: Bounds = Bounds(),
    registry: TypeRegistry = TypeRegistry.system.withTwinPolicy(.mirrored)
  ) -> (checked: Int, counterexamples: [TwinCounterexample]) {
    let shapes = ContextEnumerator.shapes(mentioning: RuleAnalysis.mentionedTypes(original), twins: false)
    let enumerator = ContextEnumerator(
      shapes: shapes, maximumAttachments: bounds.maximumAttachments, maximumItems: bounds.maximumItems)
    let before = RuleEvaluator(original, registry: registry)
    let after = RuleEvaluator(injected, registry: registry)
    var checked = 0
    var failures: [TwinCounterexample] = []
    for context in enumerator.contexts() {
      let value = context.predicateValue
      guard before.accepts(value: value) else { continue }
      checked += 1
      let keeps = after.accepts(value: value)
      let twins = after.accepts(context.twinImage)
      if !keeps || !twins {
        failures.append(
          TwinCounterexample(context: context, injectedAcceptsContext: keeps, injectedAcceptsTwinImage: twins)
        )
      }
    }
    return (checked, failures)
  }
}
