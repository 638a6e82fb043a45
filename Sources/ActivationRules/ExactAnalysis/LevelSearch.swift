import PredicateSyntax

/// What a context costs as a witness: fewest items first, then attachments, then types.
struct ExactCost: Sendable, Hashable, Comparable {
  var items = 0
  var attachments = 0
  var types = 0

  static func < (lhs: ExactCost, rhs: ExactCost) -> Bool {
    (lhs.items, lhs.attachments, lhs.types) < (rhs.items, rhs.attachments, rhs.types)
  }

  static func + (lhs: ExactCost, rhs: ExactCost) -> ExactCost {
    ExactCost(
      items: lhs.items + rhs.items, attachments: lhs.attachments + rhs.attachments,
      types: lhs.types + rhs.types)
  }

  /// The cost folded into one integer, 21 bits per component, so that costs compare with one instruction
  /// (the searches that fold check that their costs stay below 2^21).
  var folded: UInt64 { UInt64(items) << 42 | UInt64(attachments) << 21 | UInt64(types) }
}

extension ExactCost {
  init(folded: UInt64) {
    let mask: UInt64 = (1 << 21) - 1
    self.init(items: Int(folded >> 42), attachments: Int((folded >> 21) & mask), types: Int(folded & mask))
  }
}

/// An atom of a level read off a state: the count in `slot` passes `test`.
struct SlotTest: Sendable {
  var slot: Int
  var test: CountTest
}

/// Every state of one level that some collection reaches, with the cheapest way to reach it.
///
/// A state is the vector of the level's counts (how many children pass each test the rules count), each
/// saturated at the point past which no comparison of the rules tells counts apart. Children that pass the
/// same tests are interchangeable, so they are grouped into classes first; a state's successors add one
/// child of some class. Dijkstra's algorithm over these states (costs add, lexicographically) finds every
/// reachable state and its smallest collection at once: the search lists abstract states, never contexts.
struct LevelStates: Sendable {
  var caps: [Int32] = []
  /// Each state's cheapest cost.
  var costs: [ExactCost] = []
  /// The level's atoms, in the model's order.
  var atoms: [SlotTest] = []
  /// The slot counting every child, when the level keeps one (the context level: at least one item).
  var everyChildSlot: Int?
  /// The states, as the search that found them keeps them (none before a search).
  var storage = Storage.packed(PackedStates())

  /// How a level's states are kept: each search keeps them its own way, and the readers below (counts,
  /// answers, witnesses) read each way.
  enum Storage: Sendable {
    /// The count searches' (``countSearch(steps:caps:)``): counts packed, and each state's parent.
    case packed(PackedStates)
    /// The interval search's (``searchIntervals(steps:caps:outputs:)``): counts and witnesses listed.
    case explicit(ExplicitStates)
    /// The split search's (``searchParts(_:caps:)``): a state of each part.
    case combined(CombinedStates)
  }

  /// Each state's counts packed into two words, and the state it was reached from.
  struct PackedStates: Sendable {
    /// Where each slot's count sits in a packed state: bit offset and width.
    var layout: [(offset: Int, width: Int)] = []
    var states: [PackedState] = []
    /// The state before the last child was added and that child (a state of the level below, or a type
    /// representative); -1 for the empty collection.
    var parents: [(state: Int32, child: Int32)] = []

    func count(_ state: Int, slot: Int) -> Int {
      let (offset, width) = layout[slot]
      guard width > 0 else { return 0 }
      return Int((states[state][offset / 64] >> UInt64(offset % 64)) & ((1 << UInt64(width)) - 1))
    }
  }

  /// Each state's counts, saturated at the caps, and the children of its cheapest collection.
  struct ExplicitStates: Sendable {
    var counts: [[Int]] = []
    var witnesses: [[Int32]] = []
    /// Whether ``searchSupportingParts(_:caps:)`` found them (the interval search's otherwise).
    var bySupportingParts = false
    /// Whether ``searchSupportingPartIntervals(_:caps:outputs:)`` found them.
    var byPartIntervals = false
    /// The witnesses, when they are arranged as they are read (``witnesses`` is then empty).
    var arranged: ArrangedWitnesses?
  }

  /// The split search's states, when it found them.
  var combined: CombinedStates? {
    guard case .combined(let combined) = storage else { return nil }
    return combined
  }

  var stateCount: Int {
    switch storage {
    case .packed(let packed): packed.states.count
    case .explicit(let explicit): explicit.counts.count
    case .combined(let combined): combined.stateCount
    }
  }

  /// The count in `slot` of `state`, saturated at the slot's cap.
  func count(_ state: Int, slot: Int) -> Int {
    switch storage {
    case .packed(let packed): packed.count(state, slot: slot)
    case .explicit(let explicit): explicit.counts[state][slot]
    case .combined(let combined): combined.count(state, slot: slot)
    }
  }

  /// Each atom's answer on every state.
  var answers: [BitVector] {
    // Each test's answer for every count up to its cap, read off each state's count; the states are read
    // once, for all atoms, a bit per state and atom set into one flat array of words.
    let byCount = atoms.map { atom in (0...Int(caps[atom.slot])).map { atom.test.holds($0) } }
    let wordCount = (stateCount + 63) / 64
    var words = [UInt64](repeating: 0, count: atoms.count * wordCount)
    words.withUnsafeMutableBufferPointer { words in
      func set(_ atom: Int, _ state: Int) { words[atom * wordCount + state >> 6] |= 1 << UInt64(state & 63) }
      switch storage {
      case .combined(let combined):
        combined.answers(atoms: atoms, byCount: byCount, into: words, wordCount: wordCount)
      case .explicit(let explicit):
        for (state, counts) in explicit.counts.enumerated() {
          for (index, atom) in atoms.enumerated() where byCount[index][counts[atom.slot]] {
            set(index, state)
          }
        }
      case .packed(let packed):
        let fields = atoms.map { atom in
          let (offset, width) = packed.layout[atom.slot]
          return (
            word: offset / 64, shift: UInt64(offset % 64), mask: width == 0 ? 0 : (UInt64(1) << width) - 1
          )
        }
        for (state, counts) in packed.states.enumerated() {
          for (index, field) in fields.enumerated()
          where byCount[index][Int((counts[field.word] >> field.shift) & field.mask)] {
            set(index, state)
          }
        }
      }
    }
    return atoms.indices.map { atom in
      BitVector(size: stateCount, words: Array(words[(atom * wordCount)..<((atom + 1) * wordCount)]))
    }
  }

  func holds(atom: Int, in state: Int) -> Bool {
    let atom = atoms[atom]
    return atom.test.holds(count(state, slot: atom.slot))
  }

  /// The children of `state`'s cheapest collection, in the order they were added.
  func children(of state: Int) -> [Int] {
    switch storage {
    case .combined(let combined): return combined.children(of: state)
    case .explicit(let explicit):
      if let arranged = explicit.arranged { return arranged.witness(state).map(Int.init) }
      return explicit.witnesses[state].map(Int.init)
    case .packed(let packed):
      var result: [Int] = []
      var current = state
      while packed.parents[current].state >= 0 {
        result.append(Int(packed.parents[current].child))
        current = Int(packed.parents[current].state)
      }
      return result.reversed()
    }
  }

  /// The most states one level's count search may reach by Dijkstra over hashed states (50 000, some tens of
  /// milliseconds in a release build), and the most cells of a grid the count search takes first when the
  /// interval search could serve instead. Levels with more possible states are searched by interval, and
  /// by the grid (up to ``maximumGridCells``) when that search passes its own bound.
  static let maximumStates = 50_000

  /// The bounds a search runs under.
  struct Limits: Sendable {
    /// ``maximumStates``.
    var countStates = LevelStates.maximumStates
    /// ``maximumCombinations``.
    var combinations = LevelStates.maximumCombinations
    /// ``maximumGridWork``.
    var gridWork = LevelStates.maximumGridWork
    /// ``maximumExploreWork``.
    var exploreWork = LevelStates.maximumExploreWork
    /// ``maximumGridCells``.
    var gridCells = LevelStates.maximumGridCells
    /// ``maximumPartCombinations``.
    var partCombinations = LevelStates.maximumPartCombinations
    /// ``maximumSupportTableEntries``.
    var supportTableEntries = LevelStates.maximumSupportTableEntries
  }

  /// The most relaxations (states settled × steps) Dijkstra over hashed states makes before giving up: about
  /// a fifth of a second in a release build. Its state bound alone let a level of 729 steps hash 22 million
  /// successors (2.2 s) before passing 50 000 states — a rule the fuzzer built from a real one; no real rule
  /// takes this search.
  static let maximumExploreWork = 2_000_000

  /// The bounds in effect: the defaults, lowered by tests so small rules take the fallbacks large ones do.
  @TaskLocal static var limits = Limits()

  /// How a level is searched: by saturated counts (over the dense grid where it fits, else Dijkstra over
  /// hashed states), by hashed states only, or by count intervals (integer programs).
  enum Strategy: Sendable { case counts, hashedCounts, intervals }

  /// Forces one strategy on every level, so tests can check the two against each other; nil: each level
  /// takes the count search when its states are surely few, else the interval search, falling back to the
  /// count search when the interval search passes its bound.
  @TaskLocal static var forcedStrategy: Strategy?

  /// The largest constant a count may be compared with: the interval search would solve larger bounds
  /// exactly too, but no host shares a hundred thousand attachments, and a witness past one would list them.
  static let maximumCompared = 100_000

  /// One class of children as a search step: the slots its children raise, the cheapest child and its cost
  /// as a child of this level.
  typealias Step = (increments: [Int], child: Int, cost: ExactCost)

  /// A level before its search: its atoms read off slots, the slots' caps, and its steps.
  struct Prepared {
    var level: LevelStates
    var caps: [Int32]
    /// The slots some step may raise (cap above 0), in increasing order.
    var raised: [Int]
    /// Each step's effect: bit `i` set when it raises `raised[i]`, `effectWidth` words per step.
    var effects: [UInt64]
    var effectWidth: Int
    /// Each step's cheapest child and its cost as a child of this level.
    var stepChildren: [Int]
    var stepCosts: [ExactCost]

    /// The steps with the slots each raises listed, as the count searches take them. Built on demand: the
    /// unions of the context level read the effects' words directly (14.plist: 28 548 steps, an array each).
    var steps: [Step] {
      stepChildren.indices.map { step in
        var increments: [Int] = []
        for word in 0..<effectWidth {
          var rest = effects[step * effectWidth + word]
          while rest != 0 {
            increments.append(raised[word * 64 + rest.trailingZeroBitCount])
            rest &= rest - 1
          }
        }
        return (increments, stepChildren[step], stepCosts[step])
      }
    }
  }

  /// Searches `level` over children of the level below: `childCount` of them, each with `childCost`;
  /// `childAnswers` holds each atom of the level below's answers on every child.
  static func search(
    level: ExactLevel, atoms: [ExactAtom], outputs: [ExactFormula]?, childCount: Int,
    childCost: (Int) -> ExactCost, childAnswers: [BitVector]
  ) throws(OutsideFragment) -> LevelStates {
    let prepared = try prepare(
      level: level, atoms: atoms, childCount: childCount, childCost: childCost, childAnswers: childAnswers)
    return try prepared.level.searched(steps: prepared.steps, caps: prepared.caps, outputs: outputs)
  }

  /// Groups the children into classes and steps, and the counts the level's atoms read into slots with
  /// their caps.
  static func prepare(
    level: ExactLevel, atoms: [ExactAtom], childCount: Int, childCost: (Int) -> ExactCost,
    childAnswers: [BitVector]
  ) throws(OutsideFragment) -> Prepared {
    // The formulas the level counts, answered on every child at once (a word of 64 children per
    // operator); children alike on all are one class.
    let (formulas, atomFormulas) = Self.termIndices(of: atoms)
    let formulaAnswers = formulas.map { $0.answers(size: childCount) { childAnswers[$0] } }
    // Each child's answers packed into words: the answers' table turned into rows.
    let keyWords = Swift.max(1, (formulas.count + 63) / 64)
    let keys =
      formulas.isEmpty
      ? [UInt64](repeating: 0, count: childCount)
      : BitMatrix.rows(ofColumns: formulaAnswers.map(\.words), rowCount: childCount)
    // Each class: its first child's key (the formulas' answers) and its cheapest child.
    let (classes, classChild, classCost) = WordKeyedClasses.grouping(
      keys, width: keyWords, count: childCount, cost: childCost)
    let classCount = classChild.count
    // Each formula's answer on every class, read off the classes' keys in one pass.
    let classColumns = BitMatrix.columns(
      ofRows: classes.keys, width: keyWords, rowCount: classCount, columnCount: formulas.count
    ).map { BitVector(size: classCount, words: $0) }
    func classColumn(_ formula: Int) -> BitVector { classColumns[formula] }
    // One slot per distinct column of classes: two formulas no child tells apart count alike.
    var result = LevelStates()
    var slotOf: [BitVector: Int] = [:]
    var columns: [BitVector] = []
    var caps: [Int32] = []
    func slot(_ column: BitVector, saturation: Double) throws(OutsideFragment) -> Int {
      let cap: Int32
      if column.count == 0 {
        cap = 0
      } else if saturation > Double(maximumCompared) {
        // The constant may be past Int.max (or infinite): named as a Double then, never converted.
        let compared = saturation - 1
        let named = compared < 0x1p62 ? String(Int(compared)) : String(describing: compared)
        throw OutsideFragment(
          reason: "a count is compared with \(named), more than the exact search follows (\(maximumCompared))"
        )
      } else {
        cap = Int32(saturation)
      }
      if let existing = slotOf[column] {
        caps[existing] = Swift.max(caps[existing], cap)
        return existing
      }
      slotOf[column] = columns.count
      columns.append(column)
      caps.append(cap)
      return columns.count - 1
    }
    for (atom, (first, second)) in zip(atoms, atomFormulas) {
      switch atom {
      case .count(_, let test):
        result.atoms.append(
          SlotTest(slot: try slot(classColumn(first), saturation: test.saturation), test: test))
      case .counts(_, let op, _):
        // #a - #b = #(a ∧ ¬b) - #(b ∧ ¬a); when one side never grows, the other is one monotone count.
        guard let second else { continue }
        let firstColumn = classColumn(first)
        let secondColumn = classColumn(second)
        let onlyFirst = firstColumn.and(secondColumn.not())
        let onlySecond = secondColumn.and(firstColumn.not())
        if onlySecond.count == 0 {
          let test = CountTest(kind: .compare(op, 0))
          result.atoms.append(SlotTest(slot: try slot(onlyFirst, saturation: 1), test: test))
        } else if onlyFirst.count == 0 {
          let test = CountTest(kind: .compare(Self.mirrored(op), 0))
          result.atoms.append(SlotTest(slot: try slot(onlySecond, saturation: 1), test: test))
        } else {
          throw OutsideFragment(
            reason: "two counts are compared where either can exceed the other (neither subquery's condition "
              + "implies the other's)")
        }
      }
    }
    if level == .context {
      result.everyChildSlot = try slot(BitVector(size: classCount, value: true), saturation: 1)
    }
    // Each test's saturation is one past its largest constant; the count's own is where its last interval
    // starts (`≥ 1`: 1, not 2), which is as sound (every count from there on answers every test alike) and
    // keeps the count search's states fewer.
    for slot in caps.indices where caps[slot] > 0 {
      let tests = Self.tests(ofSlot: slot, atoms: result.atoms, everyChildSlot: result.everyChildSlot)
      caps[slot] = Int32(Self.intervals(cap: caps[slot], tests: tests).last?.low ?? Int(caps[slot]))
    }
    // Classes with the same effect on the counts: the cheapest stands for all. A class's effect is the set
    // of slots it raises, read off the columns a word of classes at a time.
    let raised = columns.indices.filter { caps[$0] > 0 }
    let effectWords = (raised.count + 63) / 64
    let effects =
      raised.isEmpty
      ? [UInt64](repeating: 0, count: classCount)
      : BitMatrix.rows(ofColumns: raised.map { columns[$0].words }, rowCount: classCount)
    let width = Swift.max(1, effectWords)
    let own: ExactCost
    switch level {
    case .attachment: own = ExactCost(types: 1)
    case .item: own = ExactCost(attachments: 1)
    default: own = ExactCost(items: 1)
    }
    // When every formula's column is a raised slot's, a class's effect tells its key, so the classes have
    // distinct effects and each is its own step (14.plist's context level: 28 548 of them, hashed a second
    // time for nothing before).
    if formulas.indices.allSatisfy({ slotOf[classColumns[$0]].map { caps[$0] > 0 } ?? false }) {
      return Prepared(
        level: result, caps: caps, raised: raised, effects: effects, effectWidth: width,
        stepChildren: classChild, stepCosts: classCost.map { own + $0 })
    }
    let (stepOf, stepClasses, stepCosts) = WordKeyedClasses.grouping(
      effects, width: width, count: classCount, cost: { own + classCost[$0] })
    let stepChildren = stepClasses.map { classChild[$0] }
    return Prepared(
      level: result, caps: caps, raised: raised, effects: stepOf.keys, effectWidth: width,
      stepChildren: stepChildren, stepCosts: stepCosts)
  }

  /// This level, prepared, with its states found by the search ``forcedStrategy`` or the choice below names.
  func searched(steps: [Step], caps: [Int32], outputs: [ExactFormula]?) throws(OutsideFragment) -> LevelStates
  {
    var result = self
    switch Self.forcedStrategy {
    case .counts?:
      guard try result.countSearch(steps: steps, caps: caps) else {
        throw OutsideFragment(
          reason: "more than \(Self.limits.countStates) distinct count states (LevelStates.maximumStates) or "
            + "\(Self.limits.exploreWork) successors (LevelStates.maximumExploreWork)",
          searchLimitReached: true)
      }
    case .hashedCounts?:
      guard try result.explore(steps: steps, caps: caps) else {
        throw OutsideFragment(
          reason: "more than \(Self.limits.countStates) distinct count states (LevelStates.maximumStates) or "
            + "\(Self.limits.exploreWork) successors (LevelStates.maximumExploreWork)",
          searchLimitReached: true)
      }
    case .intervals?:
      try result.searchIntervals(steps: steps, caps: caps, outputs: outputs)
    case nil:
      // A level that splits into independent parts: each part alone, when they and their combinations
      // are few enough.
      if Self.splitsIndependentParts, outputs != nil,
        let split = Self.independentParts(steps: steps, caps: caps)
      {
        var parts = result
        if parts.searchParts(split, caps: caps) { return parts }
      }
      // The count search when its states are surely few (it is fast per state) or its grid's pass is
      // affordable; otherwise the interval search, and when that outgrows its bound, the count search after
      // all, up to its own.
      let estimate = Self.countStateEstimate(caps: caps)
      let gridWork = estimate * Double(steps.count)
      let combinations = Self.intervalCombinationEstimate(
        caps: caps, atoms: atoms, everyChildSlot: everyChildSlot)
      // Few combinations of intervals beat a grid pass of millions of relaxations (a core counting its
      // choices up to 21: 937 024 cells, 324 combinations).
      let fewerCombinations =
        combinations <= Double(Self.fewCombinations) && gridWork > Double(Self.smallGridWork)
      let fewCountStates =
        !fewerCombinations
        && (estimate <= Double(Self.limits.countStates)
          || (estimate <= Double(Self.limits.gridCells) && gridWork <= Double(Self.limits.gridWork)))
      // Each search fills in states; a search that gives up leaves partial ones, so each starts afresh.
      let unsearched = result
      var counted = unsearched
      if fewCountStates, try counted.countSearch(steps: steps, caps: caps) { return counted }
      // A level with an unsupported count that more classes than the child choosing nothing raise, or
      // that bounds its children: part by part, for every number of supporting and other choices, when
      // the count search does not serve (its tables cost more than a small grid's pass).
      // When the tables outgrow their bound, the interval search over the parts' choices; when that passes
      // its own, the whole level's interval search would visit the same combinations with programs some
      // tens of times larger, so the level goes to the count search or stays undecided.
      do throws(OutsideFragment) {
        if Self.splitsIndependentParts, outputs != nil,
          let split = Self.supportingParts(steps: steps, caps: caps)
        {
          var parts = unsearched
          if parts.searchSupportingParts(split, caps: caps) { return parts }
          parts = unsearched
          do throws(OutsideFragment) {
            if try parts.searchSupportingPartIntervals(split, caps: caps, outputs: outputs) { return parts }
          } catch  where !error.searchLimitReached {
            // A program past its arithmetic's range: the whole level's programs may stay within it.
          }
        }
        try result.searchIntervals(steps: steps, caps: caps, outputs: outputs)
      } catch {
        counted = unsearched
        guard !fewCountStates, try counted.countSearch(steps: steps, caps: caps) else { throw error }
        return counted
      }
    }
    return result
  }

  /// The formulas of the level below that `atoms` count: all a level reads of its children.
  static func terms(of atoms: [ExactAtom]) -> [ExactFormula] { termIndices(of: atoms).terms }

  /// The distinct terms `atoms` count, in order of first use, and for each atom the index of its term (and
  /// of its second term, for a comparison of two counts).
  private static func termIndices(of atoms: [ExactAtom]) -> (terms: [ExactFormula], indices: [(Int, Int?)]) {
    var terms: [ExactFormula] = []
    var position: [ExactFormula: Int] = [:]
    func index(_ term: ExactFormula) -> Int {
      if let found = position[term] { return found }
      terms.append(term)
      position[term] = terms.count - 1
      return terms.count - 1
    }
    let indices: [(Int, Int?)] = atoms.map { atom in
      switch atom {
      case .count(let term, _): (index(term), nil)
      case .counts(let a, _, let b): (index(a), index(b))
      }
    }
    return (terms, indices)
  }

  /// Where each count sits in a packed state (bit offset and width), or nil when they do not fit 128 bits.
  static func packing(caps: [Int32]) -> [(offset: Int, width: Int)]? {
    var layout: [(offset: Int, width: Int)] = []
    var bit = 0
    for cap in caps {
      let width = cap == 0 ? 0 : Int.bitWidth - Int(cap).leadingZeroBitCount
      // A field never straddles the two words.
      if bit < 64, bit + width > 64 { bit = 64 }
      layout.append((bit, width))
      bit += width
    }
    return bit <= 128 ? layout : nil
  }

  /// `0 op #b` as `#b op' 0`.
  private static func mirrored(_ op: PredicateSyntax.ComparisonOperator) -> PredicateSyntax.ComparisonOperator
  {
    switch op {
    case .lessThan: .greaterThan
    case .lessThanOrEqualTo: .greaterThanOrEqualTo
    case .greaterThan: .lessThan
    case .greaterThanOrEqualTo: .lessThanOrEqualTo
    default: op
    }
  }

  /// The count search: over the dense grid of count vectors when it is small enough, else by Dijkstra's
  /// algorithm over the states reached. False when neither can finish (see ``explore(steps:caps:)``).
  mutating func countSearch(
    steps: [Step], caps: [Int32]
  ) throws(OutsideFragment) -> Bool {
    if exploreGrid(steps: steps, caps: caps) { return true }
    return try explore(steps: steps, caps: caps)
  }

  /// Dijkstra's algorithm from the empty collection. A state is packed into 128 bits, each count in a
  /// field just wide enough for its cap: hashing arrays of counts was most of the time (perf).
  /// Returns false, leaving the states incomplete, when the counts do not pack into 128 bits, more than
  /// `maximumStates` states are reached or more than `maximumExploreWork` successors tried.
  private mutating func explore(
    steps: [Step], caps: [Int32]
  ) throws(OutsideFragment) -> Bool {
    guard let layout = Self.packing(caps: caps) else { return false }
    self.caps = caps
    let increments: [[(word: Int, unit: UInt64, mask: UInt64, cap: UInt64)]] = steps.map { step in
      step.increments.map { slot in
        let (offset, width) = layout[slot]
        let shift = UInt64(offset % 64)
        return (offset / 64, 1 << shift, ((1 << UInt64(width)) - 1) << shift, UInt64(caps[slot]) << shift)
      }
    }
    var found = PackedStates(layout: layout)
    var costs: [ExactCost] = []
    // The states found, kept whether the search finishes or not.
    defer {
      self.costs = costs
      storage = .packed(found)
    }
    var index: [PackedState: Int] = [:]
    var done: [Bool] = []
    var heap = IndexedMinHeap<ExactCost>()
    func reach(_ state: PackedState, cost: ExactCost, parent: Int, child: Int) {
      if let existing = index[state] {
        guard !done[existing], cost < costs[existing] else { return }
        costs[existing] = cost
        found.parents[existing] = (Int32(parent), Int32(child))
        heap.push(cost, existing)
        return
      }
      index[state] = found.states.count
      found.states.append(state)
      costs.append(cost)
      found.parents.append((Int32(parent), Int32(child)))
      done.append(false)
      heap.push(cost, found.states.count - 1)
    }
    reach(PackedState(), cost: ExactCost(), parent: -1, child: -1)
    var work = 0
    while let (cost, state) = heap.pop() {
      guard !done[state], cost == costs[state] else { continue }
      done[state] = true
      work += steps.count
      if work > Self.limits.exploreWork { return false }
      let current = found.states[state]
      for (step, fields) in zip(steps, increments) {
        var next = current
        var changed = false
        for field in fields where next[field.word] & field.mask < field.cap {
          next[field.word] &+= field.unit
          changed = true
        }
        guard changed else { continue }
        reach(next, cost: cost + step.cost, parent: state, child: step.child)
      }
      if found.states.count > Self.limits.countStates { return false }
    }
    return true
  }
}

/// A state's counts packed into two words.
struct PackedState: Hashable, Sendable {
  var words: (UInt64, UInt64) = (0, 0)

  static func == (lhs: PackedState, rhs: PackedState) -> Bool { lhs.words == rhs.words }
  func hash(into hasher: inout Hasher) {
    hasher.combine(words.0)
    hasher.combine(words.1)
  }
}

extension PackedState {
  subscript(word: Int) -> UInt64 {
    get { word == 0 ? words.0 : words.1 }
    set { if word == 0 { words.0 = newValue } else { words.1 = newValue } }
  }
}

/// A binary min-heap of indices (states, sets) by cost, ties broken by the smaller index so that searches
/// are deterministic.
struct IndexedMinHeap<Cost: Comparable> {
  private var entries: [(cost: Cost, index: Int)] = []

  private static func less(_ a: (cost: Cost, index: Int), _ b: (cost: Cost, index: Int)) -> Bool {
    a.cost < b.cost || (a.cost == b.cost && a.index < b.index)
  }

  mutating func push(_ cost: Cost, _ index: Int) {
    entries.append((cost, index))
    var child = entries.count - 1
    while child > 0 {
      let parent = (child - 1) / 2
      guard Self.less(entries[child], entries[parent]) else { break }
      entries.swapAt(child, parent)
      child = parent
    }
  }

  mutating func pop() -> (Cost, Int)? {
    guard let first = entries.first else { return nil }
    let last = entries.removeLast()
    if !entries.isEmpty {
      entries[0] = last
      var parent = 0
      while true {
        let left = 2 * parent + 1
        let right = left + 1
        var smallest = parent
        if left < entries.count, Self.less(entries[left], entries[smallest]) { smallest = left }
        if right < entries.count, Self.less(entries[right], entries[smallest]) { smallest = right }
        if smallest == parent { break }
        entries.swapAt(parent, smallest)
        parent = smallest
      }
    }
    return (first.cost, first.index)
  }
}
