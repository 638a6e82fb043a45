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
  /// The loop runs once per combination (26 244 times for 14.plist's item level, about sixty reads and
  /// writes each), so its tables are flat and read through buffer pointers: through nested arrays every
  /// read retained an inner array and every write checked uniqueness, over a thousand instructions a
  /// combination.
  static func combineClasses(
    fronts: [[[FrontPoint]]], needs: [Int], coreBest: [[Int?]], coreCosts: [ExactCost], expected: Int
  ) -> (costs: [ExactCost], partStates: [Int32]) {
    if fronts.allSatisfy({ $0.allSatisfy { $0.count == 1 } }) {
      return combineSinglePoints(
        fronts: fronts, needs: needs, coreBest: coreBest, coreCosts: coreCosts, expected: expected)
    }
    let (partCount, coreClassCount, needCount) = (fronts.count, coreBest.count, needs.count)
    // Part `p`'s class `c` is the front `points[frontStart[classBase[p] + c]..<frontStart[classBase[p] + c
    // + 1]]`; a core class's cheapest state for `needs[n]` is `coreState[coreClass * needCount + n]` (-1:
    // none), and a need's position in `needs` is `needIndex[need]` (-1: no combination needs it).
    var points: [FrontPoint] = []
    var frontStart: [Int] = []
    var classBase: [Int] = []
    for classes in fronts {
      classBase.append(frontStart.count)
      for front in classes {
        frontStart.append(points.count)
        points += front
      }
      frontStart.append(points.count)
    }
    let classCounts = fronts.map(\.count)
    let coreState = coreBest.flatMap { $0.map { $0 ?? -1 } }
    var needIndex = [Int](repeating: -1, count: (needs.max() ?? 0) + 1)
    for (index, need) in needs.enumerated() { needIndex[need] = index }

    // The results, written in place (appending checked each array's uniqueness and capacity per element).
    var costs = [ExactCost](repeating: ExactCost(), count: expected)
    var partStates = [Int32](repeating: 0, count: expected * (partCount + 1))
    var stateCount = 0
    // Scratch: each part's class and point (a position in `points`); per core class, the cheapest
    // combination for the current classes — its cost (`hasBest`), core state and point of each front.
    var digits = [Int](repeating: 0, count: partCount)
    var point = [Int](repeating: 0, count: partCount)
    var hasBest = [Bool](repeating: false, count: coreClassCount)
    var bestCost = [ExactCost](repeating: ExactCost(), count: coreClassCount)
    var bestCore = [Int](repeating: 0, count: coreClassCount)
    var bestPoints = [Int](repeating: 0, count: coreClassCount * partCount)
    withBuffers(points, frontStart, classBase, classCounts, coreState, needIndex, coreCosts) {
      points, frontStart, classBase, classCounts, coreState, needIndex, coreCosts in
      withMutableBuffers(&digits, &point, &bestCore, &bestPoints) { digits, point, bestCore, bestPoints in
        hasBest.withUnsafeMutableBufferPointer { hasBest in
          bestCost.withUnsafeMutableBufferPointer { bestCost in
            costs.withUnsafeMutableBufferPointer { costs in
              partStates.withUnsafeMutableBufferPointer { partStates in
                var finished = false
                while !finished {
                  for part in 0..<partCount { point[part] = frontStart[classBase[part] + digits[part]] }
                  for coreClass in 0..<coreClassCount { hasBest[coreClass] = false }
                  while true {
                    var need = 0
                    var types = 0
                    for part in 0..<partCount {
                      let found = points[point[part]]
                      need = Swift.max(need, found.choices)
                      types += found.types
                    }
                    let needAt = needIndex[need]
                    for coreClass in 0..<coreClassCount where needAt >= 0 {
                      let state = coreState[coreClass * needCount + needAt]
                      guard state >= 0 else { continue }
                      var cost = coreCosts[state]
                      cost.types += types
                      if hasBest[coreClass], bestCost[coreClass] <= cost { continue }
                      (hasBest[coreClass], bestCost[coreClass], bestCore[coreClass]) = (true, cost, state)
                      for part in 0..<partCount { bestPoints[coreClass * partCount + part] = point[part] }
                    }
                    // The next point of the fronts, the first part's fastest.
                    var part = 0
                    while part < partCount {
                      point[part] += 1
                      if point[part] < frontStart[classBase[part] + digits[part] + 1] { break }
                      point[part] = frontStart[classBase[part] + digits[part]]
                      part += 1
                    }
                    if part == partCount { break }
                  }
                  for coreClass in 0..<coreClassCount where hasBest[coreClass] {
                    costs[stateCount] = bestCost[coreClass]
                    let row = stateCount * (partCount + 1)
                    for part in 0..<partCount {
                      partStates[row + part] = Int32(points[bestPoints[coreClass * partCount + part]].state)
                    }
                    partStates[row + partCount] = Int32(bestCore[coreClass])
                    stateCount += 1
                  }
                  // The next combination of classes, the first part's fastest.
                  var part = 0
                  while part < partCount {
                    digits[part] += 1
                    if digits[part] < classCounts[part] { break }
                    digits[part] = 0
                    part += 1
                  }
                  finished = part == partCount
                }
              }
            }
          }
        }
      }
    }
    costs.removeLast(expected - stateCount)
    partStates.removeLast((expected - stateCount) * (partCount + 1))
    return (costs, partStates)
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

/// Calls `body` with the arrays' buffers.
private func withBuffers<A, B, C, D, E, F, G, Result>(
  _ a: [A], _ b: [B], _ c: [C], _ d: [D], _ e: [E], _ f: [F], _ g: [G],
  _ body: (
    UnsafeBufferPointer<A>, UnsafeBufferPointer<B>, UnsafeBufferPointer<C>, UnsafeBufferPointer<D>,
    UnsafeBufferPointer<E>, UnsafeBufferPointer<F>, UnsafeBufferPointer<G>
  ) -> Result
) -> Result {
  a.withUnsafeBufferPointer { a in
    b.withUnsafeBufferPointer { b in
      c.withUnsafeBufferPointer { c in
        d.withUnsafeBufferPointer { d in
          e.withUnsafeBufferPointer { e in
            f.withUnsafeBufferPointer { f in g.withUnsafeBufferPointer { g in body(a, b, c, d, e, f, g) } }
          }
        }
      }
    }
  }
}

/// Calls `body` with the arrays' mutable buffers.
private func withMutableBuffers<Result>(
  _ a: inout [Int], _ b: inout [Int], _ c: inout [Int], _ d: inout [Int],
  _ body: (
    UnsafeMutableBufferPointer<Int>, UnsafeMutableBufferPointer<Int>, UnsafeMutableBufferPointer<Int>,
    UnsafeMutableBufferPointer<Int>
  ) -> Result
) -> Result {
  a.withUnsafeMutableBufferPointer { a in
    b.withUnsafeMutableBufferPointer { b in
      c.withUnsafeMutableBufferPointer { c in d.withUnsafeMutableBufferPointer { d in body(a, b, c, d) } }
    }
  }
}
