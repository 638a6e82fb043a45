/// The count search over a dense grid: every vector of saturated counts is a cell of one array, numbered
/// in mixed radix (the first count varies fastest), so a cell's cost is found by index instead of by
/// hashing its counts.
///
/// Adding a child never lowers a count and raises at least one that is below its cap (a step that would
/// raise none is no step), so it always leads to a cell with a larger number: visiting the cells in
/// increasing order relaxes every cell after all of its predecessors, and one pass finds the cheapest cost
/// of every reachable cell — the same answer as Dijkstra's algorithm, without a heap or a hash table.
/// The pass visits only the cells it reaches, but allocates every cell, so it serves levels whose grid is
/// small (``maximumGridCells``); larger ones keep the hashed search.
extension LevelStates {
  /// The most cells the grid search allocates (16 bytes each): its pass costs cells × steps.
  static let maximumGridCells = 1 << 20

  /// The most relaxations (cells × steps) for which a level whose counts are compared with larger numbers
  /// still takes the grid before the interval search: about half a second in a release build (15.plist's
  /// item level, 746 496 cells × 256 steps, where the interval search passes its bound after a second).
  static let maximumGridWork = 200_000_000

  /// A grid pass this small (cells × steps) is taken whatever the interval search would cost: a few
  /// milliseconds.
  static let smallGridWork = 2_000_000

  /// Levels with at most this many combinations of intervals, and a grid pass larger than
  /// ``smallGridWork``, take the interval search first: each combination costs one small integer program
  /// (25.plist's core: 324 combinations, about 4 ms, against 7.5 M relaxations, about 30 ms).
  static let fewCombinations = 1_000

  /// Finds every reachable state and its cheapest collection by one pass over the grid; false, leaving the
  /// states untouched, when the grid has more than ``maximumGridCells`` cells, the counts do not pack, or a
  /// cost could outgrow its 21 bits.
  mutating func exploreGrid(steps: [Step], caps: [Int32]) -> Bool {
    guard let layout = Self.packing(caps: caps) else { return false }
    // The grid's digits are the counts some step raises (cap > 0): at most 20 of them, each with 2 or more
    // values, in a grid of at most 2^20 cells.
    let active = caps.indices.filter { caps[$0] > 0 }
    var digitOfSlot = [Int](repeating: -1, count: caps.count)
    var radix: [Int] = []
    var cellCount = 1
    for (digit, slot) in active.enumerated() {
      digitOfSlot[slot] = digit
      radix.append(cellCount)
      let (product, overflow) = cellCount.multipliedReportingOverflow(by: Int(caps[slot]) + 1)
      guard !overflow, product <= Self.limits.gridCells else { return false }
      cellCount = product
    }
    let digitCaps = active.map { caps[$0] }
    // A cheapest path raises an unsaturated count at every step, so it has at most Σ caps steps.
    let longestPath = caps.reduce(0) { $0 + Int($1) }
    let largestStep = steps.map { Swift.max($0.cost.items, $0.cost.attachments, $0.cost.types) }.max() ?? 0
    let (largestCost, overflow) = longestPath.multipliedReportingOverflow(by: largestStep)
    guard !overflow, largestCost < 1 << 21 else { return false }

    // A step moves the cell by the radices of its digits below their cap: a sum over a mask of digits,
    // read from two tables (low ten digits, the rest) instead of a loop per step and cell.
    let lowDigits = Swift.min(10, radix.count)
    let lowSums = Self.radixSums(Array(radix.prefix(lowDigits)))
    let highSums = Self.radixSums(Array(radix.dropFirst(lowDigits)))
    let lowMask = (1 << lowDigits) - 1
    let stepTable = steps.map { step in
      (
        mask: step.increments.reduce(0) { $0 | (digitOfSlot[$1] >= 0 ? 1 << digitOfSlot[$1] : 0) },
        cost: step.cost.folded
      )
    }
    // In a cell, a step moves only its digits below their cap, so steps moving the same digits lead to the
    // same cell and only the cheapest of them matters (the first among equals, as the plain pass would
    // keep). Cells share few masks of digits at their cap: the collapsed steps are listed once per mask.
    let moves = SaturatedMoves(
      steps: stepTable, digits: active.count,
      delta: { lowSums[$0 & lowMask] + highSums[$0 >> lowDigits] })
    // Only reached cells are visited, in increasing order (a set bit per reached cell, scanned forward: a
    // move always lands on a larger cell, so a cell's bit is set before the scan gets there). On 32.predicate's
    // context level 8 101 of 209 952 cells are reached; visiting every cell was most of the pass.
    let cells = GridCells(caps: digitCaps, fields: active.map { layout[$0] })
    var cost = [UInt64](repeating: .max, count: cellCount)
    // The state number (not the cell) of each cell's parent: a parent is numbered before its children.
    var parentState = [Int32](repeating: -1, count: cellCount)
    var via = [Int32](repeating: -1, count: cellCount)
    var reached = [UInt64](repeating: 0, count: (cellCount + 63) / 64)
    cost[0] = 0
    reached[0] = 1
    var packed: [PackedState] = []
    var costs: [ExactCost] = []
    var parents: [(state: Int32, child: Int32)] = []
    // Nearly all of the search: the arrays are read without bounds checks (every target is a cell of the
    // grid: a move raises only digits below their cap).
    cost.withUnsafeMutableBufferPointer { cost in
      parentState.withUnsafeMutableBufferPointer { parentState in
        via.withUnsafeMutableBufferPointer { via in
          reached.withUnsafeMutableBufferPointer { reached in
            for word in 0..<reached.count {
              while reached[word] != 0 {
                let cell = word << 6 | reached[word].trailingZeroBitCount
                reached[word] &= reached[word] - 1
                // The cell's cost is final: every predecessor is a smaller cell, visited already. It is
                // numbered in grid order, as the hashed search's states are recorded.
                let state = Int32(packed.count)
                let here = cost[cell]
                let (saturated, counts) = cells.decode(cell)
                packed.append(counts)
                costs.append(ExactCost(folded: here))
                let previous = parentState[cell]
                parents.append(previous < 0 ? (-1, -1) : (previous, Int32(steps[Int(via[cell])].child)))
                moves.list(saturated: saturated).withUnsafeBufferPointer { list in
                  for move in list {
                    let target = cell + move.delta
                    let next = here + move.cost
                    if next < cost[target] {
                      if cost[target] == .max { reached[target >> 6] |= 1 << UInt64(target & 63) }
                      cost[target] = next
                      parentState[target] = state
                      via[target] = move.step
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
    self.caps = caps
    self.costs = costs
    storage = .packed(PackedStates(layout: layout, states: packed, parents: parents))
    return true
  }

  /// For every mask of these digits, the sum of their radices.
  private static func radixSums(_ radices: [Int]) -> [Int] {
    var sums = [Int](repeating: 0, count: 1 << radices.count)
    for mask in 1..<sums.count {
      let lowest = mask.trailingZeroBitCount
      sums[mask] = sums[mask & (mask - 1)] + radices[lowest]
    }
    return sums
  }

}

/// A grid cell's digits at their cap (a mask) and its counts packed as a state, read from its number by two
/// tables, one for the low digits and one for the rest: one division per cell instead of one per digit.
private struct GridCells {
  /// The number of cells the low digits span (the divisor).
  let lowCells: Int
  let low: [(saturated: Int, counts: PackedState)]
  let high: [(saturated: Int, counts: PackedState)]

  /// `fields` are where each digit's count sits in a packed state.
  init(caps: [Int32], fields: [(offset: Int, width: Int)]) {
    let cellCount = caps.reduce(1) { $0 * (Int($1) + 1) }
    // The fewest low digits spanning at least √cells: both tables stay near √cells entries.
    var split = 0
    var lowCells = 1
    while split < caps.count, lowCells * lowCells < cellCount {
      lowCells *= Int(caps[split]) + 1
      split += 1
    }
    self.lowCells = lowCells
    low = Self.table(caps: caps[..<split], fields: fields[..<split], firstDigit: 0)
    high = Self.table(caps: caps[split...], fields: fields[split...], firstDigit: split)
  }

  func decode(_ cell: Int) -> (saturated: Int, counts: PackedState) {
    let (highIndex, lowIndex) = cell.quotientAndRemainder(dividingBy: lowCells)
    let (a, b) = (low[lowIndex], high[highIndex])
    return (
      a.saturated | b.saturated,
      PackedState(words: (a.counts.words.0 | b.counts.words.0, a.counts.words.1 | b.counts.words.1))
    )
  }

  /// Every combination of these digits in grid order (the first varies fastest).
  private static func table(
    caps: ArraySlice<Int32>, fields: ArraySlice<(offset: Int, width: Int)>, firstDigit: Int
  ) -> [(saturated: Int, counts: PackedState)] {
    var entries: [(saturated: Int, counts: PackedState)] = [(0, PackedState())]
    entries.reserveCapacity(caps.reduce(1) { $0 * (Int($1) + 1) })
    var radix = 1
    for (digit, (cap, field)) in zip(caps, fields).enumerated() {
      let bit = 1 << (firstDigit + digit)
      for count in 1...Int(cap) {
        // By index: a slice of `entries` kept across the appends made each append copy the whole table
        // (a count compared with 75 809 took 3.6 s, found by the exact fuzzer).
        for index in 0..<radix {
          let entry = entries[index]
          var counts = entry.counts
          counts[field.offset / 64] |= UInt64(count) << UInt64(field.offset % 64)
          entries.append((entry.saturated | (count == Int(cap) ? bit : 0), counts))
        }
      }
      radix *= Int(cap) + 1
    }
    return entries
  }
}

/// The distinct moves of a grid's steps in cells whose digits at their cap form a given mask: for each set
/// of digits that move, the cheapest step moving exactly those (the first among equals), with the cell
/// offset. Listed on first use per mask (cached for up to 2^16 masks; with more digits, listed per cell).
/// Used by one search on one thread and never shared, so its stored arrays skip the runtime's exclusivity
/// checks (a tenth of rule 32's search under callgrind).
private final class SaturatedMoves {
  typealias Move = (delta: Int, cost: UInt64, step: Int32, moving: Int)
  let steps: [(mask: Int, cost: UInt64)]
  let delta: (Int) -> Int
  @exclusivity(unchecked) private var cache: [[Move]?]
  /// The move listed for each set of moving digits while a list is built (-1: none yet); reset after.
  @exclusivity(unchecked) private var moveOf: [Int32]

  init(steps: [(mask: Int, cost: UInt64)], digits: Int, delta: @escaping (Int) -> Int) {
    self.steps = steps
    self.delta = delta
    cache = digits <= 16 ? Array(repeating: nil, count: 1 << digits) : []
    moveOf = digits <= 16 ? Array(repeating: -1, count: 1 << digits) : []
  }

  func list(saturated: Int) -> [Move] {
    guard saturated < cache.count else {
      return collapse(count: steps.count, saturated: saturated) {
        (steps[$0].mask, steps[$0].cost, Int32($0))
      }
    }
    if let cached = cache[saturated] { return cached }
    guard saturated != 0 else {
      let moves = collapse(count: steps.count, saturated: 0) { (steps[$0].mask, steps[$0].cost, Int32($0)) }
      cache[0] = moves
      return moves
    }
    // A mask's moves are those of the mask with one digit fewer, that digit held still: moves differing
    // only in it merge, the cheaper kept. Lists shrink as digits saturate, so this reads a short list
    // instead of every step (32.predicate: 402 steps, 8 192 masks). The shortest list listed already is
    // read, else the one without the lowest digit.
    var source = saturated & (saturated - 1)
    var rest = saturated
    while rest != 0 {
      let smaller = saturated & ~(rest & (0 &- rest))
      if let listed = cache[smaller], listed.count < cache[source]?.count ?? .max { source = smaller }
      rest &= rest - 1
    }
    let from = list(saturated: source)
    let moves = collapse(count: from.count, saturated: saturated) {
      (from[$0].moving, from[$0].cost, from[$0].step)
    }
    cache[saturated] = moves
    return moves
  }

  /// The cheapest of `count` candidates (masks of digits, costs, steps) for each set of digits below their
  /// cap that they move; among equal costs the smallest step, as one pass over the steps in order keeps.
  private func collapse(
    count: Int, saturated: Int, _ candidate: (Int) -> (mask: Int, cost: UInt64, step: Int32)
  ) -> [Move] {
    var moves: [Move] = []
    moves.reserveCapacity(count)
    // Grids of more than 16 digits (not cached) key the moves by a dictionary instead.
    var moveByMask: [Int: Int] = [:]
    for index in 0..<count {
      let (mask, cost, step) = candidate(index)
      let moving = mask & ~saturated
      guard moving != 0 else { continue }
      let existing =
        moving < moveOf.count ? (moveOf[moving] >= 0 ? Int(moveOf[moving]) : nil) : moveByMask[moving]
      if let existing {
        if (cost, step) < (moves[existing].cost, moves[existing].step) {
          moves[existing].cost = cost
          moves[existing].step = step
        }
      } else {
        if moving < moveOf.count {
          moveOf[moving] = Int32(moves.count)
        } else {
          moveByMask[moving] = moves.count
        }
        moves.append((delta(moving), cost, step, moving))
      }
    }
    for move in moves where move.moving < moveOf.count { moveOf[move.moving] = -1 }
    return moves
  }
}
