import PredicateSyntax

/// Conditions inside a SUBQUERY's predicate that do not depend on its element, moved out of it.
///
/// Real rules test a count of an enclosing level inside a SUBQUERY: Threema's item condition ends with
/// `AND extensionItems.@count <= 20` (real-rules-holdout2/31.predicate), and an attachment condition may read
/// `$e.attachments.@count`. ``ExactModel`` models a count only at the level whose children it counts, so it
/// refused these rules although they hold nothing but counts and type tests. Such a condition `C` has one
/// value for every element the SUBQUERY visits (the evaluator binds only the SUBQUERY's variable; `SELF` and
/// every other variable keep their values), so a comparison `Q` reading `SUBQUERY(X, $v, P)` is split on it
/// (Shannon expansion):
///
///     Q(SUBQUERY(X, $v, P)) ≡ (C AND Q(SUBQUERY(X, $v, P[C := TRUE])))
///                           OR (NOT C AND Q(SUBQUERY(X, $v, P[C := FALSE])))
///
/// which holds for an empty `X` too (both SUBQUERYs are then empty). Comparisons are rewritten from the
/// innermost out, so a condition of the context read two SUBQUERYs deep moves out one level at a time until
/// it sits where ``ExactModel`` counts its collection. Only conditions free of the SUBQUERY's variable and
/// of anything whose value could change between two evaluations (assignments, functions) are moved; the
/// exact analysis reads the rewritten rule, every other command the rule as written.
enum OuterConditions {
  /// The most conditions one comparison is split on: each doubles the comparison. A rule with more keeps
  /// them in place, and the exact analysis says why it cannot decide it.
  static let maximumSplits = 4

  /// `rule` with every comparison split on the conditions its SUBQUERYs' predicates hold that do not depend
  /// on their elements (see the type's documentation); `rule` itself when there are none.
  static func split(_ rule: PredicateNode) -> PredicateNode { splitting(rule) ?? rule }

  /// The split form of `rule`, or nil when splitting changes nothing: most rules have no such condition,
  /// and rebuilding their trees node by node cost 4 % of a large rule's analysis.
  private static func splitting(_ rule: PredicateNode) -> PredicateNode? {
    var copy = rule
    switch rule.kind {
    case .truePredicate, .falsePredicate: return nil
    case .not(let operand):
      guard let operand = splitting(operand) else { return nil }
      copy.kind = .not(operand)
    case .and(let lhs, let rhs):
      let (left, right) = (splitting(lhs), splitting(rhs))
      guard left != nil || right != nil else { return nil }
      copy.kind = .and(left ?? lhs, right ?? rhs)
    case .or(let lhs, let rhs):
      let (left, right) = (splitting(lhs), splitting(rhs))
      guard left != nil || right != nil else { return nil }
      copy.kind = .or(left ?? lhs, right ?? rhs)
    case .comparison(var comparison):
      let (left, right) = (splitting(comparison.lhs), splitting(comparison.rhs))
      comparison.lhs = left ?? comparison.lhs
      comparison.rhs = right ?? comparison.rhs
      var conditions: [PredicateNode] = []
      collectConditions(in: comparison.lhs, into: &conditions)
      collectConditions(in: comparison.rhs, into: &conditions)
      guard !conditions.isEmpty, conditions.count <= maximumSplits else {
        guard left != nil || right != nil else { return nil }
        copy.kind = .comparison(comparison)
        return copy
      }
      // One clause per assignment of truth values: the conditions as they are assigned, and the comparison
      // with each condition replaced by its value inside the SUBQUERYs it was found in.
      var clauses: [PredicateNode] = []
      for assignment in 0..<(1 << conditions.count) {
        let values = conditions.indices.map { assignment & (1 << $0) != 0 }
        var substituted = comparison
        substituted.lhs = substitute(conditions, values, in: comparison.lhs)
        substituted.rhs = substitute(conditions, values, in: comparison.rhs)
        var clause = PredicateNode(.comparison(substituted), range: rule.range)
        for (condition, value) in zip(conditions, values).reversed() {
          clause = PredicateNode(.and(value ? condition : PredicateNode(.not(condition)), clause))
        }
        clauses.append(clause)
      }
      return clauses.dropFirst().reduce(clauses[0]) { PredicateNode(.or($0, $1)) }
    }
    return copy
  }

  /// `expression` with the predicate of every SUBQUERY in it split, or nil when that changes nothing.
  private static func splitting(_ expression: ExpressionNode) -> ExpressionNode? {
    guard containsSubquery(expression) else { return nil }
    var changed = false
    let result = mapSubqueries(in: expression) { collection, variable, predicate in
      let (newCollection, newPredicate) = (splitting(collection), splitting(predicate))
      if newCollection != nil || newPredicate != nil { changed = true }
      return (newCollection ?? collection, variable, newPredicate ?? predicate)
    }
    return changed ? result : nil
  }

  /// Whether a SUBQUERY occurs in `expression` (outside the predicates of SUBQUERYs).
  private static func containsSubquery(_ expression: ExpressionNode) -> Bool {
    !visit(expression, bound: []) { node, _ in
      if case .subquery = node.kind { return false }
      return true
    }
  }

  /// Adds the conditions of the SUBQUERYs `expression` holds (not those nested in their predicates'
  /// comparisons, which were split where they are) that do not depend on their elements.
  private static func collectConditions(in expression: ExpressionNode, into conditions: inout [PredicateNode])
  {
    _ = mapSubqueries(in: expression) { collection, variable, predicate in
      collectConditions(in: collection, into: &conditions)
      forEachCondition(in: predicate) { condition in
        if isIndependent(condition, of: variable), !conditions.contains(condition) {
          conditions.append(condition)
        }
      }
      return (collection, variable, predicate)
    }
  }

  /// `expression` with each condition replaced by its value in the predicates of the SUBQUERYs it holds,
  /// where the condition does not depend on the SUBQUERY's element.
  private static func substitute(
    _ conditions: [PredicateNode], _ values: [Bool], in expression: ExpressionNode
  ) -> ExpressionNode {
    mapSubqueries(in: expression) { collection, variable, predicate in
      let replaced = replacing(predicate) { condition in
        guard let index = conditions.firstIndex(of: condition), isIndependent(condition, of: variable) else {
          return nil
        }
        return PredicateNode(values[index] ? .truePredicate : .falsePredicate, range: condition.range)
      }
      return (substitute(conditions, values, in: collection), variable, replaced)
    }
  }

  /// Calls `body` with each comparison of `predicate`'s boolean structure (under NOT, AND and OR).
  private static func forEachCondition(in predicate: PredicateNode, _ body: (PredicateNode) -> Void) {
    switch predicate.kind {
    case .truePredicate, .falsePredicate: break
    case .not(let operand): forEachCondition(in: operand, body)
    case .and(let lhs, let rhs), .or(let lhs, let rhs):
      forEachCondition(in: lhs, body)
      forEachCondition(in: rhs, body)
    case .comparison: body(predicate)
    }
  }

  /// `predicate` with the comparisons of its boolean structure that `replacement` gives a node for replaced.
  private static func replacing(
    _ predicate: PredicateNode, _ replacement: (PredicateNode) -> PredicateNode?
  ) -> PredicateNode {
    var copy = predicate
    switch predicate.kind {
    case .truePredicate, .falsePredicate: return predicate
    case .not(let operand): copy.kind = .not(replacing(operand, replacement))
    case .and(let lhs, let rhs): copy.kind = .and(replacing(lhs, replacement), replacing(rhs, replacement))
    case .or(let lhs, let rhs): copy.kind = .or(replacing(lhs, replacement), replacing(rhs, replacement))
    case .comparison: return replacement(predicate) ?? predicate
    }
    return copy
  }

  /// Whether `condition` has one value for every element bound to `$variable`: it does not read the
  /// variable, and nothing in it can give another value when evaluated again.
  static func isIndependent(_ condition: PredicateNode, of variable: String) -> Bool {
    visit(condition, bound: []) { expression, bound in
      switch expression.kind {
      case .variable(let name) where name == variable && !bound.contains(name): false
      case .assignment, .function, .functionCall: false
      default: true
      }
    }
  }

  /// Calls `body` with every expression of `predicate` and the variables bound around it inside `predicate`,
  /// until `body` returns false; returns false when it did.
  @discardableResult
  private static func visit(
    _ predicate: PredicateNode, bound: Set<String>, _ body: (ExpressionNode, Set<String>) -> Bool
  ) -> Bool {
    switch predicate.kind {
    case .truePredicate, .falsePredicate: return true
    case .not(let operand): return visit(operand, bound: bound, body)
    case .and(let lhs, let rhs), .or(let lhs, let rhs):
      return visit(lhs, bound: bound, body) && visit(rhs, bound: bound, body)
    case .comparison(let comparison):
      return visit(comparison.lhs, bound: bound, body) && visit(comparison.rhs, bound: bound, body)
    }
  }

  @discardableResult
  private static func visit(
    _ expression: ExpressionNode, bound: Set<String>, _ body: (ExpressionNode, Set<String>) -> Bool
  ) -> Bool {
    guard body(expression, bound) else { return false }
    func all(_ nodes: [ExpressionNode]) -> Bool { nodes.allSatisfy { visit($0, bound: bound, body) } }
    switch expression.kind {
    case .constant, .evaluatedObject, .variable, .anyKey: return true
    case .keyPath(let base, _): return base.map { visit($0, bound: bound, body) } ?? true
    case .index(let collection, let index):
      guard visit(collection, bound: bound, body) else { return false }
      if case .expression(let key) = index { return visit(key, bound: bound, body) }
      return true
    case .aggregate(let elements), .function(_, let elements): return all(elements)
    case .subquery(let collection, let variable, let predicate):
      return visit(collection, bound: bound, body) && visit(predicate, bound: bound.union([variable]), body)
    case .functionCall(let receiver, _, let arguments): return all([receiver] + arguments)
    case .cast(let value, let type): return all([value, type])
    case .arithmetic(_, let lhs, let rhs), .setOperation(_, let lhs, let rhs): return all([lhs, rhs])
    case .negate(let operand): return visit(operand, bound: bound, body)
    case .assignment(_, let value): return visit(value, bound: bound, body)
    case .ternary(let condition, let whenTrue, let whenFalse):
      return visit(condition, bound: bound, body) && all([whenTrue, whenFalse])
    }
  }

  /// `expression` with each SUBQUERY in it (outside the predicates of SUBQUERYs) rebuilt by `transform`
  /// from its collection, variable and predicate.
  private static func mapSubqueries(
    in expression: ExpressionNode,
    _ transform: (ExpressionNode, String, PredicateNode) -> (ExpressionNode, String, PredicateNode)
  ) -> ExpressionNode {
    func map(_ node: ExpressionNode) -> ExpressionNode { mapSubqueries(in: node, transform) }
    var copy = expression
    switch expression.kind {
    case .constant, .evaluatedObject, .variable, .anyKey: return expression
    case .keyPath(let base, let components): copy.kind = .keyPath(base: base.map(map), components: components)
    case .index(let collection, let index):
      if case .expression(let key) = index {
        copy.kind = .index(map(collection), .expression(map(key)))
      } else {
        copy.kind = .index(map(collection), index)
      }
    case .aggregate(let elements): copy.kind = .aggregate(elements.map(map))
    case .subquery(let collection, let variable, let predicate):
      let (newCollection, newVariable, newPredicate) = transform(collection, variable, predicate)
      copy.kind = .subquery(collection: newCollection, variable: newVariable, predicate: newPredicate)
    case .function(let name, let arguments): copy.kind = .function(name: name, arguments: arguments.map(map))
    case .functionCall(let receiver, let selector, let arguments):
      copy.kind = .functionCall(receiver: map(receiver), selector: selector, arguments: arguments.map(map))
    case .cast(let value, let type): copy.kind = .cast(map(value), type: map(type))
    case .arithmetic(let op, let lhs, let rhs): copy.kind = .arithmetic(op, map(lhs), map(rhs))
    case .negate(let operand): copy.kind = .negate(map(operand))
    case .setOperation(let op, let lhs, let rhs): copy.kind = .setOperation(op, map(lhs), map(rhs))
    case .assignment(let variable, let value): copy.kind = .assignment(variable: variable, value: map(value))
    case .ternary(let condition, let whenTrue, let whenFalse):
      copy.kind = .ternary(condition, map(whenTrue), map(whenFalse))
    }
    return copy
  }
}
