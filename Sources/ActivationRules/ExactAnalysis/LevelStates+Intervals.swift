import PredicateSyntax

/// The interval search: a level whose counts are compared with large constants, searched by which interval
/// between those constants each count falls in rather than by the counts themselves.
///
/// A rule asks of a count only where it lies among the constants it is compared with (`≤ 99`: 0…99 or 100
/// and more), so a level's answers are the combinations of intervals that some collection of children lands
/// in. Whether one does, and the cheapest that does, is a small integer program — one variable per class of
/// children, one or two rows per count — solved exactly by ``IntegerProgram``. Intervals alone cannot be
/// stepped from one child to the next (one child raises several counts, and whether their sum passes a
/// constant depends on more than the intervals: the DocC article *Deciding rules exactly* has the
/// counterexamples), which is why each combination is decided as a whole.
extension LevelStates {
  /// A maximal run of counts that every test of one count answers alike; `high` nil: unbounded.
  struct CountInterval: Sendable, Hashable {
    var low: Int
    var high: Int?
  }

  /// The intervals of a count saturated at `cap` and read by `tests`, in increasing order.
  static func intervals(cap: Int32, tests: [CountTest]) -> [CountInterval] {
    let cap = Int(cap)
    guard cap > 0 else { return [CountInterval(low: 0, high: nil)] }
    // A test changes its answer only between ⌊c⌋ and ⌊c⌋ + 1 for one of its constants c, and no test
    // changes at or after the cap (the saturation point).
    var cuts: Set<Int> = [0, cap]
    for test in tests {
      for constant in test.constants where constant.isFinite && constant >= 0 {
        let floor = constant.rounded(.down)
        for cut in [floor, floor + 1] where cut < Double(cap) { cuts.insert(Int(cut)) }
      }
    }
    let starts = cuts.sorted()
    var result: [CountInterval] = []
    var previousAnswers: [Bool]?
    for (index, start) in starts.enumerated() {
      let answers = tests.map { $0.holds(start) }
      let high = index + 1 < starts.count ? starts[index + 1] - 1 : nil
      if answers == previousAnswers, let last = result.indices.last {
        result[last].high = high
      } else {
        result.append(CountInterval(low: start, high: high))
      }
      previousAnswers = answers
    }
    return result
  }

  /// The tests that read a count: the level's atoms on it, and "at least one" on the slot counting every
  /// child (a context holds at least one item), which no atom may read but the search must keep apart.
  static func tests(ofSlot slot: Int, atoms: [SlotTest], everyChildSlot: Int?) -> [CountTest] {
    let tests = atoms.filter { $0.slot == slot }.map(\.test)
    return slot == everyChildSlot ? tests + [CountTest(kind: .compare(.greaterThan, 0))] : tests
  }

  /// The most combinations of intervals, partial or complete, one level's interval search may visit (each
  /// solves a linear or integer program, unless its parent's optimum carries over): about a second of
  /// search in a release build.
  static let maximumCombinations = 4_000

  /// How many combinations of intervals the interval search could visit at most: the product of the
  /// counts' numbers of intervals.
  static func intervalCombinationEstimate(caps: [Int32], atoms: [SlotTest], everyChildSlot: Int?) -> Double {
    caps.indices.reduce(1.0) { product, slot in
      guard caps[slot] > 0 else { return product }
      let tests = Self.tests(ofSlot: slot, atoms: atoms, everyChildSlot: everyChildSlot)
      return product * Double(Self.intervals(cap: caps[slot], tests: tests).count)
    }
  }

  /// How many states the count search could reach at most: the product of the counts' ranges.
  static func countStateEstimate(caps: [Int32]) -> Double {
    caps.reduce(1.0) { $0 * (Double($1) + 1) }
  }

  /// What the interval search solves at one level: its variables and their folded costs, and the rows each
  /// chosen interval adds. The children's classes are the variables of ``searchIntervals(steps:caps:outputs:)``;
  /// a level split into supporting parts has each part's choices and the number of children instead
  /// (``searchSupportingPartIntervals(_:caps:outputs:)``).
  struct IntervalProgramShape {
    /// The slots whose intervals are chosen, in the order the search chooses them, with their intervals.
    var slots: [Int]
    var slotIntervals: [[CountInterval]]
    /// Each variable's cost, folded so that the programs' order is the lexicographic one.
    var costs: [Int]
    /// Rows every combination holds.
    var rootRows: [IntegerProgram.Row] = []
    /// The rows saying that the slot at `position` (of `slots`) lies in `interval`.
    var rows: (_ position: Int, _ interval: CountInterval) -> [IntegerProgram.Row]
    /// The rows a complete combination adds (by position), which every minimal solution meets and which
    /// make branch and bound finite.
    var boundRows: (_ chosen: [CountInterval]) -> [IntegerProgram.Row]
    /// The integer program of a complete combination, over some of the variables (`variables` maps the
    /// program's to the shape's); nil when no collection meets it.
    var program: (_ chosen: [CountInterval]) -> (program: IntegerProgram, variables: [Int])?
  }

  /// A cheapest solution of one combination: the shape's variables' values, and the combination (each
  /// slot's interval).
  struct IntervalSolution {
    var values: [Int]
    var variables: [Int]
    var intervals: [CountInterval?]
  }

  /// Searches the level combination by combination of count intervals; see the extension's documentation.
  ///
  /// The level above reads a child only through `outputs` (formulas over this level's atoms; nil: every
  /// atom), and of children alike on those it keeps the cheapest, so this search keeps one state per
  /// reachable vector of outputs: the cheapest. That is what makes it a branch and bound: the combinations
  /// are visited depth first, count by count, and a partial combination is dropped when its linear
  /// relaxation has no solution or costs at least as much as the best state already found for every
  /// vector of outputs its completions could still give.
  mutating func searchIntervals(
    steps: [Step], caps: [Int32], outputs: [ExactFormula]?
  ) throws(OutsideFragment) {
    // Counts with more intervals are chosen first, so the last choices, whose combinations each end in
    // an integer program, are the ones with fewest intervals, and a combination that no collection meets is
    // mostly dropped at a partial node's relaxation first. 14.plist of the hold-out rules (a core of 8
    // counts, one of 6 intervals): 1 292 integer programs in slot order, 333 in this one.
    let (slots, slotIntervals) = Self.slotsByIntervals(
      caps.indices.filter { caps[$0] > 0 }.map { slot in
        (
          slot,
          Self.intervals(
            cap: caps[slot], tests: Self.tests(ofSlot: slot, atoms: atoms, everyChildSlot: everyChildSlot))
        )
      })
    let weight = try Self.weight(slotIntervals: slotIntervals, steps: steps)
    let raisedBy = slots.map { slot in steps.indices.filter { steps[$0].increments.contains(slot) } }
    let shape = IntervalProgramShape(
      slots: slots, slotIntervals: slotIntervals,
      costs: steps.map { Self.folded($0.cost, weight: weight) },
      rows: { position, interval in Self.rows(of: interval, raisedBy: raisedBy[position]) },
      boundRows: { chosen in
        let lowerSum = chosen.reduce(0) { $0 + $1.low }
        return [IntegerProgram.Row(variables: Array(steps.indices), relation: .atMost, bound: lowerSum)]
      },
      program: { chosen in
        Self.program(intervals: chosen, raisedBy: raisedBy, steps: steps, weight: weight, bounded: true)
      })
    let solutions = try searchIntervalCombinations(shape, caps: caps, outputs: outputs, limit: nil)
    self.caps = caps
    costs = []
    var explicit = ExplicitStates()
    for solution in solutions {
      var counts = Array(repeating: 0, count: caps.count)
      var cost = ExactCost()
      var children: [Int32] = []
      for (variable, value) in zip(solution.variables, solution.values) where value > 0 {
        let step = steps[variable]
        for slot in step.increments { counts[slot] += value }
        cost =
          cost
          + ExactCost(
            items: step.cost.items * value, attachments: step.cost.attachments * value,
            types: step.cost.types * value)
        children += Array(repeating: Int32(step.child), count: value)
      }
      for slot in counts.indices { counts[slot] = Swift.min(counts[slot], Int(caps[slot])) }
      explicit.counts.append(counts)
      costs.append(cost)
      explicit.witnesses.append(children)
    }
    storage = .explicit(explicit)
  }

  /// The branch and bound of the interval search over `shape`: the cheapest solution of each reachable
  /// vector of outputs, in the order the vectors were first reached. `limit`: the most combinations to
  /// visit (nil: ``Limits/combinations``); none when the interval search is forced.
  func searchIntervalCombinations(
    _ shape: IntervalProgramShape, caps: [Int32], outputs: [ExactFormula]?, limit: Int?,
    limitName: String = "LevelStates.maximumCombinations"
  ) throws(OutsideFragment) -> [IntervalSolution] {
    let slots = shape.slots
    let slotIntervals = shape.slotIntervals
    // The closures below read the atoms alone: captured as `self`, the whole level was copied at each call.
    let atoms = self.atoms
    // Each interval's rows, made once: a combination's rows are added at every visit.
    let intervalRows = slotIntervals.indices.map { position in
      slotIntervals[position].map { shape.rows(position, $0) }
    }
    // Counts no class raises stay 0; the others are chosen along the search.
    var chosen: [CountInterval?] = caps.map { $0 > 0 ? nil : CountInterval(low: 0, high: 0) }
    var depth = 0
    /// The intervals chosen so far, as indices (the key of a state when there are no outputs).
    var chosenIndices: [Int] = []
    /// The cheapest solution found for each vector of outputs (a bit per output, 64 to a word), by index
    /// into `solutions`.
    var best: [[UInt64]: (cost: Int, solution: Int)] = [:]
    let keyWords = ((outputs?.count ?? 0) + 63) / 64
    /// A vector of outputs as a key of `best`; reused, so that a look-up allocates nothing.
    var key = [UInt64](repeating: 0, count: keyWords)
    var solutions: [IntervalSolution] = []

    func atomValue(_ atom: Int) -> Bool? {
      chosen[atoms[atom].slot].map { atoms[atom].test.holds($0.low) }
    }
    /// Whether some vector of outputs the completions of the current partial combination may give has no
    /// state yet, or one costing more than `bound`.
    func mayImprove(on bound: ExactFraction) -> Bool {
      // Without outputs every combination is its own state (the context level: the rules' answers and
      // whether the context has an item are read from all of it), so none can be pruned by cost.
      guard let outputs else { return true }
      // The known outputs' bits, and the unknown ones, whose every setting is a vector to look up.
      var unknown: [Int] = []
      for word in key.indices { key[word] = 0 }
      for (index, output) in outputs.enumerated() {
        switch output.evaluate(partially: atomValue) {
        case true?: key[index >> 6] |= 1 << UInt64(index & 63)
        case false?: break
        case nil: unknown.append(index)
        }
      }
      // 2^unknowns vectors: when there are more than states found, some vector has none yet.
      guard unknown.count < 20, 1 << unknown.count <= best.count else { return true }
      for setting in 0..<(1 << unknown.count) {
        for (bit, index) in unknown.enumerated() {
          let mask: UInt64 = 1 << UInt64(index & 63)
          if setting >> bit & 1 == 1 { key[index >> 6] |= mask } else { key[index >> 6] &= ~mask }
        }
        guard let found = best[key] else { return true }
        if bound < ExactFraction(integer: found.cost) { return true }
      }
      return false
    }

    var visited = 0
    // A test forcing this search checks it on levels the count search also decides: no bound then.
    let limit = Self.forcedStrategy == .intervals ? Int.max : limit ?? Self.limits.combinations
    func countVisit() throws(OutsideFragment) {
      visited += 1
      guard visited <= limit else {
        throw OutsideFragment(
          reason: "more than \(limit) combinations of count intervals (\(limitName))",
          searchLimitReached: true)
      }
    }
    /// `parent`: the relaxation one count up, solved. This node's is the same with the rows of the count
    /// just chosen, solved on from the parent's optimum (``LinearRelaxation/add(_:)``): the dual simplex
    /// method then needs a pivot or two where solving the node's program anew took several.
    func visit(parent: LinearRelaxation) throws(OutsideFragment) {
      try countVisit()
      var relaxation = parent
      let solved: LinearRelaxation.Solution?
      do {
        if depth > 0 {
          for row in intervalRows[depth - 1][chosenIndices[depth - 1]] { try relaxation.add(row) }
        }
        // A complete combination also bounds its variables, which makes it the relaxation of exactly the
        // integer program below.
        if depth == slots.count {
          for row in shape.boundRows(slots.compactMap { chosen[$0] }) { try relaxation.add(row) }
        }
        solved = try relaxation.solve()
      } catch {
        throw OutsideFragment(reason: Self.reason(error))
      }
      guard let solved else { return }
      guard depth == slots.count else {
        guard mayImprove(on: solved.objective) else { return }
        for (index, interval) in slotIntervals[depth].enumerated() {
          chosen[slots[depth]] = interval
          chosenIndices.append(index)
          depth += 1
          try visit(parent: relaxation)
          depth -= 1
          chosenIndices.removeLast()
        }
        chosen[slots[depth]] = nil
        return
      }
      let vector: [UInt64]
      if let outputs {
        var words = [UInt64](repeating: 0, count: keyWords)
        for (index, output) in outputs.enumerated() where output.evaluate({ atomValue($0) ?? false }) {
          words[index >> 6] |= 1 << UInt64(index & 63)
        }
        vector = words
      } else {
        vector = chosenIndices.map { UInt64($0) }
      }
      // The relaxation bounds the program's optimum from below.
      let cutoff = best[vector]?.cost
      if let cutoff, !(solved.objective < ExactFraction(integer: cutoff)) { return }
      let solution: (cost: Int, values: [Int], variables: [Int])?
      if let integral = Self.integral((solved.objective, solved.values)) {
        // An integral optimum of the relaxation is the program's optimum: no branch and bound.
        solution = (integral.cost, integral.values, Array(shape.costs.indices))
      } else {
        guard let program = shape.program(slots.compactMap { chosen[$0] }) else { return }
        do {
          solution = try program.program.minimum(below: cutoff).map {
            ($0.cost, $0.values, program.variables)
          }
        } catch {
          throw OutsideFragment(reason: Self.reason(error))
        }
      }
      guard let solution else { return }
      let found = IntervalSolution(values: solution.values, variables: solution.variables, intervals: chosen)
      if let previous = best[vector] {
        solutions[previous.solution] = found
        best[vector] = (solution.cost, previous.solution)
      } else {
        best[vector] = (solution.cost, solutions.count)
        solutions.append(found)
      }
    }
    var root = LinearRelaxation(costs: shape.costs)
    do {
      for row in shape.rootRows { try root.add(row) }
    } catch {
      throw OutsideFragment(reason: Self.reason(error))
    }
    try visit(parent: root)
    return solutions
  }

  /// A step's cost as one integer of the programs, `(items·w + attachments)·w + types` (see
  /// ``weight(slotIntervals:steps:)``).
  static func folded(_ cost: ExactCost, weight: Int) -> Int {
    (cost.items * weight + cost.attachments) * weight + cost.types
  }

  /// The weight folding a lexicographic cost (items, attachments, types) into one integer,
  /// `(items·w + attachments)·w + types`, with `w = s·m + 1`: `s` bounds the sum of the intervals' lower
  /// ends of any combination, `m` is the largest cost component of a step. A cheapest solution is minimal
  /// (removing a child only lowers counts, so it leaves every upper bound met), and a minimal solution has
  /// at most `s` children — each child raises a count sitting at its lower end, or it could be removed — so
  /// its components stay below `w` and the folded order is the lexicographic one. One weight for the whole
  /// level keeps the costs of different combinations comparable.
  private static func weight(
    slotIntervals: [[CountInterval]], steps: [Step]
  ) throws(OutsideFragment) -> Int {
    let lowerSum = slotIntervals.reduce(0) { $0 + ($1.map(\.low).max() ?? 0) }
    let largest = steps.map { Swift.max($0.cost.items, $0.cost.attachments, $0.cost.types) }.max() ?? 0
    let (product, overflow) = lowerSum.multipliedReportingOverflow(by: largest)
    guard !overflow, product < 1 << 20 else {
      throw OutsideFragment(reason: "the interval search's costs outgrow its integer programs")
    }
    return product + 1
  }

  static func reason(_ failure: IntegerProgram.Failure) -> String {
    switch failure {
    case .overflow: "an integer program of the interval search outgrew 128-bit arithmetic"
    case .tooManyNodes:
      "an integer program of the interval search took more than \(IntegerProgram.nodeLimit) branches"
    case .tooManyPivots:
      "a linear relaxation of the interval search took more than \(IntegerProgram.pivotLimit) pivots"
    }
  }

  /// A relaxation's optimum as integers, when its cost and every value are whole numbers.
  private static func integral(_ relaxation: (bound: ExactFraction, values: [ExactFraction])) -> (
    cost: Int, values: [Int]
  )? {
    guard let cost = relaxation.bound.integerValue else { return nil }
    var values: [Int] = []
    for value in relaxation.values {
      guard let whole = value.integerValue else { return nil }
      values.append(whole)
    }
    return (cost, values)
  }

  /// The rows saying that the count raised by the steps `raisedBy` lies in `interval`: at least its lower
  /// end, at most its upper end (at most 0: none of those steps).
  static func rows(of interval: CountInterval, raisedBy: [Int]) -> [IntegerProgram.Row] {
    var rows: [IntegerProgram.Row] = []
    if interval.low > 0 { rows.append(.init(variables: raisedBy, relation: .atLeast, bound: interval.low)) }
    if let high = interval.high, !raisedBy.isEmpty {
      rows.append(.init(variables: raisedBy, relation: .atMost, bound: high))
    }
    return rows
  }

  /// The active slots in the order the search chooses their intervals: more intervals first, then by slot.
  static func slotsByIntervals(_ slots: [(slot: Int, intervals: [CountInterval])]) -> (
    slots: [Int], intervals: [[CountInterval]]
  ) {
    let ordered = slots.enumerated().sorted { a, b in
      a.element.intervals.count != b.element.intervals.count
        ? a.element.intervals.count > b.element.intervals.count : a.offset < b.offset
    }.map(\.element)
    return (ordered.map(\.slot), ordered.map(\.intervals))
  }

  /// The integer program of the first `intervals.count` slots of the search lying in `intervals`, over the
  /// steps no zero interval rules out (`variables` maps the program's variables to steps), costs folded
  /// with `weight`; nil when a count that must be positive has no step left to raise it. `raisedBy[i]`: the
  /// steps raising the search's `i`-th slot, in increasing order. `bounded` adds the row `Σ n ≤ s` (`s`: the
  /// sum of the lower ends), which every minimal solution meets (see ``weight(slotIntervals:steps:)``) and
  /// which makes branch and bound finite; it is left out of partial combinations, whose relaxations bound
  /// their completions' costs from below only without it.
  private static func program(
    intervals: [CountInterval], raisedBy: [[Int]], steps: [Step], weight: Int, bounded: Bool
  ) -> (program: IntegerProgram, variables: [Int])? {
    var excluded = [Bool](repeating: false, count: steps.count)
    for (position, interval) in intervals.enumerated() where interval.high == 0 {
      for step in raisedBy[position] { excluded[step] = true }
    }
    // Each step's variable, or -1 when a count it raises must stay 0.
    var variableOf = [Int](repeating: -1, count: steps.count)
    // Capacities reserved up front: growing these arrays append by append was half of building a program.
    var variables: [Int] = []
    variables.reserveCapacity(steps.count)
    for step in steps.indices where !excluded[step] {
      variableOf[step] = variables.count
      variables.append(step)
    }
    var program = IntegerProgram(
      variableCount: variables.count,
      costs: variables.map { folded(steps[$0].cost, weight: weight) })
    program.rows.reserveCapacity(2 * intervals.count + 1)
    for (position, interval) in intervals.enumerated() {
      var raising: [Int] = []
      raising.reserveCapacity(raisedBy[position].count)
      for step in raisedBy[position] where variableOf[step] >= 0 { raising.append(variableOf[step]) }
      if interval.low > 0 {
        if raising.isEmpty { return nil }
        program.rows.append(.init(variables: raising, relation: .atLeast, bound: interval.low))
      }
      if let high = interval.high, high > 0, !raising.isEmpty {
        program.rows.append(.init(variables: raising, relation: .atMost, bound: high))
      }
    }
    if bounded {
      let lowerSum = intervals.reduce(0) { $0 + $1.low }
      program.rows.append(.init(variables: Array(variables.indices), relation: .atMost, bound: lowerSum))
    }
    return (program, variables)
  }
}
