import PredicateSyntax

/// Facts about a predicate rule read off its tree.
public enum RuleAnalysis {
  /// Every type a UTI test compares against, in text order, without repeats (case-insensitive).
  public static func mentionedTypes(_ tree: PredicateNode) -> [String] {
    var seen = Set<String>()
    return utiTests(tree).compactMap { TwinInjector.utiLiteral($0.comparison) }
      .filter { seen.insert($0.lowercased()).inserted }
  }

  /// A UTI test and where it is.
  public struct UTITest: Sendable, Hashable {
    /// The comparison.
    public var comparison: Comparison
    /// Where the comparison is in the rule's text.
    public var range: SourceRange
  }

  /// Every `UTI-CONFORMS-TO`/`UTI-EQUALS` comparison with a literal type, at any depth, in text order.
  public static func utiTests(_ tree: PredicateNode) -> [UTITest] {
    var result: [UTITest] = []
    visit(tree) { node in
      if case .comparison(let comparison) = node.kind, TwinInjector.utiLiteral(comparison) != nil {
        result.append(UTITest(comparison: comparison, range: node.range))
      }
    }
    return result
  }

  /// Calls `body` on every predicate node, parents before children, left to right.
  public static func visit(_ node: PredicateNode, _ body: (PredicateNode) -> Void) {
    body(node)
    switch node.kind {
    case .truePredicate, .falsePredicate: break
    case .not(let operand): visit(operand, body)
    case .and(let lhs, let rhs), .or(let lhs, let rhs):
      visit(lhs, body)
      visit(rhs, body)
    case .comparison(let comparison):
      visit(comparison.lhs, body)
      visit(comparison.rhs, body)
    }
  }

  static func visit(_ expression: ExpressionNode, _ body: (PredicateNode) -> Void) {
    _ = ExpressionWalker.mapPredicates(expression) { predicate in
      visit(predicate, body)
      return predicate
    }
  }
}

extension RuleAnalysis {
  /// The keys `tree` reads that enumerated extension contexts never set: anything but `extensionItems`,
  /// `attachments` and `registeredTypeIdentifiers` (an item's `attributedContentText`, say), sorted. A rule
  /// reading them is not tried on the values that would change its answer, so an enumeration says nothing
  /// about whether it ever or always activates.
  public static func keysBeyondEnumeratedContexts(_ tree: PredicateNode) -> [String] {
    var keys: Set<String> = []
    func walk(_ expression: ExpressionNode) {
      switch expression.kind {
      case .keyPath(let base, let components):
        for case .key(let key) in components { keys.insert(key) }
        if let base { walk(base) }
      case .index(let collection, let index):
        walk(collection)
        if case .expression(let inner) = index { walk(inner) }
      case .aggregate(let elements), .function(_, let elements): elements.forEach(walk)
      case .subquery(let collection, _, _): walk(collection)
      case .functionCall(let receiver, _, let arguments):
        walk(receiver)
        arguments.forEach(walk)
      case .cast(let value, let type):
        walk(value)
        walk(type)
      case .arithmetic(_, let lhs, let rhs), .setOperation(_, let lhs, let rhs),
        .ternary(_, let lhs, let rhs):
        walk(lhs)
        walk(rhs)
      case .negate(let operand), .assignment(_, let operand): walk(operand)
      case .constant, .evaluatedObject, .variable, .anyKey: break
      }
    }
    // Every predicate, nested ones too (in SUBQUERY and TERNARY), through `visit`.
    visit(tree) { node in
      guard case .comparison(let comparison) = node.kind else { return }
      walk(comparison.lhs)
      walk(comparison.rhs)
    }
    return keys.subtracting(["extensionItems", "attachments", "registeredTypeIdentifiers"]).sorted()
  }
}
