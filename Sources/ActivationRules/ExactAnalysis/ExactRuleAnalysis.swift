import PredicateSyntax
import UniformTypes

/// Decides what activation rules accept over every extension context, of any size, without listing
/// contexts: agreement of two rules, and whether a rule never or always activates.
///
/// The contexts are those the JSON form describes: one or more extension items, each holding any number of
/// attachments, each registering any list of types (none included) drawn from the registry's types, their
/// Intune twins, and identifiers nobody declares. Rules inside the fragment the
/// <doc:DecidingRulesExactly> article describes (counts and `ANY`/`ALL`/`NONE` type tests over
/// `extensionItems`, `attachments` and `registeredTypeIdentifiers`, compared with numbers or with each other)
/// are decided exactly; for any other rule the analysis says why it cannot, and callers fall back to
/// bounded enumeration and say so.
public enum ExactRuleAnalysis {
  /// Whether an answer covers every context or rests on a bound.
  public enum Exactness: Sendable, Hashable {
    /// Every context was decided.
    case exact
    /// Only contexts within a bound were checked, for this reason (a construct outside the fragment).
    case bounded(reason: String)

    /// Whether the answer covers every context.
    public var isExact: Bool { self == .exact }
  }

  /// The outcome of ``compare(_:_:registry:keep:)``.
  public struct Comparison: Sendable, Hashable {
    /// The smallest contexts the rules answer differently, smallest first (fewest items, then
    /// attachments, then types), at most the requested number; empty when the rules agree on every context.
    public var smallestDisagreements: [SemanticDiff.Disagreement]
    /// How many classes of contexts the search told apart: every context behaves like one of them.
    public var contextClasses: Int
    /// How many of those classes the rules answer differently.
    public var disagreeingClasses: Int

    /// Whether the rules accept exactly the same contexts.
    public var rulesAgree: Bool { disagreeingClasses == 0 }
  }

  /// A rule the analysis cannot decide: it uses a construct outside the fragment, or its counts are
  /// compared with numbers too large to search.
  public struct Undecidable: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why, naming the construct.
    public var reason: String
    /// The reason, as the CLI prints it after `bounded:`.
    public var description: String { reason }
  }

  /// Compares what `first` and `second` accept over every extension context.
  ///
  /// - Throws: ``Undecidable`` when either rule is outside the fragment.
  public static func compare(
    _ first: PredicateNode, _ second: PredicateNode, registry: TypeRegistry = .system, keep: Int = 5
  ) throws(Undecidable) -> Comparison {
    let search = try ExactSearch(rules: [first, second], registry: registry)
    var disagreeing: [Int] = []
    let contexts = search.contexts
    for state in (0..<contexts.stateCount) where search.isContext(state) {
      if search.accepts(0, state) != search.accepts(1, state) { disagreeing.append(state) }
    }
    // Dijkstra numbers states as it first reaches them, not by final cost: sort.
    let smallest = disagreeing.sorted { (contexts.costs[$0], $0) < (contexts.costs[$1], $1) }.prefix(keep)
    return Comparison(
      smallestDisagreements: smallest.map { state in
        SemanticDiff.Disagreement(
          context: search.witness(state), acceptedByFirst: search.accepts(0, state),
          acceptedBySecond: search.accepts(1, state))
      },
      contextClasses: (0..<contexts.stateCount).filter(search.isContext).count,
      disagreeingClasses: disagreeing.count)
  }

  /// Which contexts a rule accepts, decided over every context.
  public struct Activation: Sendable, Hashable {
    /// The smallest context the rule accepts, or nil when it accepts none.
    public var smallestAccepted: ExtensionContext?
    /// The smallest context the rule rejects, or nil when it accepts every context.
    public var smallestRejected: ExtensionContext?
  }

  /// Decides whether `rule` accepts some context, and whether it accepts every one.
  ///
  /// - Throws: ``Undecidable`` when the rule is outside the fragment.
  public static func activation(_ rule: PredicateNode, registry: TypeRegistry = .system) throws(Undecidable)
    -> Activation
  {
    let search = try ExactSearch(rules: [rule], registry: registry)
    let contexts = search.contexts
    let ordered = (0..<contexts.stateCount).filter(search.isContext).sorted {
      (contexts.costs[$0], $0) < (contexts.costs[$1], $1)
    }
    return Activation(
      smallestAccepted: ordered.first { search.accepts(0, $0) }.map(search.witness),
      smallestRejected: ordered.first { !search.accepts(0, $0) }.map(search.witness))
  }
}

/// The three level searches for a set of rules sharing one model.
struct ExactSearch {
  let rules: [ExactFormula]
  let universe: TypeUniverse
  let attachments: LevelStates
  let items: LevelStates
  let contexts: LevelStates

  init(rules: [PredicateNode], registry: TypeRegistry) throws(ExactRuleAnalysis.Undecidable) {
    do {
      var model = ExactModel()
      var formulas: [ExactFormula] = []
      for rule in rules { formulas.append(try model.add(rule)) }
      self.rules = formulas
      let universe = TypeUniverse(atoms: model.typeAtoms, registry: registry)
      self.universe = universe
      let attachments = try LevelStates.search(
        level: .attachment, atoms: model.atoms[0], outputs: LevelStates.terms(of: model.atoms[1]),
        childCount: universe.representatives.count,
        childCost: { _ in ExactCost() }, childAtom: { universe.signatures[$0][$1] })
      let items = try LevelStates.search(
        level: .item, atoms: model.atoms[1], outputs: LevelStates.terms(of: model.atoms[2]),
        childCount: attachments.stateCount,
        childCost: { attachments.costs[$0] }, childAtom: { attachments.holds(atom: $1, in: $0) })
      self.attachments = attachments
      self.items = items
      self.contexts = try LevelStates.search(
        level: .context, atoms: model.atoms[2], outputs: nil, childCount: items.stateCount,
        childCost: { items.costs[$0] }, childAtom: { items.holds(atom: $1, in: $0) })
    } catch {
      throw ExactRuleAnalysis.Undecidable(reason: error.reason)
    }
  }

  /// Whether a context state holds at least one extension item (every context a host makes does).
  func isContext(_ state: Int) -> Bool {
    guard let slot = contexts.everyChildSlot else { return true }
    return contexts.count(state, slot: slot) > 0
  }

  func accepts(_ rule: Int, _ state: Int) -> Bool {
    rules[rule].evaluate { contexts.holds(atom: $0, in: state) }
  }

  /// The cheapest concrete context in `state`.
  func witness(_ state: Int) -> ExtensionContext {
    ExtensionContext(
      extensionItems: contexts.children(of: state).map { item in
        ExtensionItem(
          attachments: items.children(of: item).map { attachment in
            ExtensionAttachment(
              registeredTypeIdentifiers: attachments.children(of: attachment).map {
                universe.representatives[$0]
              })
          })
      })
  }
}
