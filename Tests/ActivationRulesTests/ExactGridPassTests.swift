import TestSupport
import Testing

@testable import ActivationRules

/// The grid search (a pass over reached cells only, moves listed per mask of saturated digits and derived
/// from one another) against the plain pass it replaces: every cell in order, every step in order, a cost
/// kept only when strictly lower. Not just the same costs: the same states in the same order and the same
/// cheapest children, ties included.
@Suite struct ExactGridPassTests {
  typealias Step = LevelStates.Step

  /// What the plain pass finds: each reachable cell's counts, cost and children, in grid order.
  static func plainPass(steps: [Step], caps: [Int32]) -> [(counts: [Int], cost: ExactCost, children: [Int])] {
    let radix = caps.indices.map { slot in caps[..<slot].reduce(1) { $0 * (Int($1) + 1) } }
    let cellCount = caps.reduce(1) { $0 * (Int($1) + 1) }
    let digits = { (cell: Int) in caps.indices.map { (cell / radix[$0]) % (Int(caps[$0]) + 1) } }
    var cost: [ExactCost?] = Array(repeating: nil, count: cellCount)
    var parent = Array(repeating: (cell: -1, step: -1), count: cellCount)
    cost[0] = ExactCost()
    for cell in 0..<cellCount {
      guard let here = cost[cell] else { continue }
      let counts = digits(cell)
      for (index, step) in steps.enumerated() {
        let raised = step.increments.filter { counts[$0] < caps[$0] }
        guard !raised.isEmpty else { continue }
        let target = cell + raised.reduce(0) { $0 + radix[$1] }
        if cost[target].map({ here + step.cost < $0 }) ?? true {
          cost[target] = here + step.cost
          parent[target] = (cell, index)
        }
      }
    }
    return (0..<cellCount).compactMap { cell in
      guard let found = cost[cell] else { return nil }
      var children: [Int] = []
      var current = cell
      while parent[current].cell >= 0 {
        children.append(steps[parent[current].step].child)
        current = parent[current].cell
      }
      return (digits(cell), found, children.reversed())
    }
  }

  static func expectSamePass(steps: [Step], caps: [Int32], _ comment: Comment) {
    var level = LevelStates()
    guard level.exploreGrid(steps: steps, caps: caps) else {
      Issue.record("the grid refused the level: \(comment)")
      return
    }
    let expected = plainPass(steps: steps, caps: caps)
    #expect(level.stateCount == expected.count, comment)
    for (state, plain) in expected.enumerated() where state < level.stateCount {
      #expect(caps.indices.map { level.count(state, slot: $0) } == plain.counts, comment)
      #expect(level.costs[state] == plain.cost, comment)
      #expect(level.children(of: state) == plain.children, comment)
    }
  }

  /// Random levels: caps 1 to 3, steps raising random sets of slots at costs drawn from few values (so that
  /// ties are common), some grids mostly unreached (few steps, each raising several slots).
  @Test("grid = plain pass on 200 seeded levels (states, costs, children)")
  func gridAgreesWithThePlainPass() {
    var random = SeededGenerator(seed: 18_14)
    for round in 0..<200 {
      let slots = Int.random(in: 1...7, using: &random)
      let caps = (0..<slots).map { _ in Int32.random(in: 1...3, using: &random) }
      let steps: [Step] = (0..<Int.random(in: 1...12, using: &random)).map { child in
        var increments = (0..<slots).filter { _ in random.chance(0.4) }
        if increments.isEmpty { increments = [Int.random(in: 0..<slots, using: &random)] }
        let cost = ExactCost(
          items: 1, attachments: Int.random(in: 1...2, using: &random),
          types: Int.random(in: 0...2, using: &random))
        return (increments, child, cost)
      }
      Self.expectSamePass(steps: steps, caps: caps, "round \(round): caps \(caps), steps \(steps)")
    }
  }

  /// A grid where few cells are reached: two steps raising every slot, or all but the last; the cells
  /// between them are never reached and must not become states.
  @Test func sparseGrid() {
    let caps: [Int32] = [2, 2, 2, 1]
    let steps: [Step] = [
      ([0, 1, 2, 3], 0, ExactCost(items: 1, attachments: 1, types: 0)),
      ([0, 1, 2], 1, ExactCost(items: 1, attachments: 1, types: 0)),
    ]
    Self.expectSamePass(steps: steps, caps: caps, "sparse grid")
    var level = LevelStates()
    let explored = level.exploreGrid(steps: steps, caps: caps)
    #expect(explored)
    // 5 of the 54 cells: empty, (1,1,1,0), (1,1,1,1), (2,2,2,0) and (2,2,2,1).
    #expect(level.stateCount == 5)
  }

  /// Steps that move the same digits once some are saturated: the cheapest is kept, and among equal costs
  /// the first step, whichever list the moves were derived from.
  @Test func tiesKeepTheFirstStep() {
    let caps: [Int32] = [1, 1, 2]
    let cheap = ExactCost(items: 1, attachments: 1, types: 0)
    let steps: [Step] = [
      ([0, 2], 0, ExactCost(items: 1, attachments: 1, types: 1)),
      ([1, 2], 1, cheap),
      ([0, 1, 2], 2, cheap),
      ([2], 3, cheap),
      ([0, 2], 4, cheap),
    ]
    Self.expectSamePass(steps: steps, caps: caps, "ties")
  }
}
