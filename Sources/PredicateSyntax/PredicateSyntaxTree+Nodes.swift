// Between the two forms of a parsed predicate: records to `PredicateNode` values (`PredicateParser.parse`,
// `PredicateSyntaxTree.predicate`), and `ExpressionNode` values to records (a format argument's value, which
// the parser receives as a node).

/// Builds `PredicateNode` trees from a parse's records, reading names from the input bytes. Everything is
/// read through buffers valid for one `with` call: the records are walked once, with no reference counting
/// per step.
struct NodeMaterializer {
  let records: UnsafeBufferPointer<SyntaxRecord>
  let components: UnsafeBufferPointer<ComponentRecord>
  let lists: UnsafeBufferPointer<Int32>
  let tokens: UnsafeBufferPointer<Token>
  let strings: [String]
  let input: UnsafeBufferPointer<UInt8>

  /// Calls `body` with a materializer over `parts`, whose names are bytes of `input` and whose spans index
  /// `tokens`.
  static func with<Value>(
    _ parts: borrowing SyntaxTreeParts, tokens: UnsafeBufferPointer<Token>, input: UnsafeBufferPointer<UInt8>,
    _ body: (NodeMaterializer) -> Value
  ) -> Value {
    parts.lists.withUnsafeBufferPointer { lists in
      body(
        NodeMaterializer(
          records: parts.records.buffer, components: parts.components.buffer, lists: lists, tokens: tokens,
          strings: parts.strings, input: input))
    }
  }

  @inline(__always)
  func range(_ span: TokenSpan) -> SourceRange { span.range(in: tokens) }

  func text(_ packed: PackedText) -> String { packed.string(input: input, strings: strings) }

  func predicate(_ index: Int32) -> PredicateNode {
    let record = records[Int(index)]
    let kind: PredicateNode.Kind
    switch record.tag {
    case .truePredicate: kind = .truePredicate
    case .falsePredicate: kind = .falsePredicate
    case .not: kind = .not(predicate(record.first))
    case .and: kind = .and(predicate(record.first), predicate(record.second))
    case .or: kind = .or(predicate(record.first), predicate(record.second))
    default:
      let comparison = Comparison(
        quantifier: record.quantifier, lhs: expression(record.first), op: record.comparisonOperator,
        options: record.options, rhs: expression(record.second),
        operatorRange: range(record.valueSpan))
      kind = .comparison(comparison)
    }
    return PredicateNode(kind, range: range(record.span))
  }

  func expression(_ index: Int32) -> ExpressionNode {
    let record = records[Int(index)]
    return ExpressionNode(expressionKind(record), range: range(record.span))
  }

  private func text(_ record: SyntaxRecord) -> String { text(PackedText(bits: record.value)) }

  // The two lists below are made at their size: `map` over a buffer slice grew them step by step.
  private func elements(_ record: SyntaxRecord) -> [ExpressionNode] {
    var elements: [ExpressionNode] = []
    elements.reserveCapacity(Int(record.third))
    for index in lists[Int(record.second)..<Int(record.second + record.third)] {
      elements.append(expression(index))
    }
    return elements
  }

  private func keyPathComponents(_ record: SyntaxRecord) -> [KeyPathComponent] {
    var keys: [KeyPathComponent] = []
    keys.reserveCapacity(Int(record.third))
    for component in components[Int(record.second)..<Int(record.second + record.third)] {
      keys.append(
        component.isOperator ? .collectionOperator(text(component.text)) : .key(text(component.text)))
    }
    return keys
  }

  private func indexKind(_ record: SyntaxRecord) -> IndexKind {
    switch record.indexForm {
    case .first: .first
    case .last: .last
    case .size: .size
    case .expression: .expression(expression(record.second))
    }
  }

  private func expressionKind(_ record: SyntaxRecord) -> ExpressionNode.Kind {
    switch record.tag {
    case .null: .constant(.null)
    case .bool: .constant(.bool(record.flag))
    case .integer: .constant(.integer(Int(Int64(bitPattern: record.value))))
    case .double: .constant(.double(Double(bitPattern: record.value)))
    case .string: .constant(.string(text(record)))
    case .evaluatedObject: .evaluatedObject
    case .anyKey: .anyKey
    case .variable: .variable(text(record))
    case .keyPath:
      .keyPath(
        base: record.first >= 0 ? expression(record.first) : nil, components: keyPathComponents(record))
    case .index: .index(expression(record.first), indexKind(record))
    case .aggregate: .aggregate(elements(record))
    case .subquery:
      .subquery(
        collection: expression(record.first), variable: text(record), predicate: predicate(record.second))
    case .function: .function(name: text(record), arguments: elements(record))
    case .functionCall:
      .functionCall(receiver: expression(record.first), selector: text(record), arguments: elements(record))
    case .cast: .cast(expression(record.first), type: expression(record.second))
    case .arithmetic:
      .arithmetic(record.arithmeticOperator, expression(record.first), expression(record.second))
    case .negate: .negate(expression(record.first))
    case .setOperation: .setOperation(record.setOperator, expression(record.first), expression(record.second))
    case .assignment: .assignment(variable: text(record), value: expression(record.first))
    case .ternary: .ternary(predicate(record.first), expression(record.second), expression(record.third))
    case .truePredicate, .falsePredicate, .not, .and, .or, .comparison:
      // The parser puts only expressions where an expression goes.
      preconditionFailure("a predicate record where an expression belongs")
    }
  }
}

extension SyntaxTreeParts {
  /// Appends `node` and everything under it as records; returns the node's record. The nodes come from a
  /// format argument: each spans the specifier's tokens, `span`, or, made by code, none.
  mutating func append(_ node: ExpressionNode, spanning span: TokenSpan) -> Int32 {
    var record = SyntaxRecord(.evaluatedObject, span: node.range == .synthesized ? .none : span)
    switch node.kind {
    case .constant(let value): return appendConstant(value, span: record.span)
    case .evaluatedObject: record.tag = .evaluatedObject
    case .anyKey: record.tag = .anyKey
    case .variable(let name):
      record.tag = .variable
      record.value = keep(name).bits
    case .keyPath(let base, let keys):
      record.tag = .keyPath
      record.first = base.map { append($0, spanning: span) } ?? -1
      record.second = Int32(truncatingIfNeeded: components.count)
      record.third = Int32(truncatingIfNeeded: keys.count)
      for key in keys {
        switch key {
        case .key(let name): components.append(ComponentRecord(isOperator: false, text: keep(name)))
        case .collectionOperator(let name):
          components.append(ComponentRecord(isOperator: true, text: keep(name)))
        }
      }
    case .index(let base, let index):
      record.tag = .index
      record.first = append(base, spanning: span)
      switch index {
      case .first: record.indexForm = .first
      case .last: record.indexForm = .last
      case .size: record.indexForm = .size
      case .expression(let expression):
        record.indexForm = .expression
        record.second = append(expression, spanning: span)
      }
    case .aggregate(let elements):
      record.tag = .aggregate
      (record.second, record.third) = appendList(elements, spanning: span)
    case .subquery(let collection, let variable, let predicate):
      record.tag = .subquery
      record.first = append(collection, spanning: span)
      record.second = append(predicate, spanning: span)
      record.value = keep(variable).bits
    case .function(let name, let arguments):
      record.tag = .function
      record.value = keep(name).bits
      (record.second, record.third) = appendList(arguments, spanning: span)
    case .functionCall(let receiver, let selector, let arguments):
      record.tag = .functionCall
      record.first = append(receiver, spanning: span)
      record.value = keep(selector).bits
      (record.second, record.third) = appendList(arguments, spanning: span)
    case .cast(let value, let type):
      record.tag = .cast
      record.first = append(value, spanning: span)
      record.second = append(type, spanning: span)
    case .arithmetic(let op, let left, let right):
      record.tag = .arithmetic
      record.arithmeticOperator = op
      record.first = append(left, spanning: span)
      record.second = append(right, spanning: span)
    case .negate(let operand):
      record.tag = .negate
      record.first = append(operand, spanning: span)
    case .setOperation(let op, let left, let right):
      record.tag = .setOperation
      record.setOperator = op
      record.first = append(left, spanning: span)
      record.second = append(right, spanning: span)
    case .assignment(let variable, let value):
      record.tag = .assignment
      record.value = keep(variable).bits
      record.first = append(value, spanning: span)
    case .ternary(let condition, let whenTrue, let whenFalse):
      record.tag = .ternary
      record.first = append(condition, spanning: span)
      record.second = append(whenTrue, spanning: span)
      record.third = append(whenFalse, spanning: span)
    }
    return append(record)
  }

  /// Appends `node` and everything under it as records, as `append(_:spanning:)` does an expression.
  mutating func append(_ node: PredicateNode, spanning span: TokenSpan) -> Int32 {
    var record = SyntaxRecord(.truePredicate, span: node.range == .synthesized ? .none : span)
    switch node.kind {
    case .truePredicate: record.tag = .truePredicate
    case .falsePredicate: record.tag = .falsePredicate
    case .not(let operand):
      record.tag = .not
      record.first = append(operand, spanning: span)
    case .and(let left, let right):
      record.tag = .and
      record.first = append(left, spanning: span)
      record.second = append(right, spanning: span)
    case .or(let left, let right):
      record.tag = .or
      record.first = append(left, spanning: span)
      record.second = append(right, spanning: span)
    case .comparison(let comparison):
      record.tag = .comparison
      record.quantifier = comparison.quantifier
      record.comparisonOperator = comparison.op
      record.options = comparison.options
      record.first = append(comparison.lhs, spanning: span)
      record.second = append(comparison.rhs, spanning: span)
      record.value = SyntaxRecord.packedSpan(comparison.operatorRange == .synthesized ? .none : span)
    }
    return append(record)
  }

  /// Appends a list's elements: where they start in `lists`, and how many.
  private mutating func appendList(_ elements: [ExpressionNode], spanning span: TokenSpan) -> (Int32, Int32) {
    let indices = elements.map { append($0, spanning: span) }
    let start = Int32(truncatingIfNeeded: lists.count)
    lists.append(contentsOf: indices)
    return (start, Int32(truncatingIfNeeded: indices.count))
  }
}
