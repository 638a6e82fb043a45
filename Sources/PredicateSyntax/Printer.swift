/// Prints a predicate tree as predicate format-string text that parses back to an equal tree.
///
/// Two layouts: `.singleLine` (the canonical form: one line, single spaces, the fewest parentheses that leave
/// no reading open) and
/// `.pretty`, the layout of the Intune App SDK guide: `SUBQUERY (` ends its line, the three arguments follow
/// one per line indented by four spaces, an `OR` chain in statement position puts one clause per line, and
/// `).@count > 0` closes at the indentation of the line that opened it.
///
/// Round trip: for every tree the parser produces, `parse(print(tree)) == tree`. Trees built in code round-trip
/// too, with two exceptions that no text can express: NaN constants and keys that are not identifiers.
/// Keys that are reserved words print with `#`; strings are re-escaped; doubles print in the shortest form
/// that reads back as the same value.
public struct PredicatePrinter: Sendable {
  /// Where lines break.
  public enum Layout: Sendable, Hashable {
    /// Everything on one line.
    case singleLine
    /// The Intune guide's multi-line SUBQUERY layout.
    case pretty
  }

  /// How `AND`, `OR` are spelled (`NOT` is always `NOT`).
  public enum LogicalOperatorSpelling: Sendable, Hashable {
    /// `&&`, `||`: the Intune guide's spelling.
    case symbols
    /// `AND`, `OR`: Apple's `predicateFormat` spelling.
    case words
  }

  /// Whether to print on one line or in the Intune guide's indented layout.
  public var layout: Layout
  /// Whether `AND` and `OR` are printed as symbols or words.
  public var logicalOperators: LogicalOperatorSpelling
  /// Spaces per indentation level in the pretty layout.
  public var indentWidth: Int
  /// Print `a OR (b OR c)` as `a OR b OR c`: the text then no longer tells groupings apart, which is what
  /// ``PredicateNode/isEqualIgnoringGrouping(to:)`` compares.
  var flattensChains = false

  /// A printer with the given layout, operator spelling and indentation; the defaults print one line with
  /// `&&` and `||`.
  public init(
    layout: Layout = .singleLine, logicalOperators: LogicalOperatorSpelling = .symbols, indentWidth: Int = 4
  ) {
    self.layout = layout
    self.logicalOperators = logicalOperators
    self.indentWidth = indentWidth
  }

  /// The canonical one-line form.
  public static func canonical(_ predicate: PredicateNode) -> String {
    PredicatePrinter().string(for: predicate)
  }

  /// The Intune guide's multi-line layout.
  public static func pretty(_ predicate: PredicateNode) -> String {
    PredicatePrinter(layout: .pretty).string(for: predicate)
  }

  /// The text of a predicate.
  public func string(for predicate: PredicateNode) -> String {
    let print = { @Sendable in self.text(predicate, minimum: 0, indent: 0, statement: true) }
    return TreeHeight.height(of: predicate, exceeds: LargeStack.inlineTreeHeightLimit)
      ? LargeStack.run(print) : print()
  }

  /// The text of an expression.
  public func string(for expression: ExpressionNode) -> String {
    let print = { @Sendable in self.text(expression, minimum: 0, indent: 0) }
    return TreeHeight.height(of: expression, exceeds: LargeStack.inlineTreeHeightLimit)
      ? LargeStack.run(print) : print()
  }

  // MARK: - Predicates

  private var pretty: Bool { layout == .pretty }

  private func pad(_ indent: Int) -> String { String(repeating: " ", count: indent) }

  /// Binding strength, loosest first: OR 1, AND 2, NOT 3, everything else 4.
  private func precedence(_ predicate: PredicateNode) -> Int {
    switch predicate.kind {
    case .or: 1
    case .and: 2
    case .not: 3
    case .truePredicate, .falsePredicate, .comparison: 4
    }
  }

  /// `statement` marks the root and a SUBQUERY's predicate, where the pretty layout puts OR clauses on lines.
  private func text(_ predicate: PredicateNode, minimum: Int, indent: Int, statement: Bool = false) -> String
  {
    if precedence(predicate) < minimum {
      let body = text(predicate, minimum: 0, indent: indent + indentWidth)
      guard body.contains("\n") else { return "(\(body))" }
      return "(\n\(pad(indent + indentWidth))\(body)\n\(pad(indent)))"
    }
    switch predicate.kind {
    case .truePredicate: return "TRUEPREDICATE"
    case .falsePredicate: return "FALSEPREDICATE"
    case .not(let operand): return "NOT " + text(operand, minimum: 3, indent: indent)
    case .or:
      let clauses = chain(predicate, isLink: { if case .or = $0 { true } else { false } })
      // An AND inside an OR is parenthesised although AND binds tighter here: Apple documents no precedence
      // between them, and other NSPredicate grammars read `a OR b AND c` as `(a OR b) AND c`, so printed
      // rules (configure and convert write them into Info.plists) mean the same under either reading, and
      // `rulekit lint` has no AND-inside-OR note to give on them. IntuneMAMConfigurator's templates
      // parenthesise every clause for the same reason.
      return join(clauses, symbol: "||", word: "OR", minimum: 3, indent: indent, breakAlways: statement)
    case .and:
      let clauses = chain(predicate, isLink: { if case .and = $0 { true } else { false } })
      return join(clauses, symbol: "&&", word: "AND", minimum: 3, indent: indent, breakAlways: false)
    case .comparison(let comparison):
      var result = ""
      if let quantifier = comparison.quantifier { result += quantifier.rawValue + " " }
      result += text(comparison.lhs, minimum: 1, indent: indent)
      result += " " + comparison.op.rawValue + optionsText(comparison.options) + " "
      result += text(comparison.rhs, minimum: 1, indent: indent)
      return result
    }
  }

  /// The operands of a left-nested chain of one operator, left to right, found without recursion so a long
  /// chain costs no stack. With `flattensChains`, the operands of right operands of the same operator too.
  private func chain(_ predicate: PredicateNode, isLink: (PredicateNode.Kind) -> Bool) -> [PredicateNode] {
    if flattensChains {
      var operands: [PredicateNode] = []
      var pending = [predicate]
      while let node = pending.popLast() {
        switch node.kind {
        case .or(let left, let right) where isLink(node.kind),
          .and(let left, let right) where isLink(node.kind):
          pending.append(right)
          pending.append(left)
        default:
          operands.append(node)
        }
      }
      return operands
    }
    var rightOperands: [PredicateNode] = []
    var node = predicate
    while isLink(node.kind) {
      switch node.kind {
      case .or(let left, let right), .and(let left, let right):
        rightOperands.append(right)
        node = left
      default:
        break
      }
    }
    return [node] + rightOperands.reversed()
  }

  private func join(
    _ clauses: [PredicateNode], symbol: String, word: String, minimum: Int, indent: Int, breakAlways: Bool
  ) -> String {
    let spelled = logicalOperators == .symbols ? symbol : word
    let texts = clauses.map { text($0, minimum: minimum, indent: indent) }
    let breakLines = pretty && (breakAlways || texts.contains { $0.contains("\n") })
    let separator = breakLines ? " \(spelled)\n\(pad(indent))" : " \(spelled) "
    return texts.joined(separator: separator)
  }

  private func optionsText(_ options: ComparisonOptions) -> String {
    guard !options.isEmpty else { return "" }
    var letters = ""
    if options.contains(.caseInsensitive) { letters += "c" }
    if options.contains(.diacriticInsensitive) { letters += "d" }
    if options.contains(.normalized) { letters += "n" }
    if options.contains(.localeSensitive) { letters += "l" }
    return "[\(letters)]"
  }

  // MARK: - Expressions

  /// Binding strength: `:=` 1, set operations 2, `+ -` 3, `* /` 4, unary minus and negative numbers 5,
  /// `**` 6, postfix `.key` / `[index]` 7, primaries 8.
  private func precedence(_ expression: ExpressionNode) -> Int {
    switch expression.kind {
    case .assignment: 1
    case .setOperation: 2
    case .arithmetic(.add, _, _), .arithmetic(.subtract, _, _): 3
    case .arithmetic(.multiply, _, _), .arithmetic(.divide, _, _): 4
    case .negate: 5
    case .arithmetic(.power, _, _): 6
    case .constant(.integer(let value)) where value < 0: 5
    case .constant(.double(let value)) where value.sign == .minus && !value.isNaN: 5
    case .index: 7
    case .keyPath(let base, _): base == nil ? 8 : 7
    default: 8
    }
  }

  private func text(_ expression: ExpressionNode, minimum: Int, indent: Int) -> String {
    if precedence(expression) < minimum {
      return "(" + text(expression, minimum: 0, indent: indent) + ")"
    }
    switch expression.kind {
    case .constant(let constant):
      return text(constant)
    case .evaluatedObject:
      return "SELF"
    case .variable(let name):
      return "$" + name
    case .anyKey:
      return "ANYKEY"
    case .keyPath(let base, let components):
      let path = components.map(text).joined(separator: ".")
      guard let base else { return path }
      // A key path base is parenthesised so the parser keeps it apart instead of extending it.
      let baseText: String
      if case .keyPath = base.kind {
        baseText = "(" + text(base, minimum: 0, indent: indent) + ")"
      } else {
        baseText = text(base, minimum: 7, indent: indent)
      }
      return baseText + "." + path
    case .index(let base, let index):
      let indexText: String =
        switch index {
        case .first: "FIRST"
        case .last: "LAST"
        case .size: "SIZE"
        case .expression(let value): text(value, minimum: 0, indent: indent)
        }
      return text(base, minimum: 7, indent: indent) + "[" + indexText + "]"
    case .aggregate(let elements):
      return "{" + list(elements, indent: indent) + "}"
    case .subquery(let collection, let variable, let predicate):
      let collectionText = text(collection, minimum: 0, indent: indent + indentWidth)
      let predicateText = text(predicate, minimum: 0, indent: indent + indentWidth, statement: true)
      guard pretty else { return "SUBQUERY(\(collectionText), $\(variable), \(predicateText))" }
      let inner = pad(indent + indentWidth)
      return
        "SUBQUERY (\n\(inner)\(collectionText),\n\(inner)$\(variable),\n\(inner)\(predicateText)\n\(pad(indent)))"
    case .function(let name, let arguments):
      return name + "(" + list(arguments, indent: indent) + ")"
    case .functionCall(let receiver, let selector, let arguments):
      let rest = arguments.isEmpty ? "" : ", " + list(arguments, indent: indent)
      return "FUNCTION(" + text(receiver, minimum: 0, indent: indent) + ", " + quoted(selector) + rest + ")"
    case .cast(let value, let type):
      return "CAST(" + text(value, minimum: 0, indent: indent) + ", " + text(type, minimum: 0, indent: indent)
        + ")"
    case .arithmetic(let op, let left, let right):
      let (leftMinimum, rightMinimum) =
        switch op {
        case .add, .subtract: (3, 4)
        case .multiply, .divide: (4, 5)
        case .power: (7, 5)
        }
      return text(left, minimum: leftMinimum, indent: indent) + " \(op.rawValue) "
        + text(right, minimum: rightMinimum, indent: indent)
    case .negate(let operand):
      var operandText = text(operand, minimum: 5, indent: indent)
      if case .constant(let constant) = operand.kind, constant.isNumber {
        // `-5` would read back as the constant -5, not as the negation of 5.
        operandText = "(" + operandText + ")"
      }
      return operandText.hasPrefix("-") ? "- " + operandText : "-" + operandText
    case .setOperation(let op, let left, let right):
      return text(left, minimum: 2, indent: indent) + " \(op.rawValue) "
        + text(right, minimum: 3, indent: indent)
    case .assignment(let variable, let value):
      return "$\(variable) := " + text(value, minimum: 1, indent: indent)
    case .ternary(let condition, let whenTrue, let whenFalse):
      return "TERNARY(" + text(condition, minimum: 0, indent: indent) + ", "
        + text(whenTrue, minimum: 0, indent: indent) + ", " + text(whenFalse, minimum: 0, indent: indent)
        + ")"
    }
  }

  private func list(_ expressions: [ExpressionNode], indent: Int) -> String {
    expressions.map { text($0, minimum: 0, indent: indent) }.joined(separator: ", ")
  }

  private func text(_ component: KeyPathComponent) -> String {
    switch component {
    case .key(let name): Keyword.matching(name) == nil ? name : "#" + name
    case .collectionOperator(let name): "@" + name
    }
  }

  private func text(_ constant: Constant) -> String {
    switch constant {
    case .null: "NULL"
    case .bool(let value): value ? "TRUE" : "FALSE"
    case .integer(let value): String(value)
    case .double(let value): PredicatePrinter.text(value)
    case .string(let value): quoted(value)
    }
  }

  /// Shortest text that reads back as the same double; infinities use an exponent that overflows.
  static func text(_ value: Double) -> String {
    if value.isInfinite { return value < 0 ? "-1e999" : "1e999" }
    if value.isNaN { return "nan" }
    return value.description
  }

  /// A double-quoted string literal with `"`, `\`, and control characters escaped.
  private func quoted(_ value: String) -> String {
    var result = "\""
    for scalar in value.unicodeScalars {
      switch scalar {
      case "\"": result += "\\\""
      case "\\": result += "\\\\"
      case "\n": result += "\\n"
      case "\t": result += "\\t"
      case "\r": result += "\\r"
      case _ where scalar.value < 0x20 || scalar.value == 0x7F:
        result += "\\u" + Lexer.hex(scalar.value, digits: 4)
      default: result.unicodeScalars.append(scalar)
      }
    }
    return result + "\""
  }
}

extension Constant {
  var isNumber: Bool {
    switch self {
    case .integer, .double: true
    default: false
    }
  }
}

extension PredicateNode {
  /// The canonical one-line text of this predicate (`PredicatePrinter.canonical`).
  public var formatted: String { PredicatePrinter.canonical(self) }
}

extension PredicateNode {
  /// Whether this tree and `other` are equal except for how runs of one connective are grouped:
  /// `(a OR b) OR c`, `a OR (b OR c)` and the balanced tree the parser builds for a chain too long to nest
  /// to the left all say the same thing, because `AND` and `OR` are associative and every grouping evaluates
  /// the operands left to right. Like `==`, it ignores source ranges.
  public func isEqualIgnoringGrouping(to other: PredicateNode) -> Bool {
    if self == other { return true }
    var printer = PredicatePrinter()
    printer.flattensChains = true
    return printer.string(for: self) == printer.string(for: other)
  }
}
