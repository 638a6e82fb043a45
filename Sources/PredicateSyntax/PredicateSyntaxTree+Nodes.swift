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
  let operatorRanges: UnsafeBufferPointer<SourceRange>
  let strings: [String]
  let input: UnsafeBufferPointer<UInt8>

  /// Calls `body` with a materializer over `parts`, whose names are bytes of `input`.
  static func with<Value>(
    _ parts: borrowing SyntaxTreeParts, input: UnsafeBufferPointer<UInt8>, _ body: (NodeMaterializer) -> Value
  ) -> Value {
    parts.records.withUnsafeBufferPointer { records in
      parts.components.withUnsafeBufferPointer { components in
        parts.lists.withUnsafeBufferPointer { lists in
          parts.operatorRanges.withUnsafeBufferPointer { operatorRanges in
            body(
              NodeMaterializer(
                records: records, components: components, lists: lists, operatorRanges: operatorRanges,
                strings: parts.strings, input: input))
          }
        }
      }
    }
  }

  func text(_ packed: PackedText) -> String {
    if let number = packed.decodedNumber { return strings[number] }
    return String(decoding: UnsafeBufferPointer(rebasing: input[packed.inputSpan]), as: UTF8.self)
  }

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
        operatorRange: operatorRanges[Int(record.value)])
      kind = .comparison(comparison)
    }
    return PredicateNode(kind, range: record.range)
  }

  func expression(_ index: Int32) -> ExpressionNode {
    let record = records[Int(index)]
    return ExpressionNode(expressionKind(record), range: record.range)
  }

  private func text(_ record: SyntaxRecord) -> String { text(PackedText(bits: record.value)) }

  private func elements(_ record: SyntaxRecord) -> [ExpressionNode] {
    lists[Int(record.second)..<Int(record.second + record.third)].map { expression($0) }
  }

  private func keyPathComponents(_ record: SyntaxRecord) -> [KeyPathComponent] {
    components[Int(record.second)..<Int(record.second + record.third)].map { component in
      component.isOperator ? .collectionOperator(text(component.text)) : .key(text(component.text))
    }
  }

  private func expressionKind(_ record: SyntaxRecord) -> ExpressionNode.Kind {
    switch record.tag {
    case .null: .constant(.null)
    case .bool: .constant(.bool(record.detail == 1))
    case .integer: .constant(.integer(Int(Int64(bitPattern: record.value))))
    case .double: .constant(.double(Double(bitPattern: record.value)))
    case .string: .constant(.string(text(record)))
    case .evaluatedObject: .evaluatedObject
    case .anyKey: .anyKey
    case .variable: .variable(text(record))
    case .keyPath:
      .keyPath(
        base: record.first >= 0 ? expression(record.first) : nil, components: keyPathComponents(record))
    case .index:
      .index(
        expression(record.first),
        record.detail == 0
          ? .first
          : record.detail == 1
            ? .last
            : record.detail == 2
              ? .size
              : .expression(expression(record.second)))
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
  /// Appends `node` and everything under it as records; returns the node's record.
  mutating func append(_ node: ExpressionNode) -> Int32 {
    var record = SyntaxRecord(.evaluatedObject, range: node.range)
    switch node.kind {
    case .constant(.null): record.tag = .null
    case .constant(.bool(let flag)):
      record.tag = .bool
      record.detail = flag ? 1 : 0
    case .constant(.integer(let number)):
      record.tag = .integer
      record.value = UInt64(bitPattern: Int64(number))
    case .constant(.double(let number)):
      record.tag = .double
      record.value = number.bitPattern
    case .constant(.string(let text)):
      record.tag = .string
      record.value = keep(text).bits
    case .evaluatedObject: record.tag = .evaluatedObject
    case .anyKey: record.tag = .anyKey
    case .variable(let name):
      record.tag = .variable
      record.value = keep(name).bits
    case .keyPath(let base, let keys):
      record.tag = .keyPath
      record.first = base.map { append($0) } ?? -1
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
      record.first = append(base)
      switch index {
      case .first: record.detail = 0
      case .last: record.detail = 1
      case .size: record.detail = 2
      case .expression(let expression):
        record.detail = 3
        record.second = append(expression)
      }
    case .aggregate(let elements):
      record.tag = .aggregate
      (record.second, record.third) = appendList(elements)
    case .subquery(let collection, let variable, let predicate):
      record.tag = .subquery
      record.first = append(collection)
      record.second = append(predicate)
      record.value = keep(variable).bits
    case .function(let name, let arguments):
      record.tag = .function
      record.value = keep(name).bits
      (record.second, record.third) = appendList(arguments)
    case .functionCall(let receiver, let selector, let arguments):
      record.tag = .functionCall
      record.first = append(receiver)
      record.value = keep(selector).bits
      (record.second, record.third) = appendList(arguments)
    case .cast(let value, let type):
      record.tag = .cast
      record.first = append(value)
      record.second = append(type)
    case .arithmetic(let op, let left, let right):
      record.tag = .arithmetic
      record.arithmeticOperator = op
      record.first = append(left)
      record.second = append(right)
    case .negate(let operand):
      record.tag = .negate
      record.first = append(operand)
    case .setOperation(let op, let left, let right):
      record.tag = .setOperation
      record.setOperator = op
      record.first = append(left)
      record.second = append(right)
    case .assignment(let variable, let value):
      record.tag = .assignment
      record.value = keep(variable).bits
      record.first = append(value)
    case .ternary(let condition, let whenTrue, let whenFalse):
      record.tag = .ternary
      record.first = append(condition)
      record.second = append(whenTrue)
      record.third = append(whenFalse)
    }
    return append(record)
  }

  /// Appends `node` and everything under it as records; returns the node's record.
  mutating func append(_ node: PredicateNode) -> Int32 {
    var record = SyntaxRecord(.truePredicate, range: node.range)
    switch node.kind {
    case .truePredicate: record.tag = .truePredicate
    case .falsePredicate: record.tag = .falsePredicate
    case .not(let operand):
      record.tag = .not
      record.first = append(operand)
    case .and(let left, let right):
      record.tag = .and
      record.first = append(left)
      record.second = append(right)
    case .or(let left, let right):
      record.tag = .or
      record.first = append(left)
      record.second = append(right)
    case .comparison(let comparison):
      record.tag = .comparison
      record.quantifier = comparison.quantifier
      record.comparisonOperator = comparison.op
      record.options = comparison.options
      record.first = append(comparison.lhs)
      record.second = append(comparison.rhs)
      record.value = UInt64(operatorRanges.count)
      operatorRanges.append(comparison.operatorRange)
    }
    return append(record)
  }

  /// Appends a list's elements: where they start in `lists`, and how many.
  private mutating func appendList(_ elements: [ExpressionNode]) -> (Int32, Int32) {
    let indices = elements.map { append($0) }
    let start = Int32(truncatingIfNeeded: lists.count)
    lists.append(contentsOf: indices)
    return (start, Int32(truncatingIfNeeded: indices.count))
  }
}
