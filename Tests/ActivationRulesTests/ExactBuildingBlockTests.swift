import TestSupport
import Testing

@testable import ActivationRules

/// The word-level building blocks of the exact analysis against plain reference implementations: the
/// reachable unions of a context level, its cheapest witnesses, the combination of a split level's classes,
/// and the flat table classes are grouped by.
@Suite struct ExactBuildingBlockTests {
  /// Random families of sets over `bitCount` bits, some holding a bit every set holds (as the slot counting
  /// items is held by every item's set), some containing the bare top bit.
  static func families(bitCount: Int, count: Int, seed: UInt64) -> [[Int]] {
    var random = SeededGenerator(seed: seed)
    return (0..<count).map { index in
      let size = Int.random(in: 0...12, using: &random)
      let everyHolds = index % 2 == 0 && bitCount > 0
      let top = bitCount > 0 ? 1 << (bitCount - 1) : 0
      var sets = (0..<size).map { _ in
        // Sparse sets, so that many unions are not reachable.
        var set = 0
        for bit in 0..<bitCount where Int.random(in: 0..<4, using: &random) == 0 { set |= 1 << bit }
        return everyHolds ? set | top : set
      }
      if everyHolds, index % 4 == 0 { sets.append(top) }
      return sets
    }
  }

  /// The reachable sets by definition: the closure of the empty set under union with a set of the family.
  static func reachableByClosure(_ sets: [Int], bitCount: Int) -> Set<Int> {
    var reached: Set<Int> = [0]
    var frontier = [0]
    while let set = frontier.popLast() {
      for step in sets where !reached.contains(set | step) {
        reached.insert(set | step)
        frontier.append(set | step)
      }
    }
    return reached
  }

  @Test("a bit table turns from columns into rows and back", arguments: [0, 1, 63, 64, 65, 130])
  func bitTableRowsAndColumns(columnCount: Int) {
    var random = SeededGenerator(seed: 0x7AB1E + UInt64(columnCount))
    for rowCount in [0, 1, 5, 64, 100, 129] {
      let entries = (0..<columnCount).map { _ in
        (0..<rowCount).map { _ in Int.random(in: 0..<3, using: &random) == 0 }
      }
      let columns = entries.map { column in BitVector(size: rowCount) { column[$0] }.words }
      let width = (columnCount + 63) / 64
      let rows = BitMatrix.rows(ofColumns: columns, rowCount: rowCount)
      #expect(rows.count == rowCount * width)
      for row in 0..<rowCount {
        for column in 0..<columnCount {
          let bit = (rows[row * width + column / 64] >> UInt64(column % 64)) & 1 == 1
          #expect(bit == entries[column][row], "row \(row), column \(column) of \(rowCount) × \(columnCount)")
        }
      }
      let back = BitMatrix.columns(ofRows: rows, width: width, rowCount: rowCount, columnCount: columnCount)
      #expect(back == columns, "\(rowCount) × \(columnCount)")
    }
  }

  @Test("a 64 × 64 bit matrix transposes: entry (i, j) moves to (j, i)")
  func bitMatrixTransposes() {
    var random = SeededGenerator(seed: 0x7_2A05)
    for density in [0, 1, 8, 32, 63, 64] {
      let matrix = (0..<64).map { _ in
        (0..<64).reduce(UInt64(0)) { word, bit in
          Int(random.next() % 64) < density ? word | 1 << UInt64(bit) : word
        }
      }
      var rows = matrix
      rows.withUnsafeMutableBufferPointer { BitMatrix.transpose($0) }
      for i in 0..<64 {
        for j in 0..<64 {
          #expect(
            (rows[j] >> UInt64(i)) & 1 == (matrix[i] >> UInt64(j)) & 1, "density \(density) (\(i), \(j))")
        }
      }
    }
  }

  /// Each bit's closure by the table (limit 0), by its least sets (a limit no family reaches) and by the
  /// cheaper of the two (nil), on families of up to 12 sets and, for mixed bits, of 40 to 80.
  @Test("reachable sets = closure under union, 0 to 12 bits", arguments: Array(0...12))
  func reachableSetsAreUnions(bitCount: Int) {
    let seed = 0xB17_0000 + UInt64(bitCount)
    var random = SeededGenerator(seed: seed)
    let larger = (0..<4).map { _ in
      (0..<Int.random(in: 40...80, using: &random)).map { _ in
        Int.random(in: 0..<(1 << bitCount), using: &random)
      }
    }
    for (index, sets) in (Self.families(bitCount: bitCount, count: 24, seed: seed) + larger).enumerated() {
      let expected = Self.reachableByClosure(sets, bitCount: bitCount)
      for limit in [nil, 0, 1_000] {
        let table = ContextUnions.reachableSets(of: sets, bitCount: bitCount, leastSetLimit: limit)
        #expect(table.size == 1 << bitCount)
        #expect(table.count == expected.count, "family \(index), limit \(String(describing: limit)): \(sets)")
        #expect(
          (0..<(1 << bitCount)).allSatisfy { table[$0] == expected.contains($0) },
          "family \(index), limit \(String(describing: limit)): \(sets)")
      }
    }
  }

  @Test("least sets holding each bit: the minimal ones, or nil past the limits", arguments: Array(1...10))
  func leastSetsAreMinimal(bitCount: Int) {
    var random = SeededGenerator(seed: 0x1EA5_7000 + UInt64(bitCount))
    for size in [0, 1, 5, 30, 200] {
      let sets = (0..<size).map { _ in Int.random(in: 0..<(1 << bitCount), using: &random) }
      let minimal = (0..<bitCount).map { bit in
        let holding = Set(sets.filter { $0 & 1 << bit != 0 })
        return holding.filter { set in !holding.contains { $0 != set && $0 & set == $0 } }.sorted()
      }
      let tooMany = Set(minimal.joined()).count > ContextUnions.maximumLeastSets
      for limit in [0, 1, 3, 1_000] {
        let least = ContextUnions.leastSets(holding: sets, bitCount: bitCount, limit: limit)
        #expect(least.count == bitCount)
        for bit in 0..<bitCount {
          let expected = tooMany || minimal[bit].count > limit ? nil : minimal[bit]
          #expect(least[bit]?.sorted() == expected, "bit \(bit), limit \(limit): \(sets)")
        }
      }
    }
  }

  /// Costs for steps: items first, so that a layer of k items precedes every layer of k + 1; uniform costs
  /// make every set of a layer tie, so that ties (the smaller set first) decide the order.
  static func cost(_ index: Int, seed: Int, uniform: Bool) -> ExactCost {
    uniform
      ? ExactCost(items: 1)
      : ExactCost(items: 1, attachments: (index * 7 + seed) % 3, types: (index * 5 + seed) % 4)
  }

  @Test("cheapest witnesses = Dijkstra over the unions, by cost, ties by set", arguments: Array(1...9))
  func cheapestMatchesDijkstra(bitCount: Int) throws {
    let families = Self.families(bitCount: bitCount, count: 12, seed: 0xC4E_0000 + UInt64(bitCount))
    for (index, family) in families.enumerated() {
      for uniform in [false, true] {
        try Self.checkCheapest(family: family, seed: index, uniform: uniform, bitCount: bitCount)
      }
    }
  }

  @Test("downward closure = every subset of a marked set", arguments: Array(0...12))
  func downwardClosureMatchesDefinition(bitCount: Int) {
    var random = SeededGenerator(seed: 0xD0_0000 + UInt64(bitCount))
    for density in [0, 1, 5, 40] {
      let marked = BitVector(size: 1 << bitCount) { _ in Int.random(in: 0..<100, using: &random) < density }
      var markedSets: [Int] = []
      marked.forEachTrue { markedSets.append($0) }
      let closure = ContextUnions.downwardClosure(of: marked, bitCount: bitCount)
      let expected = BitVector(size: 1 << bitCount) { set in markedSets.contains { $0 & set == set } }
      #expect(closure == expected, "\(bitCount) bits, marked \(markedSets)")
    }
  }

  @Test("smallest k = the first k of the sorted positions", arguments: [0, 1, 2, 5, 40])
  func smallestMatchesSortedPrefix(count: Int) {
    var random = SeededGenerator(seed: 0x5E_1EC7 + UInt64(count))
    for size in [0, 1, 7, 39, 41, 400, 3_000] {
      // Keys with many equal costs, made a total order by the position, as a layer's (cost, set) is.
      let costs = (0..<size).map { _ in Int.random(in: 0..<12, using: &random) }
      let positions = Array(0..<size).shuffled(using: &random)
      let less = { (a: Int, b: Int) in (costs[a], a) < (costs[b], b) }
      let expected = Array(positions.sorted(by: less).prefix(count))
      #expect(ContextUnions.smallest(count, of: positions, by: less) == expected, "\(size) positions")
    }
  }

  /// The witness search on one family of sets against Dijkstra over all sets, asking for 1, 3 and 6 sets
  /// among a random third of the reachable sets, among those no single step reaches (so that the search
  /// goes past its first layer), and among a few of those needing the most steps (pruned layers).
  static func checkCheapest(family: [Int], seed: Int, uniform: Bool, bitCount: Int) throws {
    // One step per set, as prepare makes them (one per effect); the empty set is no step.
    let sets = Array(Set(family.filter { $0 != 0 })).sorted()
    let steps = sets.enumerated().map {
      (set: $1, child: $0, cost: Self.cost($0, seed: seed, uniform: uniform))
    }
    let unions = ContextUnions(
      atoms: [], bitOfSlot: [], everyItemBit: nil, bitCount: bitCount, steps: steps,
      reachable: ContextUnions.reachableSets(of: sets, bitCount: bitCount))
    // Reference: every reachable set's cheapest cost, by Dijkstra over all sets.
    var best: [Int: UInt64] = [0: 0]
    var settled: Set<Int> = []
    while let (set, cost) = best.filter({ !settled.contains($0.key) }).min(by: {
      ($0.value, $0.key) < ($1.value, $1.key)
    }) {
      settled.insert(set)
      for step in steps where step.set & ~set != 0 {
        let next = (set | step.set, cost + step.cost.folded)
        if best[next.0].map({ next.1 < $0 }) ?? true { best[next.0] = next.1 }
      }
    }
    let order = best.sorted { ($0.value, $0.key) < ($1.value, $1.key) }
    var random = SeededGenerator(seed: UInt64(seed))
    let oneStep = Set(sets)
    let choices = [
      BitVector(size: 1 << bitCount) { best[$0] != nil && Int.random(in: 0..<3, using: &random) == 0 },
      BitVector(size: 1 << bitCount) { best[$0] != nil && $0 != 0 && !oneStep.contains($0) },
      // A few of the sets that need the most steps: the search prunes its later layers to their subsets.
      BitVector(size: 1 << bitCount) {
        best[$0] != nil && $0.nonzeroBitCount >= bitCount - 1 && !oneStep.contains($0)
          && Int.random(in: 0..<2, using: &random) == 0
      },
    ]
    let context = "family \(seed) (\(uniform ? "uniform" : "varied") costs): \(sets)"
    for wanted in choices {
      for keep in [1, 3, 6] {
        let found = unions.cheapest(in: wanted, keep: keep)
        let expected = order.filter { wanted[$0.key] }.prefix(keep)
        #expect(found.map(\.set) == expected.map(\.key), "\(context), keep \(keep)")
        #expect(found.map(\.cost.folded) == expected.map(\.value), "\(context), keep \(keep)")
        for witness in found {
          // The witness's items bring exactly the set, at exactly the cost.
          let union = witness.children.reduce(0) { $0 | sets[$1] }
          let cost = witness.children.reduce(UInt64(0)) {
            $0 + Self.cost($1, seed: seed, uniform: uniform).folded
          }
          #expect(union == witness.set && cost == witness.cost.folded, "\(context), keep \(keep)")
        }
      }
    }
  }

  /// The combination of classes by its definition: every combination of a class per free part, every
  /// core class; every point of the fronts; the cheapest with a core state of enough choices.
  static func combinedByDefinition(
    fronts: [[[LevelStates.FrontPoint]]], needs: [Int], coreBest: [[Int?]], coreCosts: [ExactCost]
  ) -> (costs: [ExactCost], partStates: [Int32]) {
    var costs: [ExactCost] = []
    var partStates: [Int32] = []
    func classCombinations(_ part: Int) -> [[Int]] {
      guard part < fronts.count else { return [[]] }
      return classCombinations(part + 1).flatMap { rest in fronts[part].indices.map { [$0] + rest } }
    }
    func pointCombinations(_ classes: [Int], _ part: Int) -> [[LevelStates.FrontPoint]] {
      guard part < fronts.count else { return [[]] }
      return pointCombinations(classes, part + 1).flatMap { rest in
        fronts[part][classes[part]].map { [$0] + rest }
      }
    }
    for classes in classCombinations(0) {
      for states in coreBest {
        var best: (ExactCost, [LevelStates.FrontPoint], Int)?
        for points in pointCombinations(classes, 0) {
          let need = points.map(\.choices).max() ?? 0
          guard let needAt = needs.firstIndex(of: need), let core = states[needAt] else { continue }
          var cost = coreCosts[core]
          cost.types += points.reduce(0) { $0 + $1.types }
          if let found = best, found.0 <= cost { continue }
          best = (cost, points, core)
        }
        guard let (cost, points, core) = best else { continue }
        costs.append(cost)
        partStates += points.map { Int32($0.state) } + [Int32(core)]
      }
    }
    return (costs, partStates)
  }

  @Test("combined classes = every combination, single-point and Pareto fronts", arguments: [true, false])
  func combinationMatchesDefinition(singlePoints: Bool) {
    var random = SeededGenerator(seed: singlePoints ? 0xF407 : 0xF408)
    for round in 0..<40 {
      let partCount = Int.random(in: 0...4, using: &random)
      var state = 0
      let fronts: [[[LevelStates.FrontPoint]]] = (0..<partCount).map { _ in
        (0..<Int.random(in: 1...3, using: &random)).map { _ in
          (0..<(singlePoints ? 1 : Int.random(in: 1...3, using: &random))).map { _ in
            state += 1
            return (Int.random(in: 0...3, using: &random), Int.random(in: 0...5, using: &random), state)
          }
        }
      }
      let needs = Array(Set(fronts.flatMap { $0.flatMap { $0.map(\.choices) } }).union([0])).sorted()
      let coreCosts = (0..<6).map { _ in
        ExactCost(
          attachments: Int.random(in: 0...4, using: &random), types: Int.random(in: 0...4, using: &random))
      }
      let coreBest: [[Int?]] = (0..<Int.random(in: 1...3, using: &random)).map { _ in
        needs.map { _ in
          Int.random(in: 0..<4, using: &random) == 0 ? nil : Int.random(in: 0..<6, using: &random)
        }
      }
      let expected = Self.combinedByDefinition(
        fronts: fronts, needs: needs, coreBest: coreBest, coreCosts: coreCosts)
      let combined = LevelStates.combineClasses(
        fronts: fronts, needs: needs, coreBest: coreBest, coreCosts: coreCosts,
        expected: fronts.reduce(coreBest.count) { $0 * $1.count })
      #expect(combined.costs == expected.costs, "round \(round)")
      #expect(combined.partStates == expected.partStates, "round \(round)")
    }
  }

  @Test("word-keyed classes number keys in order of first appearance, through growth", arguments: [1, 2, 3])
  func wordKeyedClasses(width: Int) {
    var random = SeededGenerator(seed: 0x3E7 + UInt64(width))
    var table = WordKeyedClasses(width: width, expected: 4)
    var reference: [[UInt64]: Int] = [:]
    for _ in 0..<3_000 {
      // Keys alike in most words and low bits, as answer patterns are.
      let key = (0..<width).map { _ in UInt64(Int.random(in: 0..<40, using: &random)) << 7 }
      let found = key.withUnsafeBufferPointer { table.classOf($0) }
      let expected = reference[key] ?? reference.count
      #expect(found.index == expected && found.isNew == (reference[key] == nil))
      reference[key] = expected
    }
    #expect(table.count == reference.count)
    for (key, index) in reference {
      #expect(Array(table.keys[(index * width)..<((index + 1) * width)]) == key)
    }
  }
}
