/// The search of a level whose counts split into independent parts, each searched alone.
///
/// Twin injection makes such levels: `public.image` and its Intune twin
/// `com.microsoft.intune.mam.public.image` are unrelated types, so an item level counting both has one
/// class of attachments for every pair of an original choice and a twin choice, and its grid of counts is
/// the product of the two halves' grids (15.plist: 746 496 cells; 14.plist: 1.3 × 10⁹). Here the level's
/// slots are split into parts such that every class of children is one choice per part (raising some of
/// that part's slots, or none), every combination of choices is a class, and a class costs the sum of its
/// choices; the slots every class raises (`$e.attachments.@count`) are shared, and count the children.
///
/// Then a collection is a list of choices per part, padded with "none" to a common length N, and N
/// children cost N cheapest children plus the choices' own costs. Each part is searched alone (its own few
/// slots), its states grouped by what the level's atoms read of them; a state of the level is one class of
/// each part and an interval of N: N is at least every part's number of choices, and the cheapest
/// collection takes the least such N in the interval. Which combinations exist is exact with no further
/// condition. The costs are exact when, within each part, every subset of a choice is a choice and a
/// choice costs the sum of its slots' costs (`independentParts` checks both): a part's count vector then
/// costs the same whatever N, so a part's class needs only the cheapest way to reach each of its count
/// vectors, kept as the Pareto front of (choices, cost) over the class. The DocC article *Deciding rules
/// exactly* has the argument.
extension LevelStates {
  /// A level's slots split into independent parts (see the extension's documentation).
  struct IndependentParts: Sendable {
    /// The slots every class of children raises: each counts the children.
    var shared: [Int]
    /// Each part's slots, in increasing order.
    var slots: [[Int]]
    /// Each part's choices other than raising none of its slots: the level's slots it raises, and its
    /// types beyond the cheapest child's.
    var choices: [[(increments: [Int], types: Int)]]
    /// The cheapest child's cost: a child that raises only the shared slots.
    var unit: ExactCost
    /// The child standing for the class raising exactly these slots (sorted).
    var childOf: [[Int]: Int]
  }

  /// The most states a split search combines (each one class per part and an interval of the child count).
  static let maximumCombinedStates = 400_000

  /// Whether a level that splits into independent parts is searched part by part (tests turn it off to
  /// check the split search against the whole one).
  @TaskLocal static var splitsIndependentParts = true

  /// The finest split of the level's slots into independent parts, or nil when it has fewer than two
  /// parts or the costs are not exact part by part (see the extension's documentation).
  static func independentParts(steps: [Step], caps: [Int32]) -> IndependentParts? {
    guard steps.count >= 4 else { return nil }
    let active = caps.indices.filter { caps[$0] > 0 }
    let shared = active.filter { slot in steps.allSatisfy { $0.increments.contains(slot) } }
    let sharedSet = Set(shared)
    let free = active.filter { !sharedSet.contains($0) }
    let families = steps.map { Set($0.increments).subtracting(sharedSet) }
    // Two slots must share a part when the classes do not combine their memberships freely; the parts are
    // the connected components of that relation (checked as a whole below: pairs can miss a dependence of
    // three slots).
    var root = Dictionary(uniqueKeysWithValues: free.map { ($0, $0) })
    func find(_ slot: Int) -> Int {
      var current = slot
      while let parent = root[current], parent != current { current = parent }
      return current
    }
    for (index, first) in free.enumerated() {
      for second in free[(index + 1)...] {
        var seen = Set<Int>()
        for family in families {
          seen.insert((family.contains(first) ? 2 : 0) + (family.contains(second) ? 1 : 0))
        }
        let firstValues = Set(seen.map { $0 >> 1 }).count
        let secondValues = Set(seen.map { $0 & 1 }).count
        if seen.count != firstValues * secondValues { root[find(first)] = find(second) }
      }
    }
    var partOf: [Int: [Int]] = [:]
    for slot in free { partOf[find(slot), default: []].append(slot) }
    let slots = partOf.values.map { $0.sorted() }.sorted { $0[0] < $1[0] }
    guard slots.count >= 2 else { return nil }

    // Every combination of the parts' projections must be a class, and "none" a projection of each part.
    let projections = slots.map { part in Set(families.map { $0.intersection(part) }) }
    var combinations = 1
    for projection in projections {
      guard projection.contains([]) else { return nil }
      combinations *= projection.count
      guard combinations <= steps.count else { return nil }
    }
    guard combinations == steps.count else { return nil }
    guard let base = steps.first(where: { $0.increments.count == shared.count }) else { return nil }
    let unit = base.cost
    guard unit.items + unit.attachments > 0 else { return nil }

    // Each choice's cost beyond the cheapest child, read where the other parts choose none.
    var extra: [Set<Int>: Int] = [:]
    for (step, family) in zip(steps, families) {
      guard step.cost.items == unit.items, step.cost.attachments == unit.attachments else { return nil }
      if slots.filter({ !family.isDisjoint(with: $0) }).count <= 1 {
        extra[family] = step.cost.types - unit.types
      }
    }
    // The cost is the sum over parts, and within a part the sum over slots, of non-negative costs, and
    // every subset of a choice is a choice.
    for (step, family) in zip(steps, families) {
      var types = unit.types
      for part in slots {
        let choice = family.intersection(part)
        guard let cost = extra[choice] else { return nil }
        types += cost
      }
      guard types == step.cost.types else { return nil }
    }
    for (choice, cost) in extra where !choice.isEmpty {
      guard cost >= 0 else { return nil }
      var sum = 0
      for slot in choice {
        guard extra[choice.subtracting([slot])] != nil, let own = extra[[slot]] else { return nil }
        sum += own
      }
      guard sum == cost else { return nil }
    }
    var childOf: [[Int]: Int] = [:]
    for step in steps { childOf[step.increments.sorted()] = step.child }
    return IndependentParts(
      shared: shared, slots: slots,
      choices: projections.map { projection in
        projection.filter { !$0.isEmpty }.map { choice in
          (choice.sorted(), extra[choice] ?? 0)
        }.sorted { $0.increments.lexicographicallyPrecedes($1.increments) }
      },
      unit: unit, childOf: childOf)
  }

  /// States made of one state of each part and a number of children (see ``searchParts(_:caps:)``).
  struct CombinedStates: Sendable {
    var split: IndependentParts
    /// Each part's own search, its slots numbered in the part.
    var parts: [LevelStates]
    /// Where a slot of the level is counted: a part and the slot there; nil for shared and unused slots.
    var place: [(part: Int, slot: Int)?]
    var isShared: [Bool]
    /// Each state's part states, `parts.count` per state.
    var partStates: [Int32] = []
    /// Each state's number of children.
    var childCounts: [Int32] = []
    /// Each part's counts, read once: a part state's counts in a row.
    var partCounts: [[Int32]]

    init(split: IndependentParts, parts: [LevelStates], place: [(part: Int, slot: Int)?], isShared: [Bool]) {
      self.split = split
      self.parts = parts
      self.place = place
      self.isShared = isShared
      partCounts = zip(parts, split.slots).map { level, slots in
        (0..<level.stateCount).flatMap { state in slots.indices.map { Int32(level.count(state, slot: $0)) } }
      }
    }

    func count(_ state: Int, slot: Int, cap: Int32) -> Int {
      if let (part, partSlot) = place[slot] {
        let partState = Int(partStates[state * parts.count + part])
        return Int(partCounts[part][partState * split.slots[part].count + partSlot])
      }
      return isShared[slot] ? Int(Swift.min(childCounts[state], cap)) : 0
    }

    /// The children of `state`'s cheapest collection: each part's choices, in order, padded with none.
    func children(of state: Int) -> [Int] {
      let chosen = parts.indices.map { part in
        parts[part].children(of: Int(partStates[state * parts.count + part]))
      }
      return (0..<Int(childCounts[state])).map { position in
        var increments = split.shared
        for (part, choices) in chosen.enumerated() where position < choices.count {
          increments += split.choices[part][choices[position]].increments
        }
        // Every combination of choices is a class (checked by `independentParts`).
        guard let child = split.childOf[increments.sorted()] else {
          preconditionFailure("a combination of independent choices that no class has")
        }
        return child
      }
    }
  }

  /// Searches the level part by part and combines the parts' classes; false when a part's count search or
  /// the number of combinations passes its bound (the level is then searched whole).
  mutating func searchParts(_ split: IndependentParts, caps: [Int32]) throws(OutsideFragment) -> Bool {
    var place: [(part: Int, slot: Int)?] = Array(repeating: nil, count: caps.count)
    for (part, slots) in split.slots.enumerated() {
      for (index, slot) in slots.enumerated() { place[slot] = (part, index) }
    }
    // Each part alone: its atoms, its choices as steps (one child each), its count search.
    var parts: [LevelStates] = []
    var partAtoms: [[Int]] = []
    for (part, slots) in split.slots.enumerated() {
      var level = LevelStates()
      var atomIndices: [Int] = []
      for (index, atom) in atoms.enumerated() {
        guard let (atomPart, slot) = place[atom.slot], atomPart == part else { continue }
        level.atoms.append(SlotTest(slot: slot, test: atom.test))
        atomIndices.append(index)
      }
      guard atomIndices.count <= 64 else { return false }
      let steps: [Step] = split.choices[part].enumerated().map { index, choice in
        (
          choice.increments.compactMap { place[$0]?.slot }, index,
          ExactCost(attachments: 1, types: choice.types)
        )
      }
      guard try level.countSearch(steps: steps, caps: slots.map { caps[$0] }) else { return false }
      parts.append(level)
      partAtoms.append(atomIndices)
    }
    // Each part's classes (what the level's atoms read of a state), each the Pareto front of its states by
    // number of choices and cost: fewer choices can leave N smaller, cheaper ones the total cheaper.
    var fronts: [[[(choices: Int, types: Int, state: Int)]]] = []
    for level in parts {
      var classOf: [UInt64: Int] = [:]
      var classes: [[(choices: Int, types: Int, state: Int)]] = []
      for state in 0..<level.stateCount {
        var key: UInt64 = 0
        for atom in level.atoms.indices where level.holds(atom: atom, in: state) { key |= 1 << UInt64(atom) }
        let point = (choices: level.costs[state].attachments, types: level.costs[state].types, state: state)
        guard let index = classOf[key] else {
          classOf[key] = classes.count
          classes.append([point])
          continue
        }
        guard
          !classes[index].contains(where: { $0.choices <= point.choices && $0.types <= point.types })
        else { continue }
        classes[index].removeAll { $0.choices >= point.choices && $0.types >= point.types }
        classes[index].append(point)
      }
      fronts.append(classes)
    }
    // The intervals of N that the shared slots' tests tell apart.
    var starts: Set<Int> = [0]
    for slot in split.shared {
      let tests = Self.tests(ofSlot: slot, atoms: atoms, everyChildSlot: everyChildSlot)
      for interval in Self.intervals(cap: caps[slot], tests: tests) { starts.insert(interval.low) }
    }
    let lows = starts.sorted()
    let childIntervals = lows.indices.map { index in
      CountInterval(low: lows[index], high: index + 1 < lows.count ? lows[index + 1] - 1 : nil)
    }
    var combinationCount = childIntervals.count
    for classes in fronts {
      combinationCount *= classes.count
      guard combinationCount <= Self.maximumCombinedStates else { return false }
    }

    var combined = CombinedStates(
      split: split, parts: parts, place: place, isShared: caps.indices.map { split.shared.contains($0) })
    var costs: [ExactCost] = []
    var digits = [Int](repeating: 0, count: parts.count)
    var chosen = [Int](repeating: 0, count: parts.count)
    repeat {
      // The cheapest way to give each part its class with N in each interval: one point of each front.
      var best: [(cost: ExactCost, children: Int, states: [Int])?] = Array(
        repeating: nil, count: childIntervals.count)
      var point = [Int](repeating: 0, count: parts.count)
      repeat {
        var least = 0
        var types = 0
        for part in parts.indices {
          let found = fronts[part][digits[part]][point[part]]
          least = Swift.max(least, found.choices)
          types += found.types
          chosen[part] = found.state
        }
        for (index, interval) in childIntervals.enumerated() {
          let children = Swift.max(least, interval.low)
          if let high = interval.high, children > high { continue }
          let cost = ExactCost(
            items: split.unit.items * children, attachments: split.unit.attachments * children,
            types: split.unit.types * children + types)
          if let existing = best[index], existing.cost <= cost { continue }
          best[index] = (cost, children, chosen)
        }
      } while Self.advance(&point, radices: parts.indices.map { fronts[$0][digits[$0]].count })
      for case let found? in best {
        costs.append(found.cost)
        combined.partStates += found.states.map { Int32($0) }
        combined.childCounts.append(Int32(found.children))
      }
    } while Self.advance(&digits, radices: fronts.map(\.count))
    self.caps = caps
    self.costs = costs
    self.combined = combined
    return true
  }

  /// The next vector in mixed radix, the first digit fastest; false after the last.
  private static func advance(_ digits: inout [Int], radices: [Int]) -> Bool {
    for index in digits.indices {
      digits[index] += 1
      if digits[index] < radices[index] { return true }
      digits[index] = 0
    }
    return false
  }
}
