/// The syntax tree as JSON, with the source range of every node: what `rulekit parse --dump` prints.
///
/// Keys appear in a fixed order, so the output is stable for golden tests and diffs. Shape:
/// every node is an object with `"kind"` and `"range"` (`{"start": {"line", "column", "offset"}, "end": …}`);
/// the other keys depend on the kind and are named after the AST's fields.
public enum SyntaxTreeJSON {
  /// Pretty-printed JSON for a predicate tree.
  public static func string(for predicate: PredicateNode) -> String {
    let encode = { @Sendable in render(value(predicate), indent: 0) }
    return TreeHeight.height(of: predicate, exceeds: LargeStack.inlineTreeHeightLimit)
      ? LargeStack.run(encode) : encode()
  }

  private indirect enum Value {
    case string(String)
    case number(String)
    case bool(Bool)
    case null
    case array([Value])
    case object([(String, Value)])
  }

  private static func value(_ range: SourceRange) -> Value {
    func position(_ position: SourcePosition) -> Value {
      .object([
        ("line", .number(String(position.line))), ("column", .number(String(position.column))),
        ("offset", .number(String(position.offset))),
      ])
    }
    return .object([("start", position(range.start)), ("end", position(range.end))])
  }

  private static func node(_ kind: String, _ range: SourceRange, _ fields: [(String, Value)]) -> Value {
    .object([("kind", .string(kind)), ("range", value(range))] + fields)
  }

  private static func value(_ predicate: PredicateNode) -> Value {
    switch predicate.kind {
    case .truePredicate: return node("truePredicate", predicate.range, [])
    case .falsePredicate: return node("falsePredicate", predicate.range, [])
    case .not(let operand): return node("not", predicate.range, [("operand", value(operand))])
    case .and(let left, let right):
      return node("and", predicate.range, [("left", value(left)), ("right", value(right))])
    case .or(let left, let right):
      return node("or", predicate.range, [("left", value(left)), ("right", value(right))])
    case .comparison(let comparison):
      var options: [Value] = []
      if comparison.options.contains(.caseInsensitive) { options.append(.string("c")) }
      if comparison.options.contains(.diacriticInsensitive) { options.append(.string("d")) }
      if comparison.options.contains(.normalized) { options.append(.string("n")) }
      if comparison.options.contains(.localeSensitive) { options.append(.string("l")) }
      return node(
        "comparison", predicate.range,
        [
          ("quantifier", comparison.quantifier.map { .string($0.rawValue) } ?? .null),
          ("operator", .string(comparison.op.rawValue)), ("options", .array(options)),
          ("operatorRange", value(comparison.operatorRange)), ("lhs", value(comparison.lhs)),
          ("rhs", value(comparison.rhs)),
        ])
    }
  }

  private static func value(_ constant: Constant) -> [(String, Value)] {
    switch constant {
    case .null: [("type", .string("null")), ("value", .null)]
    case .bool(let flag): [("type", .string("bool")), ("value", .bool(flag))]
    case .integer(let number): [("type", .string("integer")), ("value", .number(String(number)))]
    case .double(let number):
      // JSON has no infinities: those are written as their predicate text.
      number.isFinite
        ? [("type", .string("double")), ("value", .number(number.description))]
        : [("type", .string("double")), ("value", .string(PredicatePrinter.text(number)))]
    case .string(let text): [("type", .string("string")), ("value", .string(text))]
    }
  }

  private static func value(_ expression: ExpressionNode) -> Value {
    let range = expression.range
    switch expression.kind {
    case .constant(let constant): return node("constant", range, value(constant))
    case .evaluatedObject: return node("evaluatedObject", range, [])
    case .variable(let name): return node("variable", range, [("name", .string(name))])
    case .anyKey: return node("anyKey", range, [])
    case .keyPath(let base, let components):
      let parts: [Value] = components.map {
        switch $0 {
        case .key(let name): .object([("key", .string(name))])
        case .collectionOperator(let name): .object([("collectionOperator", .string(name))])
        }
      }
      return node("keyPath", range, [("base", base.map(value) ?? .null), ("components", .array(parts))])
    case .index(let base, let index):
      let indexValue: Value =
        switch index {
        case .first: .string("FIRST")
        case .last: .string("LAST")
        case .size: .string("SIZE")
        case .expression(let position): value(position)
        }
      return node("index", range, [("base", value(base)), ("index", indexValue)])
    case .aggregate(let elements):
      return node("aggregate", range, [("elements", .array(elements.map(value)))])
    case .subquery(let collection, let variable, let predicate):
      return node(
        "subquery", range,
        [("collection", value(collection)), ("variable", .string(variable)), ("predicate", value(predicate))])
    case .function(let name, let arguments):
      return node("function", range, [("name", .string(name)), ("arguments", .array(arguments.map(value)))])
    case .functionCall(let receiver, let selector, let arguments):
      return node(
        "functionCall", range,
        [
          ("receiver", value(receiver)), ("selector", .string(selector)),
          ("arguments", .array(arguments.map(value))),
        ])
    case .cast(let castValue, let type):
      return node("cast", range, [("value", value(castValue)), ("type", value(type))])
    case .arithmetic(let op, let left, let right):
      return node(
        "arithmetic", range,
        [("operator", .string(op.rawValue)), ("left", value(left)), ("right", value(right))])
    case .negate(let operand): return node("negate", range, [("operand", value(operand))])
    case .setOperation(let op, let left, let right):
      return node(
        "setOperation", range,
        [("operator", .string(op.rawValue)), ("left", value(left)), ("right", value(right))])
    case .assignment(let variable, let assigned):
      return node("assignment", range, [("variable", .string(variable)), ("value", value(assigned))])
    case .ternary(let condition, let whenTrue, let whenFalse):
      return node(
        "ternary", range,
        [("condition", value(condition)), ("whenTrue", value(whenTrue)), ("whenFalse", value(whenFalse))])
    }
  }

  private static func render(_ value: Value, indent: Int) -> String {
    let pad = String(repeating: "  ", count: indent + 1)
    let closing = String(repeating: "  ", count: indent)
    switch value {
    case .string(let text): return quoted(text)
    case .number(let text): return text
    case .bool(let flag): return flag ? "true" : "false"
    case .null: return "null"
    case .array(let items):
      guard !items.isEmpty else { return "[]" }
      return "[\n" + items.map { pad + render($0, indent: indent + 1) }.joined(separator: ",\n")
        + "\n\(closing)]"
    case .object(let fields):
      guard !fields.isEmpty else { return "{}" }
      let body = fields.map { pad + quoted($0.0) + ": " + render($0.1, indent: indent + 1) }
      return "{\n" + body.joined(separator: ",\n") + "\n\(closing)}"
    }
  }

  /// `text` as a JSON string: `"`, `\` and control characters escaped (`\u00XX` with lower-case hex digits).
  /// Shared with `PredicateValue`'s description in PredicateEvaluation, which writes values as JSON too.
  package static func quoted(_ text: String) -> String {
    var result = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\r": result += "\\r"
      case "\t": result += "\\t"
      case _ where scalar.value < 0x20: result += "\\u" + Lexer.hex(scalar.value, digits: 4).lowercased()
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}
