import PredicateSyntax

/// Builds the recurring pieces of activation-rule ASTs, so generated rules have exactly the shape the
/// parser produces for the same text.
enum RuleBuilder {
  static let itemVariable = "extensionItem"
  static let attachmentVariable = "attachment"

  static func variable(_ name: String) -> ExpressionNode { ExpressionNode(.variable(name)) }

  static func keyPath(_ base: ExpressionNode?, _ components: KeyPathComponent...) -> ExpressionNode {
    ExpressionNode(.keyPath(base: base, components: components))
  }

  static func string(_ text: String) -> ExpressionNode { ExpressionNode(.constant(.string(text))) }
  static func integer(_ value: Int) -> ExpressionNode { ExpressionNode(.constant(.integer(value))) }

  /// `extensionItems`
  static var extensionItems: ExpressionNode { keyPath(nil, .key("extensionItems")) }
  /// `extensionItems.@count`
  static var extensionItemCount: ExpressionNode {
    keyPath(nil, .key("extensionItems"), .collectionOperator("count"))
  }
  /// `$extensionItem.attachments`
  static var attachments: ExpressionNode { keyPath(variable(itemVariable), .key("attachments")) }
  /// `$extensionItem.attachments.@count`
  static var attachmentCount: ExpressionNode {
    keyPath(variable(itemVariable), .key("attachments"), .collectionOperator("count"))
  }
  /// `$attachment.registeredTypeIdentifiers`
  static var registeredTypes: ExpressionNode {
    keyPath(variable(attachmentVariable), .key("registeredTypeIdentifiers"))
  }

  /// `QUANTIFIER $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "uti"`
  static func conforms(_ uti: String, quantifier: Quantifier = .any) -> PredicateNode {
    PredicateNode(
      .comparison(
        Comparison(quantifier: quantifier, lhs: registeredTypes, op: .utiConformsTo, rhs: string(uti))))
  }

  static func compare(_ lhs: ExpressionNode, _ op: ComparisonOperator, _ rhs: ExpressionNode) -> PredicateNode
  {
    PredicateNode(.comparison(Comparison(lhs: lhs, op: op, rhs: rhs)))
  }

  /// `SUBQUERY(collection, $variable, predicate).@count`
  static func subqueryCount(_ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode)
    -> ExpressionNode
  {
    keyPath(
      ExpressionNode(.subquery(collection: collection, variable: variable, predicate: predicate)),
      .collectionOperator("count"))
  }

  /// `SUBQUERY($extensionItem.attachments, $attachment, predicate).@count`
  static func attachmentSubqueryCount(_ predicate: PredicateNode) -> ExpressionNode {
    subqueryCount(attachments, attachmentVariable, predicate)
  }

  /// `SUBQUERY(extensionItems, $extensionItem, predicate).@count`
  static func itemSubqueryCount(_ predicate: PredicateNode) -> ExpressionNode {
    subqueryCount(extensionItems, itemVariable, predicate)
  }

  static func and(_ operands: [PredicateNode]) -> PredicateNode {
    chain(operands, PredicateNode.Kind.and, empty: .truePredicate)
  }

  static func or(_ operands: [PredicateNode]) -> PredicateNode {
    chain(operands, PredicateNode.Kind.or, empty: .falsePredicate)
  }

  /// Joins operands left-nested, the way the parser builds `a || b || c`.
  private static func chain(
    _ operands: [PredicateNode], _ make: (PredicateNode, PredicateNode) -> PredicateNode.Kind,
    empty: PredicateNode.Kind
  ) -> PredicateNode {
    guard var result = operands.first else { return PredicateNode(empty) }
    for operand in operands.dropFirst() { result = PredicateNode(make(result, operand)) }
    return result
  }
}
