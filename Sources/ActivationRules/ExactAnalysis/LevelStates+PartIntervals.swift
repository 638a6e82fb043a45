/// The interval search of a level split into supporting parts, over each part's choices and the number of
/// children rather than over the level's classes of children.
///
/// When a part's table (`SupportTable`) outgrows its bound (a part of six counts compared with 10, 50 or
/// 999: Apple's form of a version 1 dictionary with twins, files and URLs, against Microsoft's), the level
/// is still a sum of independent choices. A collection is then described by how many children `N` it has
/// and how often each part's choices are made, `x`; the counterparts of the arrangements the tables use
/// (the DocC article *Deciding rules exactly*, "Supporting choices") are linear: every part's choices fit
/// on the children, `w_p ≤ N`; no child is unsupported exactly when some arrangement exists with
/// `N ≤ Σ s_p`; some child is, when every `s_p ≤ N − 1`. Each count is a sum of choices (a part's slot),
/// `N` itself (a count of every child) or the unsupported count, so a combination of count intervals is an
/// integer program of a few dozen variables where the level's classes made hundreds (576 for
/// real-rules-holdout2/33.plist), and the interval search's branch and bound runs unchanged on it.
///
/// **Bounds.** With `L` the sum of the lower ends of the parts' slots and `Lₛ` the largest lower end of
/// the counts of every child, some cheapest solution has `N ≤ max(Lₛ, L + 1, 1)` and at most `L + N`
/// choices: remove every choice that raises no count sitting at its lower end and is not a supporting
/// choice needed for `N ≤ Σ s` (the cost does not grow; at most `L` choices are left that sit at a lower
/// end); then `N` is the least the rows allow, which is `Lₛ` or a part's `w` (or `s + 1`), and a part's `w`
/// past `L` is made of supporting choices beyond the lower ends, one of which can go with one child, a
/// cheaper solution. These rows make branch and bound finite and, folded with a weight above any cost they
/// allow, the programs' order the lexicographic one (fewest children, then fewest types).
extension LevelStates {
  /// The most combinations of intervals the search by parts may visit by default: each solves a program of
  /// a few dozen variables, some tens of times cheaper than the whole level's, so this bound costs about as
  /// long as ``maximumCombinations`` does (about a second in a release build); real-rules-holdout/16.plist
  /// needs 82 829, real-rules-holdout2/12.plist and 33.plist 134 691.
  static let maximumPartCombinations = 150_000

  /// Searches the level by `split`'s parts and count intervals; false when the split does not fit this
  /// search (more than one unsupported count, too many classes of children to index, a slot of no part,
  /// costs past the programs' range), so that
  /// the level is searched otherwise. Throws when it passes ``Limits/partCombinations``.
  mutating func searchSupportingPartIntervals(
    _ split: SupportingParts, caps: [Int32], outputs: [ExactFormula]?
  ) throws(OutsideFragment) -> Bool {
    let active = caps.indices.filter { caps[$0] > 0 }
    let activeUnsupported = split.unsupported.filter { caps[$0] > 0 }
    // Every class of children by its choices, for the witnesses: checked before the search, not after.
    guard activeUnsupported.count <= 1, let table = split.childTable() else { return false }
    // Variables: each part's choices, then the number of children.
    var variableOf: [[Int]] = []
    var choiceOfVariable: [(part: Int, choice: Int)] = []
    for (part, choices) in split.choices.enumerated() {
      variableOf.append(choices.indices.map { choiceOfVariable.count + $0 })
      choiceOfVariable += choices.indices.map { (part, $0) }
    }
    // The variable counting the children, after every choice's.
    let childrenVariable = choiceOfVariable.count
    let allChoices = Array(0..<childrenVariable)
    let supportingOf = split.choices.indices.map { part in
      split.choices[part].indices.filter { split.choices[part][$0].supporting }.map { variableOf[part][$0] }
    }
    /// What each active slot counts.
    enum Counted { case part([Int]), children, unsupported }
    var counted: [Int: Counted] = [:]
    for slot in split.shared { counted[slot] = .children }
    for slot in activeUnsupported { counted[slot] = .unsupported }
    for (part, slots) in split.slots.enumerated() {
      for slot in slots {
        counted[slot] = .part(
          split.choices[part].indices.filter { split.choices[part][$0].increments.contains(slot) }.map {
            variableOf[part][$0]
          })
      }
    }
    guard active.allSatisfy({ counted[$0] != nil }) else { return false }
    let (slots, slotIntervals) = Self.slotsByIntervals(
      active.map { slot in
        (
          slot,
          Self.intervals(
            cap: caps[slot], tests: Self.tests(ofSlot: slot, atoms: atoms, everyChildSlot: everyChildSlot))
        )
      })
    let positionCounted = slots.compactMap { counted[$0] }
    /// `max(Lₛ, L + 1, 1)` of the extension's documentation, for intervals chosen by position.
    func childBound(_ lows: [Int]) -> Int {
      var partLows = 0
      var childLow = 0
      for (position, low) in lows.enumerated() {
        switch positionCounted[position] {
        case .part: partLows += low
        case .children: childLow = Swift.max(childLow, low)
        case .unsupported: break
        }
      }
      return Swift.max(childLow, partLows + 1, 1)
    }
    // One weight for the level: above any cost a bounded solution of any combination can have.
    let largestLows = slotIntervals.map { $0.map(\.low).max() ?? 0 }
    let largestChildren = childBound(largestLows)
    let largestChoices = largestLows.indices.reduce(largestChildren) { sum, position in
      if case .part = positionCounted[position] { return sum + largestLows[position] }
      return sum
    }
    let base = split.baseCost
    let largestTypes = split.choices.joined().map(\.types).max() ?? 0
    let (weightBase, overflow) = Swift.max(base.items, base.attachments, base.types)
      .multipliedReportingOverflow(by: largestChildren)
    let (choiceTypes, overflow2) = largestTypes.multipliedReportingOverflow(by: largestChoices)
    guard !overflow, !overflow2, weightBase + choiceTypes < 1 << 20 else { return false }
    let weight = weightBase + choiceTypes + 1
    let variableCosts =
      choiceOfVariable.map { split.choices[$0.part][$0.choice].types }
      + [Self.folded(base, weight: weight)]

    var shape = IntervalProgramShape(
      slots: slots, slotIntervals: slotIntervals, costs: variableCosts,
      rootRows: variableOf.map {
        IntegerProgram.Row(variables: $0, subtracted: [childrenVariable], relation: .atMost, bound: 0)
      },
      rows: { position, interval in
        switch positionCounted[position] {
        case .part(let raising): return Self.rows(of: interval, raisedBy: raising)
        case .children: return Self.rows(of: interval, raisedBy: [childrenVariable])
        case .unsupported:
          if interval.low > 0 {
            return [IntegerProgram.Row(variables: [childrenVariable], relation: .atLeast, bound: 1)]
              + supportingOf.map {
                IntegerProgram.Row(
                  variables: $0, subtracted: [childrenVariable], relation: .atMost, bound: -1)
              }
          }
          guard interval.high == 0 else { return [] }
          return [
            .init(
              variables: Array(supportingOf.joined()), subtracted: [childrenVariable], relation: .atLeast,
              bound: 0)
          ]
        }
      },
      boundRows: { chosen in
        let bound = childBound(chosen.map(\.low))
        let choiceBound = chosen.indices.reduce(bound) { sum, position in
          if case .part = positionCounted[position] { return sum + chosen[position].low }
          return sum
        }
        return [
          .init(variables: [childrenVariable], relation: .atMost, bound: bound),
          .init(variables: allChoices, relation: .atMost, bound: choiceBound),
        ]
      },
      program: { _ in nil })
    // The integer program of a complete combination: every row the search added on the way, over every
    // variable (a choice a zero interval rules out is left to the rows).
    let rowsOnTheWay = shape
    shape.program = { chosen in
      var integer = IntegerProgram(variableCount: childrenVariable + 1, costs: variableCosts)
      integer.rows = rowsOnTheWay.rootRows
      for (position, interval) in chosen.enumerated() {
        integer.rows += rowsOnTheWay.rows(position, interval)
      }
      integer.rows += rowsOnTheWay.boundRows(chosen)
      return (integer, Array(0...childrenVariable))
    }
    let limit = Self.limits.partCombinations
    let solutions = try searchIntervalCombinations(
      shape, caps: caps, outputs: outputs, limit: limit, limitName: "LevelStates.maximumPartCombinations")
    var arranged = ArrangedWitnesses(split: split, table: table)
    var explicit = ExplicitStates(byPartIntervals: true)
    var stateCosts: [ExactCost] = []
    for solution in solutions {
      var values = [Int](repeating: 0, count: childrenVariable + 1)
      for (variable, value) in zip(solution.variables, solution.values) { values[variable] = value }
      let childCount = values[childrenVariable]
      var choiceCounts = [Int](repeating: 0, count: split.choices.count)
      var types = 0
      for (variable, value) in values.dropLast().enumerated() where value > 0 {
        let (part, choice) = choiceOfVariable[variable]
        choiceCounts[part] += value
        types += split.choices[part][choice].types * value
      }
      // The rows `w_p ≤ N` hold; checked all the same, since the witness is arranged only when read.
      guard choiceCounts.allSatisfy({ $0 <= childCount }) else { return false }
      // The combination says whether some child is unsupported; where its intervals do not tell, the
      // numbers do: none is when the supporting choices can cover every child.
      let supportingCount = supportingOf.joined().reduce(0) { $0 + values[$1] }
      let unsupported: Bool
      if let slot = activeUnsupported.first, let interval = solution.intervals[slot],
        interval.low > 0 || interval.high == 0
      {
        unsupported = interval.low > 0
      } else {
        unsupported = childCount > 0 && supportingCount < childCount
      }
      var counts = [Int](repeating: 0, count: caps.count)
      for slot in active {
        switch counted[slot] {
        case .part(let raising)?:
          counts[slot] = Swift.min(raising.reduce(0) { $0 + values[$1] }, Int(caps[slot]))
        case .children?: counts[slot] = Swift.min(childCount, Int(caps[slot]))
        case .unsupported?: counts[slot] = unsupported ? Swift.min(1, Int(caps[slot])) : 0
        case nil: break
        }
      }
      explicit.counts.append(counts)
      arranged.choiceCounts.append(values.dropLast().map { Int32(clamping: $0) })
      arranged.children.append(childCount)
      arranged.unsupported.append(unsupported)
      stateCosts.append(
        ExactCost(
          items: base.items * childCount, attachments: base.attachments * childCount,
          types: base.types * childCount + types))
    }
    explicit.arranged = arranged
    self.caps = caps
    self.costs = stateCosts
    storage = .explicit(explicit)
    return true
  }
}
