/// A small integer program: minimise `costs · n` over non-negative integers `n` subject to linear rows.
///
/// The exact analysis asks, for one combination of count intervals, whether some collection of children
/// lands in it and what the cheapest one is; that is such a program, with one variable per class of children
/// and one or two rows per count. Solved by branch and bound over linear relaxations, each solved exactly by
/// the dual simplex method in rational arithmetic (Bland's rule, so it cannot cycle): the answer is exact,
/// and when the numbers outgrow 128 bits or the search outgrows ``nodeLimit`` (or a relaxation
/// ``pivotLimit``) the program says so instead of guessing.
struct IntegerProgram: Sendable {
  enum Relation: Sendable { case atLeast, atMost }

  struct Row: Sendable {
    /// The variables with coefficient 1 (the counts are sums of classes).
    var variables: [Int]
    /// The variables with coefficient −1: the search by parts compares sums of choices with the number of
    /// children (`w ≤ N`), a variable of the same program.
    var subtracted: [Int] = []
    var relation: Relation
    var bound: Int

    init(variables: [Int], subtracted: [Int] = [], relation: Relation, bound: Int) {
      self.variables = variables
      self.subtracted = subtracted
      self.relation = relation
      self.bound = bound
    }
  }

  /// Why a program was not solved.
  enum Failure: Error {
    case overflow
    case tooManyNodes
    case tooManyPivots
  }

  var variableCount: Int
  /// Non-negative cost of one unit of each variable.
  var costs: [Int]
  var rows: [Row] = []

  /// The most branch-and-bound nodes one program may take before it gives up.
  static let nodeLimit = 20_000

  /// The most pivots one linear relaxation may take before it gives up (Bland's rule cannot cycle; this
  /// only bounds the work).
  static let pivotLimit = 10_000

  /// The cheapest solution costing less than `cutoff`, or `nil` when there is none.
  ///
  /// Every variable must be bounded by the rows (the exact analysis adds a row bounding their sum), so the
  /// search is finite. The relaxations need no such row: costs are non-negative, so they are bounded below.
  func minimum(below cutoff: Int? = nil) throws(Failure) -> (cost: Int, values: [Int])? {
    // A sum of non-negative variables is never below 0.
    guard !rows.contains(where: { $0.relation == .atMost && $0.bound < 0 && $0.subtracted.isEmpty }) else {
      return nil
    }
    var best: (cost: Int, values: [Int])?
    var nodes = 0
    var pending: [[Row]] = [[]]
    while let extra = pending.popLast() {
      nodes += 1
      guard nodes <= Self.nodeLimit else { throw .tooManyNodes }
      var linear = try LinearRelaxation(program: self, extraRows: extra)
      let relaxation = try linear.solve()
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

/// The linear relaxation of an ``IntegerProgram`` (plus branching rows), solved by the dual simplex
/// method on a condensed tableau (a row per constraint, a column per nonbasic variable).
///
/// Every cost is non-negative, so the basis of the rows' slacks is dual feasible from the start: a `≥ b`
/// row is written `s − Σ n = −b`, a slack that starts negative, and each pivot makes one negative slack
/// basic no more, until every basic value is non-negative (optimal) or a row shows that none can be
/// (`s = −b − Σ (positive)·n` with `−b < 0`: no solution). Unlike the two-phase primal method this needs
/// no artificial variables and no first phase. Pivots never make a reduced cost negative, so a row added to
/// a solved relaxation (``add(_:)``, written over its nonbasic variables) leaves it dual feasible, and
/// solving again goes on from its optimum: the interval search adds each count's rows to its parent's
/// relaxation instead of solving the longer program anew. The leaving row is the one whose basic variable
/// has the smallest index, and the entering column the smallest index among the ratio test's ties (Bland's
/// rule, read on the dual), so it cannot cycle; ``IntegerProgram/pivotLimit`` guards the loop all the same,
/// and passing it is reported, never guessed past.
struct LinearRelaxation: Sendable {
  struct Solution {
    var objective: ExactFraction
    var values: [ExactFraction]
  }

  /// `rowCount` rows of `width` entries: each constraint's coefficients of the nonbasic variables and,
  /// last, its right-hand side (the basic variable's value).
  private var tableau: [ExactFraction] = []
  /// The reduced costs of the nonbasic variables, negated, and last the objective's value.
  private var objective: [ExactFraction]
  private var rowCount = 0
  private let width: Int
  /// The variable basic in each row, and the variable of each nonbasic column: structural variables are
  /// `0..<variableCount`, the slack of row `r` is `variableCount + r`.
  private var basic: [Int] = []
  private var nonbasic: [Int]
  /// Where each variable is: its column when nonbasic, `-1 - row` when basic.
  private var place: [Int]
  private let variableCount: Int

  /// The relaxation of no rows: minimise `costs · n` over `n ≥ 0` (every cost non-negative).
  init(costs: [Int]) {
    variableCount = costs.count
    width = variableCount + 1
    nonbasic = Array(0..<variableCount)
    place = Array(0..<variableCount)
    objective = costs.map { ExactFraction(integer: -$0) } + [.zero]
  }

  init(program: IntegerProgram, extraRows: [IntegerProgram.Row]) throws(IntegerProgram.Failure) {
    self.init(costs: program.costs)
    for row in program.rows + extraRows { try add(row) }
  }

  /// Adds `row`, written over the current nonbasic variables: each basic variable of the row is replaced
  /// by its row's expression. Its slack becomes basic; the relaxation stays dual feasible.
  mutating func add(_ row: IntegerProgram.Row) throws(IntegerProgram.Failure) {
    // A `≥` row is written as its negation, `−Σ ≤ −b`; each coefficient is then ±1: adding or
    // subtracting, never multiplying by it.
    let atMost = row.relation == .atMost
    // The new row is written in place at the tableau's end: a line of its own, appended after, was an
    // allocation and a copy per row, and rows are added at every node of the interval search.
    let line = tableau.count
    for _ in 0..<width { tableau.append(.zero) }
    tableau[line + width - 1] = ExactFraction(integer: atMost ? row.bound : -row.bound)
    /// Adds `variable` with coefficient +1 (`added`) or −1 to the new row.
    func enter(_ variable: Int, added: Bool) throws(ExactFraction.Overflow) {
      let position = place[variable]
      if position >= 0 {
        tableau[line + position] = try tableau[line + position].adding(added ? .one : .minusOne)
        return
      }
      // n = rhs − Σ T·(nonbasic): the row gains −coefficient·T (and its right-hand side loses
      // coefficient·rhs).
      let start = (-1 - position) * width
      for column in 0..<width where !tableau[start + column].isZero {
        tableau[line + column] =
          added
          ? try tableau[line + column].subtracting(tableau[start + column])
          : try tableau[line + column].adding(tableau[start + column])
      }
    }
    do {
      for variable in row.variables { try enter(variable, added: atMost) }
      for variable in row.subtracted { try enter(variable, added: !atMost) }
    } catch {
      // The partial row goes: the relaxation is left as it was.
      tableau.removeLast(width)
      throw .overflow
    }
    basic.append(variableCount + rowCount)
    place.append(-1 - rowCount)
    rowCount += 1
  }

  mutating func solve() throws(IntegerProgram.Failure) -> Solution? {
    var pivots = 0
    while true {
      let outcome: Step
      do {
        outcome = try step()
      } catch {
        throw .overflow
      }
      switch outcome {
      case .optimal: return solution
      case .infeasible: return nil
      case .pivoted:
        pivots += 1
        guard pivots < IntegerProgram.pivotLimit else { throw .tooManyPivots }
      }
    }
  }

  private enum Step { case optimal, infeasible, pivoted }

  /// One iteration of the dual simplex method.
  private mutating func step() throws(ExactFraction.Overflow) -> Step {
    let rhs = width - 1
    // Leaving: the negative basic value whose variable has the smallest index.
    var leaving: Int?
    for row in 0..<rowCount where tableau[row * width + rhs].signum < 0 {
      if let current = leaving, basic[current] < basic[row] { continue }
      leaving = row
    }
    guard let leaving else { return .optimal }
    // Entering: among the row's negative coefficients a_j, the least reduced cost per unit, d_j / −a_j
    // (`objective` holds t_j = −d_j), ties to the smallest variable index. With a < 0, t₁/a₁ < t₂/a₂
    // exactly when t₁·a₂ < t₂·a₁ (a₁·a₂ > 0): compared by products, which for the integers most entries
    // are cost no common divisor, where quotients would.
    var entering: Int?
    for column in 0..<rhs where tableau[leaving * width + column].signum < 0 {
      if let current = entering {
        let left = try objective[column].multiplied(by: tableau[leaving * width + current])
        let right = try objective[current].multiplied(by: tableau[leaving * width + column])
        guard left < right || (left == right && nonbasic[column] < nonbasic[current]) else { continue }
      }
      entering = column
    }
    guard let entering else { return .infeasible }
    try pivot(row: leaving, column: entering)
    return .pivoted
  }

  /// The basic solution: each structural variable's value, and the objective's.
  private var solution: Solution {
    var values = Array(repeating: ExactFraction.zero, count: variableCount)
    for (row, variable) in basic.enumerated() where variable < variableCount {
      values[variable] = tableau[row * width + width - 1]
    }
    return Solution(objective: objective[width - 1], values: values)
  }

  /// Exchanges the basic variable of `pivotRow` with the nonbasic one of `column`.
  private mutating func pivot(row pivotRow: Int, column: Int) throws(ExactFraction.Overflow) {
    let pivotStart = pivotRow * width
    let divisor = tableau[pivotStart + column]
    // The pivot row solved for the entering variable; the leaving one takes its column, coefficient 1/p.
    for index in 0..<width where index != column && !tableau[pivotStart + index].isZero {
      tableau[pivotStart + index] = try tableau[pivotStart + index].divided(by: divisor)
    }
    tableau[pivotStart + column] = try ExactFraction.one.divided(by: divisor)
    for row in 0..<rowCount where row != pivotRow {
      let start = row * width
      let factor = tableau[start + column]
      guard !factor.isZero else { continue }
      for index in 0..<width where index != column && !tableau[pivotStart + index].isZero {
        tableau[start + index] = try tableau[start + index].subtracting(
          tableau[pivotStart + index].multiplied(by: factor))
      }
      tableau[start + column] = try tableau[pivotStart + column].multiplied(by: factor).negated
    }
    let factor = objective[column]
    if !factor.isZero {
      for index in 0..<width where index != column && !tableau[pivotStart + index].isZero {
        objective[index] = try objective[index].subtracting(
          tableau[pivotStart + index].multiplied(by: factor))
      }
      objective[column] = try tableau[pivotStart + column].multiplied(by: factor).negated
    }
    let (entering, leaving) = (nonbasic[column], basic[pivotRow])
    (basic[pivotRow], nonbasic[column]) = (entering, leaving)
    place[entering] = -1 - pivotRow
    place[leaving] = column
  }
}
