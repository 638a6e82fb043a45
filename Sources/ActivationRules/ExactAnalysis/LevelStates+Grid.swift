/// The count search over a dense grid: every vector of saturated counts is a cell of one array, numbered
/// in mixed radix (the first count varies fastest), so a cell's cost is found by index instead of by
/// hashing its counts.
///
/// Adding a child never lowers a count and raises at least one that is below its cap (a step that would
/// raise none is no step), so it always leads to a cell with a larger number: visiting the cells in
/// increasing order relaxes every cell after all of its predecessors, and one pass finds the cheapest cost
/// of every reachable cell — the same answer as Dijkstra's algorithm, without a heap or a hash table.
/// The pass touches every cell, reachable or not, once per step, so it serves levels whose grid is small
/// (``maximumGridCells``); larger ones keep the hashed search.
extension LevelStates {
  /// The most cells the grid search allocates (16 bytes each): its pass costs cells × steps.
  static let maximumGridCells = 1 << 20

  /// Finds every reachable state and its cheapest collection by one pass over the grid; false, leaving the
  /// states untouched, when the grid has more than ``maximumGridCells`` cells, the counts do not pack, or a
  /// cost could outgrow its 21 bits.
  mutating func exploreGrid(steps: [Step], caps: [Int32]) -> Bool {
    guard caps.count <= 64, let layout = Self.packing(caps: caps) else { return false }
    var radix: [Int] = []
    var cellCount = 1
    for cap in caps {
      radix.append(cellCount)
      let (product, overflow) = cellCount.multipliedReportingOverflow(by: Int(cap) + 1)
      guard !overflow, product <= Self.maximumGridCells else { return false }
      cellCount = product
    }
    // A cheapest path raises an unsaturated count at every step, so it has at most Σ caps steps.
    let longestPath = caps.reduce(0) { $0 + Int($1) }
    let largestStep = steps.map { Swift.max($0.cost.items, $0.cost.attachments, $0.cost.types) }.max() ?? 0
    let (largestCost, overflow) = longestPath.multipliedReportingOverflow(by: largestStep)
    guard !overflow, largestCost < 1 << 21 else { return false }

    let stepSlots = steps.map { $0.increments.filter { caps[$0] > 0 } }
    let stepDelta = stepSlots.map { $0.reduce(0) { $0 + radix[$1] } }
    let stepMask = stepSlots.map { $0.reduce(UInt64(0)) { $0 | 1 << UInt64($1) } }
    let stepCost = steps.map(\.cost.folded)
    var cost = [UInt64](repeating: .max, count: cellCount)
    var parent = [Int32](repeating: -1, count: cellCount)
    var via = [Int32](repeating: -1, count: cellCount)
    cost[0] = 0
    var digits = [Int32](repeating: 0, count: caps.count)
    // Slots at their cap in the current cell: a step raising one of them moves fewer counts.
    var saturated = caps.indices.reduce(UInt64(0)) { caps[$1] == 0 ? $0 | 1 << UInt64($1) : $0 }
    for cell in 0..<cellCount {
      if cell > 0 { Self.advance(&digits, &saturated, caps: caps) }
      let here = cost[cell]
      guard here != .max else { continue }
      for step in steps.indices {
        var target = cell + stepDelta[step]
        if stepMask[step] & saturated != 0 {
          target = cell
          for slot in stepSlots[step] where digits[slot] < caps[slot] { target += radix[slot] }
          if target == cell { continue }
        }
        let next = here + stepCost[step]
        if next < cost[target] {
          cost[target] = next
          parent[target] = Int32(cell)
          via[target] = Int32(step)
        }
      }
    }

    // Number the reachable cells in grid order and record them as the hashed search does.
    self.layout = layout
    self.caps = caps
    var stateOf = [Int32](repeating: -1, count: cellCount)
    digits = Array(repeating: 0, count: caps.count)
    saturated = 0
    for cell in 0..<cellCount {
      if cell > 0 { Self.advance(&digits, &saturated, caps: caps) }
      guard cost[cell] != .max else { continue }
      stateOf[cell] = Int32(packed.count)
      var state = PackedState()
      for (slot, count) in digits.enumerated() where count > 0 {
        state[layout[slot].offset / 64] |= UInt64(count) << UInt64(layout[slot].offset % 64)
      }
      packed.append(state)
      costs.append(ExactCost(folded: cost[cell]))
      // A parent's cell is smaller, so it is numbered already.
      let previous = parent[cell]
      parents.append(
        previous < 0 ? (-1, -1) : (stateOf[Int(previous)], Int32(steps[Int(via[cell])].child)))
    }
    return true
  }

  /// Moves `digits` to the next cell in grid order, keeping `saturated` (slots at their cap) in step.
  private static func advance(_ digits: inout [Int32], _ saturated: inout UInt64, caps: [Int32]) {
    var slot = 0
    while slot < digits.count {
      if digits[slot] < caps[slot] {
        digits[slot] += 1
        if digits[slot] == caps[slot] { saturated |= 1 << UInt64(slot) }
        return
      }
      digits[slot] = 0
      if caps[slot] > 0 { saturated &= ~(1 << UInt64(slot)) }
      slot += 1
    }
  }
}
