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

  /// The outcome of ``compare(_:_:registry:keep:effort:)``.
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

  /// How long the analysis may search a rule inside the fragment before it gives up.
  public enum Effort: Sendable, Hashable {
    /// Each level's search stops at its bound (`docs/limits.md`: about a second in a release build) and the
    /// analysis reports the rule undecidable, with ``Undecidable/searchLimitReached`` set. Nearly every real
    /// rule is decided well within it.
    case standard
    /// The interval search runs to its end, so every rule inside the fragment is decided; it can take
    /// seconds to a minute (a version 1 dictionary's apple form with twins against Microsoft's form:
    /// 1–60 s, `docs/performance.md`, part 25), and more for rules larger than any real one.
    case exhaustive
  }

  /// A rule the analysis cannot decide: it uses a construct outside the fragment, its counts are
  /// compared with numbers too large to search, or its search passed a bound of the ``Effort``.
  public struct Undecidable: Error, Sendable, Hashable, CustomStringConvertible {
    /// Why, naming the construct or the bound.
    public var reason: String
    /// Whether the rule is inside the fragment and only the search's time bound stopped it:
    /// ``Effort/exhaustive`` decides it.
    public var searchLimitReached: Bool
    /// The reason, as the CLI prints it after `bounded:`.
    public var description: String { reason }

    init(reason: String, searchLimitReached: Bool = false) {
      self.reason = reason
      self.searchLimitReached = searchLimitReached
    }
  }

  /// Compares what `first` and `second` accept over every extension context.
  ///
  /// - Parameters:
  ///   - first: The first rule.
  ///   - second: The second rule.
  ///   - registry: The types both rules are evaluated with.
  ///   - keep: How many of the smallest disagreements to return.
  ///   - effort: How long the search may take before it gives up.
  /// - Throws: ``Undecidable`` when either rule is outside the fragment, or the search passed a bound of
  ///   `effort`.
  public static func compare(
    _ first: PredicateNode, _ second: PredicateNode, registry: TypeRegistry = .system, keep: Int = 5,
    effort: Effort = .standard
  ) throws(Undecidable) -> Comparison {
    let search = try ExactSearch(rules: [first, second], registry: registry, effort: effort)
    let disagreeing = search.classes(where: { $0[0] != $0[1] }, keep: keep)
    return Comparison(
      smallestDisagreements: disagreeing.cheapest.map { found in
        SemanticDiff.Disagreement(
          context: found.context, acceptedByFirst: found.answers[0], acceptedBySecond: found.answers[1])
      },
      contextClasses: search.contextClassCount, disagreeingClasses: disagreeing.count)
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
  /// - Parameters:
  ///   - rule: The rule.
  ///   - registry: The types the rule is evaluated with.
  ///   - effort: How long the search may take before it gives up.
  /// - Throws: ``Undecidable`` when the rule is outside the fragment, or the search passed a bound of
  ///   `effort`.
  public static func activation(
    _ rule: PredicateNode, registry: TypeRegistry = .system, effort: Effort = .standard
  ) throws(Undecidable) -> Activation {
    let search = try ExactSearch(rules: [rule], registry: registry, effort: effort)
    return Activation(
      smallestAccepted: search.classes(where: { $0[0] }, keep: 1).cheapest.first?.context,
      smallestRejected: search.classes(where: { !$0[0] }, keep: 1).cheapest.first?.context)
  }

  /// Whether `rule` accepts some extension context and rejects some, without building either context:
  /// the smallest can be large (`@count == 5000` of items and of their attachments is 25 million
  /// attachments), and `lint` needs only the answers.
  public static func activationAnswers(
    _ rule: PredicateNode, registry: TypeRegistry = .system, effort: Effort = .standard
  ) throws(Undecidable) -> (accepts: Bool, rejects: Bool) {
    let search = try ExactSearch(rules: [rule], registry: registry, effort: effort)
    return (
      search.classes(where: { $0[0] }, keep: 0).count > 0,
      search.classes(where: { !$0[0] }, keep: 0).count > 0
    )
  }
}

/// The three level searches for a set of rules sharing one model.
struct ExactSearch {
  let rules: [ExactFormula]
  let universe: TypeUniverse
  let attachments: LevelStates
  let items: LevelStates
  let contexts: ContextLevel

  /// The context level: searched like the others, or — when its counts are only compared with 0 — as
  /// unions of the items' sets (``ContextUnions``), whose witnesses are found on demand.
  enum ContextLevel {
    case states(LevelStates)
    case unions(ContextUnions)
  }

  /// Searches `rules`' levels; `effort` ``ExactRuleAnalysis/Effort/exhaustive`` lifts the interval
  /// search's bound for the whole search (the other bounds choose between searches, and stay).
  init(rules: [PredicateNode], registry: TypeRegistry, effort: ExactRuleAnalysis.Effort = .standard)
    throws(ExactRuleAnalysis.Undecidable)
  {
    guard effort == .exhaustive else {
      try self.init(searching: rules, registry: registry)
      return
    }
    var limits = LevelStates.limits
    limits.combinations = .max
    limits.partCombinations = .max
    do {
      self = try LevelStates.$limits.withValue(limits) { try Self(searching: rules, registry: registry) }
    } catch let error as ExactRuleAnalysis.Undecidable {
      throw error
    } catch {
      throw ExactRuleAnalysis.Undecidable(reason: "\(error)")
    }
  }

  private init(searching rules: [PredicateNode], registry: TypeRegistry) throws(ExactRuleAnalysis.Undecidable)
  {
    do {
      var model = ExactModel()
      var formulas: [ExactFormula] = []
      // Conditions on an enclosing level inside a SUBQUERY move out of it first (``OuterConditions``).
      for rule in rules { formulas.append(try model.add(OuterConditions.split(rule))) }
      self.rules = formulas
      let universe = TypeUniverse(atoms: model.typeAtoms, registry: registry)
      self.universe = universe
      let attachments = try LevelStates.search(
        level: .attachment, atoms: model.atoms[0], outputs: LevelStates.terms(of: model.atoms[1]),
        childCount: universe.representatives.count, childCost: { _ in ExactCost() },
        childAnswers: universe.answers)
      let items = try LevelStates.search(
        level: .item, atoms: model.atoms[1], outputs: LevelStates.terms(of: model.atoms[2]),
        childCount: attachments.stateCount, childCost: { attachments.costs[$0] },
        childAnswers: attachments.answers)
      self.attachments = attachments
      self.items = items
      let prepared = try LevelStates.prepare(
        level: .context, atoms: model.atoms[2], childCount: items.stateCount, childCost: { items.costs[$0] },
        childAnswers: items.answers)
      // A forced strategy (tests) searches every level alike.
      if LevelStates.forcedStrategy == nil, let unions = ContextUnions(prepared) {
        self.contexts = .unions(unions)
      } else {
        self.contexts = .states(
          try prepared.level.searched(steps: prepared.steps, caps: prepared.caps, outputs: nil))
      }
    } catch {
      throw ExactRuleAnalysis.Undecidable(reason: error.reason, searchLimitReached: error.searchLimitReached)
    }
  }

  /// How many states the context level has, the empty collection's included.
  var contextStateCount: Int {
    switch contexts {
    case .states(let states): states.stateCount
    case .unions(let unions): unions.reachable.count
    }
  }

  /// How many classes of contexts (at least one item) the search tells apart.
  var contextClassCount: Int {
    switch contexts {
    case .states(let states): (0..<states.stateCount).filter { Self.isContext($0, in: states) }.count
    case .unions(let unions): unions.contexts.count
    }
  }

  /// The classes of contexts on which the rules' answers (in the order of `rules`) pass `wanted`: how many,
  /// and the `keep` cheapest, each with its smallest context and the answers, cheapest first.
  func classes(where wanted: ([Bool]) -> Bool, keep: Int) -> (
    count: Int, cheapest: [(context: ExtensionContext, answers: [Bool])]
  ) {
    switch contexts {
    case .states(let states):
      // The rules' answers on every state at once, a word of states per operator, and the states whose
      // answers the caller wants.
      let atomAnswers = states.answers
      let size = states.stateCount
      let answers = rules.map { rule in rule.answers(size: size) { atomAnswers[$0] } }
      var matching = BitVector(size: size, value: false)
      for combination in 0..<(1 << rules.count) {
        let vector = rules.indices.map { combination & (1 << $0) != 0 }
        guard wanted(vector) else { continue }
        matching = matching.or(
          zip(vector, answers).reduce(BitVector(size: size, value: true)) { $0.and($1.0 ? $1.1 : $1.1.not()) }
        )
      }
      if let slot = states.everyChildSlot {
        matching = matching.and(BitVector(size: size) { states.count($0, slot: slot) > 0 })
      }
      // Dijkstra numbers states as it first reaches them, not by final cost: the cheapest, ties by number.
      var smallest: [Int] = []
      matching.forEachTrue { state in
        let key = (states.costs[state], state)
        guard keep > 0 else { return }
        if smallest.count == keep, let last = smallest.last, (states.costs[last], last) < key { return }
        let position = smallest.firstIndex { key < (states.costs[$0], $0) } ?? smallest.count
        smallest.insert(state, at: position)
        if smallest.count > keep { smallest.removeLast() }
      }
      return (
        matching.count,
        smallest.map { state in (witness(items: states.children(of: state)), answers.map { $0[state] }) }
      )
    case .unions(let unions):
      // The rules are answered on the classes of contexts only, listed; the witness search takes the
      // wanted ones as a table over all sets.
      let list = ContextUnions.ContextList(unions)
      let answers = rules.map { unions.answers($0, on: list) }
      var matching = BitVector(size: list.sets.count, value: false)
      for combination in 0..<(1 << rules.count) {
        let vector = rules.indices.map { combination & (1 << $0) != 0 }
        guard wanted(vector) else { continue }
        var giving = BitVector(size: list.sets.count, value: true)
        for (answer, rule) in zip(vector, answers) {
          if answer { giving.formAnd(rule) } else { giving.formAnd(rule.not()) }
        }
        matching.formOr(giving)
      }
      var wantedSets = BitVector(size: 1 << unions.bitCount, value: false)
      matching.forEachTrue { wantedSets[list.sets[$0]] = true }
      return (
        matching.count,
        unions.cheapest(in: wantedSets, keep: keep).map { found in
          let position = list.position(of: found.set)
          return (witness(items: found.children), answers.map { $0[position] })
        }
      )
    }
  }

  /// Whether a context state holds at least one extension item (every context a host makes does).
  private static func isContext(_ state: Int, in states: LevelStates) -> Bool {
    guard let slot = states.everyChildSlot else { return true }
    return states.count(state, slot: slot) > 0
  }

  /// The concrete context made of the cheapest items of these item states.
  func witness(items itemStates: [Int]) -> ExtensionContext {
    ExtensionContext(
      extensionItems: itemStates.map { item in
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
