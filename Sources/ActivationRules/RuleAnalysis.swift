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
