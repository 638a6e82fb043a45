/// The last step of a split level's search (``LevelStates/searchParts(_:caps:)``): one state of the level
/// per class of each free part and class of the core, with its cheapest collection.
extension LevelStates {
  /// A point of a free part's Pareto front: its number of choices, the types they add, the part's state.
  typealias FrontPoint = (choices: Int, types: Int, state: Int)

  /// For each combination of one class per free part (`fronts[part][class]`, each class a Pareto front)
  /// and each class of the core, the cheapest way to make it: one point of each front, and the core's
  /// cheapest state with at least as many choices as the points need (`coreBest[coreClass][n]` for
  /// `needs[n]`, nil when none has). Returns each state's cost and its part states (`fronts.count + 1` per
  /// state: each free part's, then the core's), first part's class fastest, core classes innermost.
  ///
  /// Fronts of one point each (every class of the real rules) take ``combineSinglePoints(fronts:needs:
  /// coreBest:coreCosts:expected:)``; this loop tries every combination of the fronts' points.
  static func combineClasses(
    fronts: [[[FrontPoint]]], needs: [Int], coreBest: [[Int?]], coreCosts: [ExactCost], expected: Int
  ) -> (costs: [ExactCost], partStates: [Int32]) {
    if fronts.allSatisfy({ $0.allSatisfy { $0.count == 1 } }) {
      return combineSinglePoints(
        fronts: fronts, needs: needs, coreBest: coreBest, coreCosts: coreCosts, expected: expected)
    }
    let partCount = fronts.count
    var needIndex = [Int](repeating: -1, count: (needs.max() ?? 0) + 1)
    for (index, need) in needs.enumerated() { needIndex[need] = index }
    var costs: [ExactCost] = []
    var partStates: [Int32] = []
    var digits = [Int](repeating: 0, count: partCount)
    while true {
      let classFronts = (0..<partCount).map { fronts[$0][digits[$0]] }
      // Per core class, the cheapest combination of points for these classes: cost, core state, points.
      var best: [(cost: ExactCost, core: Int, points: [Int])?] = Array(repeating: nil, count: coreBest.count)
      var point = [Int](repeating: 0, count: partCount)
      while true {
        let need = (0..<partCount).map { classFronts[$0][point[$0]].choices }.max() ?? 0
        let types = (0..<partCount).reduce(0) { $0 + classFronts[$1][point[$1]].types }
        if needIndex[need] >= 0 {
          for (coreClass, states) in coreBest.enumerated() {
            guard let core = states[needIndex[need]] else { continue }
            var cost = coreCosts[core]
            cost.types += types
            if let found = best[coreClass], found.cost <= cost { continue }
            best[coreClass] = (cost, core, point)
          }
        }
        guard Self.next(&point, radices: classFronts.map(\.count)) else { break }
      }
      for case (let cost, let core, let points)? in best {
        costs.append(cost)
        partStates += (0..<partCount).map { Int32(classFronts[$0][points[$0]].state) } + [Int32(core)]
      }
      guard Self.next(&digits, radices: fronts.map(\.count)) else { break }
    }
    return (costs, partStates)
  }

  /// The next vector in mixed radix, the first digit fastest; false after the last.
  private static func next(_ digits: inout [Int], radices: [Int]) -> Bool {
    for index in digits.indices {
      digits[index] += 1
      if digits[index] < radices[index] { return true }
      digits[index] = 0
    }
    return false
  }
}

extension LevelStates {
  /// ``combineClasses(fronts:needs:coreBest:coreCosts:expected:)`` when every front is one point (every
  /// class of 14.plist's parts): a combination's need and types are then a maximum and a sum over the
  /// parts, kept for each suffix of the parts, so that moving to the next combination — which changes the
  /// first parts' classes far more often than the last ones' — recomputes only the parts that changed,
  /// and a state's row of part states is the current row, kept the same way.
  static func combineSinglePoints(
    fronts: [[[FrontPoint]]], needs: [Int], coreBest: [[Int?]], coreCosts: [ExactCost], expected: Int
  ) -> (costs: [ExactCost], partStates: [Int32]) {
    let partCount = fronts.count
    let point = fronts.map { $0.map { $0[0] } }
    var needIndex = [Int](repeating: -1, count: (needs.max() ?? 0) + 1)
    for (index, need) in needs.enumerated() { needIndex[need] = index }
    var costs: [ExactCost] = []
    var partStates: [Int32] = []
    costs.reserveCapacity(expected)
    partStates.reserveCapacity(expected * (partCount + 1))
    // The current classes, and for each part `p` the need and types of parts `p...`.
    var digits = [Int](repeating: 0, count: partCount)
    var suffixNeed = [Int](repeating: 0, count: partCount + 1)
    var suffixTypes = [Int](repeating: 0, count: partCount + 1)
    var row = [Int32](repeating: 0, count: partCount + 1)
    /// Recomputes the suffixes and the row for parts `0...last`.
    func update(through last: Int) {
      for part in stride(from: last, through: 0, by: -1) {
        let found = point[part][digits[part]]
        suffixNeed[part] = Swift.max(suffixNeed[part + 1], found.choices)
        suffixTypes[part] = suffixTypes[part + 1] + found.types
        row[part] = Int32(found.state)
      }
    }
    update(through: partCount - 1)
    while true {
      let needAt = needIndex[suffixNeed[0]]
      if needAt >= 0 {
        for states in coreBest {
          guard let coreState = states[needAt] else { continue }
          var cost = coreCosts[coreState]
          cost.types += suffixTypes[0]
          costs.append(cost)
          row[partCount] = Int32(coreState)
          partStates += row
        }
      }
      var part = 0
      while part < partCount {
        digits[part] += 1
        if digits[part] < point[part].count { break }
        digits[part] = 0
        part += 1
      }
      if part == partCount { break }
      update(through: part)
    }
    return (costs, partStates)
  }
}
