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

  /// Whether the count search (Dijkstra over saturated counts) is the better way to search a level: its
  /// states must fit 128 bits and `maximumStates`, and be few beside the interval combinations.
  static func prefersCountSearch(caps: [Int32], atoms: [SlotTest], everyChildSlot: Int?) -> Bool {
    guard packing(caps: caps) != nil else { return false }
    var countStates = 1.0
    var combinations = 1.0
    for (slot, cap) in caps.enumerated() where cap > 0 {
      countStates *= Double(cap) + 1
      combinations *= Double(
        intervals(cap: cap, tests: tests(ofSlot: slot, atoms: atoms, everyChildSlot: everyChildSlot)).count)
    }
    return countStates <= Double(maximumStates) && countStates <= 4 * combinations
  }

  /// Searches the level combination by combination of count intervals; see the extension's documentation.
  mutating func searchIntervals(
    steps: [(increments: [Int], child: Int, cost: ExactCost)], caps: [Int32]
  ) throws(OutsideFragment) {
    self.caps = caps
    let slots = caps.indices.filter { caps[$0] > 0 }
    let slotIntervals = slots.map { slot in
      Self.intervals(
        cap: caps[slot], tests: Self.tests(ofSlot: slot, atoms: atoms, everyChildSlot: everyChildSlot))
    }
    var chosen: [CountInterval] = []
    /// Depth first over the counts, pruning a partial combination as soon as its linear relaxation has no
    /// solution; each complete combination is solved as an integer program.
    func visit() throws(OutsideFragment) {
      let program = try Self.program(
        slots: Array(slots.prefix(chosen.count)), intervals: chosen, steps: steps)
      if chosen.count < slots.count {
        guard let program, try Self.feasible(program.program) else { return }
        for interval in slotIntervals[chosen.count] {
          chosen.append(interval)
          try visit()
          chosen.removeLast()
        }
        return
      }
      guard let program else { return }
      let solution: (cost: Int, values: [Int])?
      do {
        solution = try program.program.minimum()
      } catch {
        throw OutsideFragment(reason: Self.reason(error))
      }
      guard let solution else { return }
      record(solution.values, variables: program.variables, steps: steps, slots: slots)
    }
    try visit()
  }

  /// Adds the state a solution reaches: its saturated counts, cost and children.
  private mutating func record(
    _ values: [Int], variables: [Int], steps: [(increments: [Int], child: Int, cost: ExactCost)], slots: [Int]
  ) {
    var counts = Array(repeating: 0, count: caps.count)
    var cost = ExactCost()
    var children: [Int32] = []
    for (variable, value) in zip(variables, values) where value > 0 {
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
    explicitCounts.append(counts)
    costs.append(cost)
    witnesses.append(children)
  }

  private static func reason(_ failure: IntegerProgram.Failure) -> String {
    switch failure {
    case .overflow: "an integer program of the interval search outgrew 128-bit arithmetic"
    case .tooManyNodes:
      "an integer program of the interval search took more than \(IntegerProgram.nodeLimit) branches"
    }
  }

  private static func feasible(_ program: IntegerProgram) throws(OutsideFragment) -> Bool {
    do {
      return try program.relaxationIsFeasible()
    } catch {
      throw OutsideFragment(reason: reason(error))
    }
  }

  /// The integer program of `slots` lying in `intervals`, over the steps no zero interval rules out
  /// (`variables` maps the program's variables to steps); nil when a count that must be positive has no
  /// step left to raise it.
  ///
  /// Its cost is the lexicographic cost (items, attachments, types) folded into one integer with weight
  /// `w = s·m + 1`, where `s` is the sum of the intervals' lower ends and `m` the largest cost component of a
  /// step: a cheapest solution is minimal (removing a child only lowers counts, so it leaves every upper
  /// bound met), and a minimal solution has at most `s` children — each child raises a count sitting at its
  /// lower end, or it could be removed — so its components stay below `w` and the folded order is the
  /// lexicographic one. The same argument gives the row `Σ n ≤ s`, which bounds every variable.
  private static func program(
    slots: [Int], intervals: [CountInterval], steps: [(increments: [Int], child: Int, cost: ExactCost)]
  ) throws(OutsideFragment) -> (program: IntegerProgram, variables: [Int])? {
    var forbidden = Set<Int>()
    for (slot, interval) in zip(slots, intervals) where interval.high == 0 { forbidden.insert(slot) }
    let variables = steps.indices.filter { steps[$0].increments.allSatisfy { !forbidden.contains($0) } }
    let lowerSum = intervals.reduce(0) { $0 + $1.low }
    let largest =
      variables.map { step in
        let cost = steps[step].cost
        return Swift.max(cost.items, cost.attachments, cost.types)
      }.max() ?? 0
    let (product, overflow) = lowerSum.multipliedReportingOverflow(by: largest)
    guard !overflow, product < 1 << 20 else {
      throw OutsideFragment(reason: "the interval search's costs outgrow its integer programs")
    }
    let weight = product + 1
    var program = IntegerProgram(
      variableCount: variables.count,
      costs: variables.map { step in
        let cost = steps[step].cost
        return (cost.items * weight + cost.attachments) * weight + cost.types
      })
    for (slot, interval) in zip(slots, intervals) {
      let raising = variables.indices.filter { steps[variables[$0]].increments.contains(slot) }
      if interval.low > 0 {
        if raising.isEmpty { return nil }
        program.rows.append(.init(variables: raising, relation: .atLeast, bound: interval.low))
      }
      if let high = interval.high, high > 0, !raising.isEmpty {
        program.rows.append(.init(variables: raising, relation: .atMost, bound: high))
      }
    }
    program.rows.append(.init(variables: Array(variables.indices), relation: .atMost, bound: lowerSum))
    return (program, variables)
  }
}
