/// A small integer program: minimise `costs · n` over non-negative integers `n` subject to linear rows.
///
/// The exact analysis asks, for one combination of count intervals, whether some collection of children
/// lands in it and what the cheapest one is; that is such a program, with one variable per class of children
/// and one or two rows per count. Solved by branch and bound over linear relaxations, each solved exactly by
/// the simplex method in rational arithmetic (Bland's rule, so it cannot cycle): the answer is exact, and
/// when the numbers outgrow 128 bits or the search outgrows ``nodeLimit`` the program says so instead of
/// guessing.
struct IntegerProgram: Sendable {
  enum Relation: Sendable { case atLeast, atMost }

  struct Row: Sendable {
    /// The variables with coefficient 1 (the counts are sums of classes, so no other coefficient arises).
    var variables: [Int]
    var relation: Relation
    var bound: Int
  }

  /// Why a program was not solved.
  enum Failure: Error {
    case overflow
    case tooManyNodes
  }

  var variableCount: Int
  /// Non-negative cost of one unit of each variable.
  var costs: [Int]
  var rows: [Row] = []

  /// The most branch-and-bound nodes one program may take before it gives up.
  static let nodeLimit = 20_000

  /// The cheapest solution costing less than `cutoff`, or `nil` when there is none.
  ///
  /// Every variable must be bounded by the rows (the exact analysis adds a row bounding their sum), so the
  /// search is finite. The relaxations need no such row: costs are non-negative, so they are bounded below.
  func minimum(below cutoff: Int? = nil) throws(Failure) -> (cost: Int, values: [Int])? {
    guard !rows.contains(where: { $0.relation == .atMost && $0.bound < 0 }) else { return nil }
    var best: (cost: Int, values: [Int])?
    var nodes = 0
    var pending: [[Row]] = [[]]
    while let extra = pending.popLast() {
      nodes += 1
      guard nodes <= Self.nodeLimit else { throw .tooManyNodes }
      let relaxation: LinearRelaxation.Solution?
      do {
        var linear = LinearRelaxation(program: self, extraRows: extra)
        relaxation = try linear.solve()
      } catch {
        throw .overflow
      }
      guard let relaxation else { continue }
      // Costs are integers, so no integer solution below this node beats ⌈relaxed optimum⌉.
      if let limit = best?.cost ?? cutoff, relaxation.objective.ceiling >= Int128(limit) { continue }
      if let fractional = relaxation.values.firstIndex(where: { !$0.isInteger }) {
        let value = relaxation.values[fractional]
        guard let low = Int(exactly: value.floor), let high = Int(exactly: value.ceiling) else {
          throw .overflow
        }
        // Depth first, the lower branch popped first: small solutions come early and prune the rest.
        pending.append(extra + [Row(variables: [fractional], relation: .atLeast, bound: high)])
        pending.append(extra + [Row(variables: [fractional], relation: .atMost, bound: low)])
        continue
      }
      var values: [Int] = []
      for value in relaxation.values {
        guard let integer = Int(exactly: value.numerator) else { throw .overflow }
        values.append(integer)
      }
      let cost = zip(costs, values).reduce(0) { $0 + $1.0 * $1.1 }
      if cost < best?.cost ?? cutoff ?? .max { best = (cost, values) }
    }
    return best
  }
}

extension IntegerProgram {
  /// The optimum of the linear relaxation (a lower bound on the program's) and where it is reached; nil when
  /// the relaxation has no solution.
  func relaxedMinimum() throws(Failure) -> (objective: ExactFraction, values: [ExactFraction])? {
    guard !rows.contains(where: { $0.relation == .atMost && $0.bound < 0 }) else { return nil }
    do {
      var linear = LinearRelaxation(program: self, extraRows: [])
      return try linear.solve().map { ($0.objective, $0.values) }
    } catch {
      throw .overflow
    }
  }
}

/// The linear relaxation of an ``IntegerProgram`` (plus branching rows), as a dense simplex tableau.
private struct LinearRelaxation {
  struct Solution {
    var objective: ExactFraction
    var values: [ExactFraction]
  }

  private var tableau: [[ExactFraction]]
  /// The basic variable of each row.
  private var basis: [Int]
  private let structural: Int
  private let artificialStart: Int
  private let columnCount: Int
  private let costs: [Int]

  /// Rows become equalities with a slack (`≤`) or a surplus and an artificial (`≥`); the right-hand sides
  /// are non-negative, so the slacks and artificials form the first basis.
  init(program: IntegerProgram, extraRows: [IntegerProgram.Row]) {
    let rows = program.rows + extraRows
    structural = program.variableCount
    costs = program.costs
    let slackCount = rows.count
    let artificialCount = rows.filter { $0.relation == .atLeast && $0.bound > 0 }.count
    artificialStart = structural + slackCount
    columnCount = artificialStart + artificialCount
    tableau = []
    basis = []
    var nextArtificial = artificialStart
    for (index, row) in rows.enumerated() {
      var line = Array(repeating: ExactFraction.zero, count: columnCount + 1)
      // A `≥ b` row with b ≤ 0 holds for every non-negative n: it is written `-Σ ≤ -b` with a slack.
      let flip = row.relation == .atLeast && row.bound <= 0
      let sign = row.relation == .atMost || flip ? 1 : -1
      for variable in row.variables {
        line[variable] = ExactFraction(integer: row.relation == .atMost ? 1 : (flip ? -1 : 1))
      }
      line[structural + index] = ExactFraction(integer: sign)
      line[columnCount] = ExactFraction(integer: flip ? -row.bound : row.bound)
      if row.relation == .atLeast && !flip {
        line[nextArtificial] = .one
        basis.append(nextArtificial)
        nextArtificial += 1
      } else {
        basis.append(structural + index)
      }
      tableau.append(line)
    }
  }

  mutating func solve() throws(ExactFraction.Overflow) -> Solution? {
    // Phase one: minimise the artificials' sum; positive at the optimum means no solution.
    if artificialStart < columnCount {
      let phaseOne = (0..<columnCount).map { $0 >= artificialStart ? 1 : 0 }
      let value = try optimise(costs: phaseOne, allowed: columnCount)
      guard value.isZero else { return nil }
      try driveOutArtificials()
    }
    let phaseTwo = (0..<columnCount).map { $0 < structural ? costs[$0] : 0 }
    let objective = try optimise(costs: phaseTwo, allowed: artificialStart)
    var values = Array(repeating: ExactFraction.zero, count: structural)
    for (row, variable) in basis.enumerated() where variable < structural {
      values[variable] = tableau[row][columnCount]
    }
    return Solution(objective: objective, values: values)
  }

  /// Minimises `costs` over the current feasible basis, entering only columns below `allowed`.
  private mutating func optimise(costs: [Int], allowed: Int) throws(ExactFraction.Overflow) -> ExactFraction {
    while true {
      // Reduced costs c_j − c_B·column_j; Bland's rule: the first improving column enters.
      var entering: Int?
      for column in 0..<allowed where !basis.contains(column) {
        var reduced = ExactFraction(integer: costs[column])
        for (row, variable) in basis.enumerated() where costs[variable] != 0 && !tableau[row][column].isZero {
          reduced = try reduced.subtracting(
            tableau[row][column].multiplied(by: ExactFraction(integer: costs[variable])))
        }
        if reduced.signum < 0 {
          entering = column
          break
        }
      }
      guard let entering else { break }
      var leaving: (row: Int, ratio: ExactFraction)?
      for row in tableau.indices where tableau[row][entering].signum > 0 {
        let ratio = try tableau[row][columnCount].divided(by: tableau[row][entering])
        if let current = leaving {
          if ratio < current.ratio || (ratio == current.ratio && basis[row] < basis[current.row]) {
            leaving = (row, ratio)
          }
        } else {
          leaving = (row, ratio)
        }
      }
      // Every variable is bounded by the rows, so the relaxation is never unbounded; stop if it were.
      guard let leaving else { break }
      try pivot(row: leaving.row, column: entering)
    }
    var value = ExactFraction.zero
    for (row, variable) in basis.enumerated() where costs[variable] != 0 {
      value = try value.adding(
        tableau[row][columnCount].multiplied(by: ExactFraction(integer: costs[variable])))
    }
    return value
  }

  /// After phase one, artificials still basic (at zero) are swapped for any other column of their row; a
  /// row with none is redundant and keeps its artificial at zero, which phase two never lets enter again.
  private mutating func driveOutArtificials() throws(ExactFraction.Overflow) {
    for row in tableau.indices where basis[row] >= artificialStart {
      if let column = (0..<artificialStart).first(where: { !tableau[row][$0].isZero && !basis.contains($0) })
      {
        try pivot(row: row, column: column)
      }
    }
  }

  private mutating func pivot(row pivotRow: Int, column: Int) throws(ExactFraction.Overflow) {
    let divisor = tableau[pivotRow][column]
    if divisor != .one {
      for index in tableau[pivotRow].indices where !tableau[pivotRow][index].isZero {
        tableau[pivotRow][index] = try tableau[pivotRow][index].divided(by: divisor)
      }
    }
    let pivotLine = tableau[pivotRow]
    for row in tableau.indices where row != pivotRow {
      let factor = tableau[row][column]
      guard !factor.isZero else { continue }
      for index in pivotLine.indices where !pivotLine[index].isZero {
        tableau[row][index] = try tableau[row][index].subtracting(pivotLine[index].multiplied(by: factor))
      }
    }
    basis[pivotRow] = column
  }
}
