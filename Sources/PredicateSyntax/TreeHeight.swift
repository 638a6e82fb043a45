/// Measures a tree without recursion, so code that recurses over trees can decide whether it needs
/// `LargeStack` before it starts.
enum TreeHeight {
  fileprivate enum Node {
    case predicate(PredicateNode)
    case expression(ExpressionNode)
  }

  /// The number of nodes on the longest path from the root, stopping early once it exceeds `limit`.
  static func height(of predicate: PredicateNode, exceeds limit: Int) -> Bool {
    height(of: .predicate(predicate), limit: limit) > limit
  }

  static func height(of expression: ExpressionNode, exceeds limit: Int) -> Bool {
    height(of: .expression(expression), limit: limit) > limit
  }

  private static func height(of root: Node, limit: Int) -> Int {
    var pending: [(Node, Int)] = [(root, 1)]
    var tallest = 0
    while let (node, depth) = pending.popLast() {
      tallest = Swift.max(tallest, depth)
      if tallest > limit { return tallest }
      for child in children(of: node) { pending.append((child, depth + 1)) }
    }
    return tallest
  }

  fileprivate static func children(of node: Node) -> [Node] {
    switch node {
    case .predicate(let predicate):
      switch predicate.kind {
      case .truePredicate, .falsePredicate: return []
      case .not(let operand): return [.predicate(operand)]
      case .and(let left, let right), .or(let left, let right): return [.predicate(left), .predicate(right)]
      case .comparison(let comparison): return [.expression(comparison.lhs), .expression(comparison.rhs)]
      }
    case .expression(let expression):
      switch expression.kind {
      case .constant, .evaluatedObject, .variable, .anyKey: return []
      case .keyPath(let base, _): return base.map { [.expression($0)] } ?? []
      case .index(let base, .expression(let index)): return [.expression(base), .expression(index)]
      case .index(let base, _): return [.expression(base)]
      case .aggregate(let elements), .function(_, let elements): return elements.map { .expression($0) }
      case .subquery(let collection, _, let predicate):
        return [.expression(collection), .predicate(predicate)]
      case .functionCall(let receiver, _, let arguments):
        return ([receiver] + arguments).map { .expression($0) }
      case .cast(let value, let type): return [.expression(value), .expression(type)]
      case .arithmetic(_, let left, let right), .setOperation(_, let left, let right):
        return [.expression(left), .expression(right)]
      case .negate(let operand), .assignment(_, let operand): return [.expression(operand)]
      case .ternary(let condition, let whenTrue, let whenFalse):
        return [.predicate(condition), .expression(whenTrue), .expression(whenFalse)]
      }
    }
  }
}

extension PredicateNode {
  /// Whether any expression in the tree satisfies `test`, at any depth: inside comparisons, `SUBQUERY`
  /// predicates, `TERNARY` conditions, function arguments.
  ///
  /// The search keeps its own stack rather than recursing, so it is safe on any tree the parser returns.
  public func containsExpression(where test: (ExpressionNode) throws -> Bool) rethrows -> Bool {
    var pending: [TreeHeight.Node] = [.predicate(self)]
    while let node = pending.popLast() {
      if case .expression(let expression) = node, try test(expression) { return true }
      pending.append(contentsOf: TreeHeight.children(of: node))
    }
    return false
  }
}
