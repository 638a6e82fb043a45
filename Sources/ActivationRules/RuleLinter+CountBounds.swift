import PredicateSyntax

extension RuleLinter {
  /// An upper bound on a SUBQUERY's count that a count of 0 also meets (`SUBQUERY(…).@count <= 2`), with
  /// no lower bound on the same SUBQUERY in its AND chain.
  struct ZeroAdmittingBound: Equatable {
    /// The comparison's UTF-8 offset in the rule.
    var offset: Int
    /// The comparison, shortened: `SUBQUERY(…).@count <= 2`.
    var written: String
    /// What a count of 0 lets through: "an item with no matching attachment".
    var collection: String
    /// The largest count the bound allows.
    var most: Int
  }

  /// The comparisons of `tree` (SUBQUERY predicates included) bounding a SUBQUERY's count from above only,
  /// so that a collection with nothing matching passes: `SUBQUERY($e.attachments, $a, …image…).@count <= 2`
  /// accepts an item holding only a PDF. Real rules write it believing it means "one or two images" (three
  /// of the 101 real rules in the tests' corpora); a lower bound on the same SUBQUERY anywhere in the same
  /// AND chain (`>= 1`, `> 0`, `== 2`, `BETWEEN {1, 2}`) makes the intent explicit and silences it.
  static func countsAdmittingZero(in tree: PredicateNode) -> [ZeroAdmittingBound] {
    var decided = Set<Int>()
    var found: [ZeroAdmittingBound] = []
    RuleAnalysis.visit(tree) { node in
      // Preorder: an AND chain's root comes before its operands, which it decides for the whole chain.
      var chain: [PredicateNode] = []
      flattenConjunction(node, into: &chain)
      let comparisons = chain.compactMap { operand -> (offset: Int, Comparison)? in
        guard case .comparison(let comparison) = operand.kind else { return nil }
        return (operand.range.start.offset, comparison)
      }
      for (offset, comparison) in comparisons where decided.insert(offset).inserted {
        guard let bound = Self.countBound(comparison), bound.admitsZero, let most = bound.most else {
          continue
        }
        let boundedBelow = comparisons.contains { other in
          guard let otherBound = Self.countBound(other.1) else { return false }
          return otherBound.subquery == bound.subquery && !otherBound.admitsZero
        }
        guard !boundedBelow else { continue }
        found.append(
          ZeroAdmittingBound(
            offset: offset, written: "SUBQUERY(…).@count \(bound.written)",
            collection: Self.emptyCollection(bound.subquery), most: most))
      }
    }
    return found
  }

  private static func flattenConjunction(_ node: PredicateNode, into operands: inout [PredicateNode]) {
    if case .and(let lhs, let rhs) = node.kind {
      flattenConjunction(lhs, into: &operands)
      flattenConjunction(rhs, into: &operands)
    } else {
      operands.append(node)
    }
  }

  /// A comparison of a SUBQUERY's count with numbers: the SUBQUERY, whether a count of 0 meets it, the
  /// largest count meeting it when that is a positive upper bound, and the operator and numbers as written.
  private static func countBound(_ comparison: Comparison) -> (
    subquery: ExpressionNode, admitsZero: Bool, most: Int?, written: String
  )? {
    guard comparison.quantifier == nil, comparison.options.isEmpty else { return nil }
    func subquery(_ expression: ExpressionNode) -> ExpressionNode? {
      guard case .keyPath(let base?, let components) = expression.kind,
        components == [.collectionOperator("count")], case .subquery = base.kind
      else { return nil }
      return base
    }
    func numbers(_ expression: ExpressionNode) -> [Int]? {
      switch expression.kind {
      case .constant(.integer(let value)): return [value]
      case .aggregate(let elements):
        let values = elements.compactMap { element -> Int? in
          if case .constant(.integer(let value)) = element.kind { return value }
          return nil
        }
        return values.count == elements.count ? values : nil
      default: return nil
      }
    }
    let op: ComparisonOperator
    let collection: ExpressionNode
    let values: [Int]
    if let found = subquery(comparison.lhs), let constants = numbers(comparison.rhs) {
      (op, collection, values) = (comparison.op, found, constants)
    } else if let found = subquery(comparison.rhs), let constants = numbers(comparison.lhs) {
      // `2 >= SUBQUERY(…).@count` reads as `SUBQUERY(…).@count <= 2`.
      let mirrored: [ComparisonOperator: ComparisonOperator] = [
        .lessThan: .greaterThan, .lessThanOrEqualTo: .greaterThanOrEqualTo, .greaterThan: .lessThan,
        .greaterThanOrEqualTo: .lessThanOrEqualTo, .equalTo: .equalTo, .notEqualTo: .notEqualTo,
      ]
      guard let flipped = mirrored[comparison.op] else { return nil }
      (op, collection, values) = (flipped, found, constants)
    } else {
      return nil
    }
    let written =
      op == .between
      ? "BETWEEN {\(values.map(String.init).joined(separator: ", "))}" : "\(op.rawValue) \(values.first ?? 0)"
    switch (op, values.count) {
    case (.lessThanOrEqualTo, 1):
      return (collection, values[0] >= 0, values[0] >= 1 ? values[0] : nil, written)
    case (.lessThan, 1): return (collection, values[0] > 0, values[0] > 1 ? values[0] - 1 : nil, written)
    case (.greaterThanOrEqualTo, 1): return (collection, values[0] <= 0, nil, written)
    case (.greaterThan, 1): return (collection, values[0] < 0, nil, written)
    case (.equalTo, 1): return (collection, values[0] == 0, nil, written)
    case (.notEqualTo, 1): return (collection, values[0] != 0, nil, written)
    // An explicit 0 as the lower end says it is meant: no finding (nil upper bound).
    case (.between, 2): return (collection, values[0] <= 0, nil, written)
    default: return nil
    }
  }

  /// What a SUBQUERY's collection with nothing matching is, in words.
  private static func emptyCollection(_ subquery: ExpressionNode) -> String {
    guard case .subquery(let collection, _, _) = subquery.kind,
      case .keyPath(_, let components) = collection.kind, let last = components.last
    else { return "a collection with no matching element" }
    switch last {
    case .key("extensionItems"): return "a share with no matching item"
    case .key("attachments"): return "an item with no matching attachment"
    case .key("registeredTypeIdentifiers"): return "an attachment with no matching type"
    default: return "a collection with no matching element"
    }
  }
}
