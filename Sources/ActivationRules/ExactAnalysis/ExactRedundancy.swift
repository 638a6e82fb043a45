import PredicateSyntax
import UniformTypes

/// Clauses a rule can drop without changing what it accepts, decided over every context with
/// ``ExactRuleAnalysis``: the linter's `redundant-clause` finding for rules inside the exact fragment.
enum ExactRedundancy {
  /// The most count states (all levels) of a rule whose clauses are checked one by one; larger rules keep
  /// the syntactic check. The real corpus's predicate rules need at most 82, but rule 32 (2 606 states, twenty
  /// clauses) would take seconds.
  static let maximumStates = 1_000

  /// The most clauses checked one by one: each is an exact comparison of the whole rule, so a rule of a few
  /// hundred (a crash hunt's `||` chain of 200 type tests took 15 s) keeps the syntactic check. The real
  /// corpus's predicate rules have a dozen or so.
  static let maximumClauses = 64

  /// The operands of `&&`/`||` chains (at any depth, SUBQUERY bodies included) whose removal leaves a rule
  /// that accepts exactly the contexts `tree` accepts, in source order.
  ///
  /// Clauses are removed one after another, outer ones first and the last first among equals, keeping each
  /// removal that changes nothing: the clauses returned can all go together (of `A || A` only the second
  /// is reported; a disjunct another implies is reported whole), and of a narrower and a wider test the
  /// narrower one is reported, wherever it stands.
  ///
  /// - Throws: ``ExactRuleAnalysis/Undecidable`` when `tree` is outside the fragment the engine decides;
  ///   the caller then keeps its syntactic check.
  static func redundantClauses(in tree: PredicateNode, registry: TypeRegistry) throws(ExactRuleAnalysis
    .Undecidable)
    -> [PredicateNode]
  {
    // Searches the rule once first: an undecidable rule says so instead of reporting nothing, and a rule
    // whose search is large (each clause costs one more) keeps the cheap syntactic check.
    let search = try ExactSearch(rules: [tree], registry: registry)
    let states = search.attachments.stateCount + search.items.stateCount + search.contextStateCount
    guard states <= maximumStates else {
      throw ExactRuleAnalysis.Undecidable(
        reason: "\(states) count states, more than a check per clause follows (ExactRedundancy.maximumStates)"
      )
    }
    // Each clause with its depth: chain operands, SUBQUERY bodies and NOT going one level down.
    var clauses: [(node: PredicateNode, depth: Int)] = []
    func collect(_ node: PredicateNode, depth: Int) {
      switch node.kind {
      case .truePredicate, .falsePredicate: break
      case .not(let operand): collect(operand, depth: depth + 1)
      case .and(let lhs, let rhs), .or(let lhs, let rhs):
        for operand in [lhs, rhs] {
          // An operand chaining the same operator is part of this chain: its operands are the clauses.
          if sameOperator(operand, node) {
            collect(operand, depth: depth)
          } else {
            clauses.append((operand, depth))
            collect(operand, depth: depth + 1)
          }
        }
      case .comparison(let comparison):
        for side in [comparison.lhs, comparison.rhs] {
          _ = ExpressionWalker.mapPredicates(side) { predicate in
            collect(predicate, depth: depth + 1)
            return predicate
          }
        }
      }
    }
    collect(tree, depth: 0)
    // Synthesized nodes (a dictionary's conversion) share one range and cannot be told apart.
    clauses.removeAll { $0.node.range == .synthesized }
    guard clauses.count <= maximumClauses else {
      throw ExactRuleAnalysis.Undecidable(
        reason: "\(clauses.count) clauses, more than a check each follows (ExactRedundancy.maximumClauses)")
    }
    var current = tree
    var redundant: [PredicateNode] = []
    // Outer clauses first, so a redundant disjunct is reported whole rather than piece by piece; within
    // one depth the last first.
    let ordered = clauses.sorted {
      ($0.depth, -$0.node.range.start.offset) < ($1.depth, -$1.node.range.start.offset)
    }.map(\.node)
    for clause in ordered {
      guard let reduced = removing(clause.range, from: current),
        let comparison = try? ExactRuleAnalysis.compare(tree, reduced, registry: registry, keep: 0),
        comparison.rulesAgree
      else { continue }
      current = reduced
      redundant.append(clause)
    }
    return redundant.reversed()
  }

  private static func sameOperator(_ operand: PredicateNode, _ parent: PredicateNode) -> Bool {
    switch (operand.kind, parent.kind) {
    case (.and, .and), (.or, .or): true
    default: false
    }
  }

  /// `node` without the chain operand at `target` (its sibling takes its place), or nil when no operand of
  /// `node` has that range (it went with an earlier removal).
  static func removing(_ target: SourceRange, from node: PredicateNode) -> PredicateNode? {
    var found = false
    func remove(_ node: PredicateNode) -> PredicateNode {
      var copy = node
      switch node.kind {
      case .truePredicate, .falsePredicate: return node
      case .not(let operand): copy.kind = .not(remove(operand))
      case .and(let lhs, let rhs), .or(let lhs, let rhs):
        if !found, lhs.range == target {
          found = true
          return rhs
        }
        if !found, rhs.range == target {
          found = true
          return lhs
        }
        let isAnd: Bool
        if case .and = node.kind { isAnd = true } else { isAnd = false }
        copy.kind = isAnd ? .and(remove(lhs), remove(rhs)) : .or(remove(lhs), remove(rhs))
      case .comparison(var comparison):
        comparison.lhs = ExpressionWalker.mapPredicates(comparison.lhs, remove)
        comparison.rhs = ExpressionWalker.mapPredicates(comparison.rhs, remove)
        copy.kind = .comparison(comparison)
      }
      return copy
    }
    let result = remove(node)
    return found ? result : nil
  }
}
