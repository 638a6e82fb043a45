// The abstract syntax tree of Apple's predicate format-string language.
//
// Names avoid Foundation's `Predicate` and `Expression` and Swift Testing's `SourceLocation`, so a file can
// import all three without qualifying.
//
// Every node is an immutable value that carries the `SourceRange` it was read from. Equality and hashing
// deliberately ignore ranges: two trees are equal when they say the same thing, which is what
// `parse(print(tree)) == tree` needs. Compare ranges explicitly where they matter.

/// A predicate: something that evaluates to true or false.
public struct PredicateNode: Sendable, Hashable, CustomStringConvertible {
  /// What the predicate is: a constant, a negation, a conjunction, a disjunction or a comparison.
  public var kind: Kind
  /// Where the predicate was written; ``SourceRange/synthesized`` for built nodes. Not compared by `==`.
  public var range: SourceRange

  /// A predicate of `kind`, read from `range` (or built by code when `range` is left out).
  public init(_ kind: Kind, range: SourceRange = .synthesized) {
    self.kind = kind
    self.range = range
  }

  /// The forms a predicate takes; each case holds its operands.
  ///
  /// Only the cases holding nodes are `indirect` (one heap box each): the constants are stored inline.
  public enum Kind: Sendable, Hashable {
    /// `TRUEPREDICATE`
    case truePredicate
    /// `FALSEPREDICATE`
    case falsePredicate
    /// `NOT p`, `!p`
    indirect case not(PredicateNode)
    /// `a AND b`, `a && b`. Binary, as NSCompoundPredicate builds it from text; chains nest to the left.
    indirect case and(PredicateNode, PredicateNode)
    /// `a OR b`, `a || b`. Binary; chains nest to the left.
    indirect case or(PredicateNode, PredicateNode)
    /// `[ANY|SOME|ALL|NONE] lhs OP[options] rhs`; boxed too, so a predicate stays small to copy.
    indirect case comparison(Comparison)
  }

  /// Predicates are equal when they say the same thing; where they were written does not count.
  public static func == (lhs: PredicateNode, rhs: PredicateNode) -> Bool { lhs.kind == rhs.kind }
  /// Hashes the structure only, matching `==`.
  public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

  /// A debugging description; use `PredicatePrinter` for real output.
  public var description: String { String(describing: kind) }
}

/// The aggregate qualifier in front of a comparison.
public enum Quantifier: String, Sendable, Hashable, Codable, CaseIterable {
  case any = "ANY"
  /// `SOME` means the same as `ANY`; kept apart so the printer can say what the author wrote.
  case some = "SOME"
  case all = "ALL"
  case none = "NONE"
}

/// A comparison operator. Each alternate spelling (`==`, `=>`, `<>` …) maps to one case.
public enum ComparisonOperator: String, Sendable, Hashable, Codable, CaseIterable {
  case equalTo = "=="
  case notEqualTo = "!="
  case lessThan = "<"
  case lessThanOrEqualTo = "<="
  case greaterThan = ">"
  case greaterThanOrEqualTo = ">="
  case between = "BETWEEN"
  case `in` = "IN"
  case contains = "CONTAINS"
  case beginsWith = "BEGINSWITH"
  case endsWith = "ENDSWITH"
  case like = "LIKE"
  case matches = "MATCHES"
  case utiConformsTo = "UTI-CONFORMS-TO"
  case utiEquals = "UTI-EQUALS"
}

/// The bracketed options after a comparison operator: `[c]`, `[d]`, `[n]`, and Apple's private `[l]`.
public struct ComparisonOptions: OptionSet, Sendable, Hashable, Codable {
  /// The option bits: `c` 1, `d` 2, `n` 4, `l` 8.
  public var rawValue: UInt8
  /// Options from their bits (see the static members for each bit).
  public init(rawValue: UInt8) { self.rawValue = rawValue }

  /// `c`: compare without regard to case (Unicode case folding).
  public static let caseInsensitive = ComparisonOptions(rawValue: 0x01)
  /// `d`: compare without regard to diacritics.
  public static let diacriticInsensitive = ComparisonOptions(rawValue: 0x02)
  /// `n`: the strings are already normalized; compare them as given.
  public static let normalized = ComparisonOptions(rawValue: 0x04)
  /// `l`: locale-sensitive comparison (undocumented by Apple, accepted by its parser).
  public static let localeSensitive = ComparisonOptions(rawValue: 0x08)
}

/// `[quantifier] lhs operator[options] rhs`.
public struct Comparison: Sendable, Hashable {
  /// `ANY`, `SOME`, `ALL` or `NONE` applied to a collection on the left, or `nil` for a plain comparison.
  public var quantifier: Quantifier?
  /// The left-hand operand: usually a key path into the evaluated object.
  public var lhs: ExpressionNode
  /// How the operands are compared.
  public var op: ComparisonOperator
  /// The bracketed `[cdnl]` modifiers written after the operator.
  public var options: ComparisonOptions
  /// The right-hand operand: usually a constant or a `{…}` aggregate.
  public var rhs: ExpressionNode
  /// Where the operator and its options were written (for diagnostics and text edits).
  public var operatorRange: SourceRange

  /// A comparison `[quantifier] lhs op[options] rhs`; `operatorRange` is where the operator was written.
  public init(
    quantifier: Quantifier? = nil, lhs: ExpressionNode, op: ComparisonOperator,
    options: ComparisonOptions = [], rhs: ExpressionNode, operatorRange: SourceRange = .synthesized
  ) {
    self.quantifier = quantifier
    self.lhs = lhs
    self.op = op
    self.options = options
    self.rhs = rhs
    self.operatorRange = operatorRange
  }

  /// Comparisons are equal when they say the same thing; source ranges do not count.
  public static func == (lhs: Comparison, rhs: Comparison) -> Bool {
    lhs.quantifier == rhs.quantifier && lhs.lhs == rhs.lhs && lhs.op == rhs.op
      && lhs.options == rhs.options && lhs.rhs == rhs.rhs
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(quantifier)
    hasher.combine(lhs)
    hasher.combine(op)
    hasher.combine(options)
    hasher.combine(rhs)
  }
}

/// A literal constant. Format arguments substituted at parse time also become constants
/// (a date becomes `CAST(seconds, "NSDate")`, an array becomes an aggregate).
public enum Constant: Sendable, Hashable {
  /// `NULL`, `NIL`
  case null
  /// `TRUE`, `YES`, `FALSE`, `NO`
  case bool(Bool)
  /// Decimal, `0x`, `0o` and `0b` integers that fit in 64 bits.
  case integer(Int)
  /// Decimals, exponents, and integers too large for 64 bits.
  case double(Double)
  /// A single- or double-quoted string, escapes decoded.
  case string(String)
}

/// One step of a key path after its base.
public enum KeyPathComponent: Sendable, Hashable {
  /// A key-value-coding key, `name` or a `#`-escaped reserved word such as `#size` (stored without `#`).
  case key(String)
  /// A collection operator such as `@count`, `@sum`, `@avg`, `@min`, `@max`, `@distinctUnionOfObjects`
  /// (stored without `@`). The parser accepts any identifier; the evaluator rejects unknown operators.
  case collectionOperator(String)
}

/// The index inside `collection[…]`.
public indirect enum IndexKind: Sendable, Hashable {
  /// `[FIRST]`
  case first
  /// `[LAST]`
  case last
  /// `[SIZE]`
  case size
  /// `[expression]`: an integer for arrays, a key for dictionaries.
  case expression(ExpressionNode)
}

/// `+ - * / **`
public enum ArithmeticOperator: String, Sendable, Hashable, Codable, CaseIterable {
  case add = "+"
  case subtract = "-"
  case multiply = "*"
  case divide = "/"
  case power = "**"
}

/// `UNION`, `INTERSECT`, `MINUS` between two collections.
public enum SetOperator: String, Sendable, Hashable, Codable, CaseIterable {
  case union = "UNION"
  case intersect = "INTERSECT"
  case minus = "MINUS"
}

/// An expression: something that evaluates to a value.
public struct ExpressionNode: Sendable, Hashable, CustomStringConvertible {
  /// What the expression is: a constant, a key path, a function call, an operation, and so on.
  public var kind: Kind
  /// Where the expression was written; ``SourceRange/synthesized`` for built nodes. Not compared by `==`.
  public var range: SourceRange

  /// An expression of `kind`, read from `range` (or built by code when `range` is left out).
  public init(_ kind: Kind, range: SourceRange = .synthesized) {
    self.kind = kind
    self.range = range
  }

  /// The forms an expression takes; each case holds its operands.
  ///
  /// The leaves (constants, variables, and the lists whose array already lives on the heap) are stored
  /// inline; only the cases holding a node directly are `indirect`, one heap box each.
  public enum Kind: Sendable, Hashable {
    /// A literal value.
    case constant(Constant)
    /// `SELF`: the object being evaluated.
    case evaluatedObject
    /// `$name` (stored without `$`).
    case variable(String)
    /// `ANYKEY` (Spotlight).
    case anyKey
    /// A key path. `base == nil` means keys of the evaluated object (`a.b.@count`);
    /// otherwise the keys apply to the base's value (`$x.attachments`, `SUBQUERY(…).@count`, `d[0].age`).
    /// `components` is never empty.
    indirect case keyPath(base: ExpressionNode?, components: [KeyPathComponent])
    /// `collection[index]`
    indirect case index(ExpressionNode, IndexKind)
    /// `{a, b, c}`
    case aggregate([ExpressionNode])
    /// `SUBQUERY(collection, $variable, predicate)`; `variable` is stored without `$`.
    indirect case subquery(collection: ExpressionNode, variable: String, predicate: PredicateNode)
    /// A built-in function in call form: `sum(1, 2)`, `now()`, `random()`. The name is as written.
    case function(name: String, arguments: [ExpressionNode])
    /// `FUNCTION(receiver, 'selector:', arguments…)`
    indirect case functionCall(receiver: ExpressionNode, selector: String, arguments: [ExpressionNode])
    /// `CAST(value, 'ClassName')`
    indirect case cast(ExpressionNode, type: ExpressionNode)
    /// `lhs op rhs`
    indirect case arithmetic(ArithmeticOperator, ExpressionNode, ExpressionNode)
    /// `-operand`
    indirect case negate(ExpressionNode)
    /// `lhs UNION|INTERSECT|MINUS rhs`
    indirect case setOperation(SetOperator, ExpressionNode, ExpressionNode)
    /// `$variable := value`
    indirect case assignment(variable: String, value: ExpressionNode)
    /// `TERNARY(predicate, whenTrue, whenFalse)`
    indirect case ternary(PredicateNode, ExpressionNode, ExpressionNode)
  }

  /// Expressions are equal when they say the same thing; where they were written does not count.
  public static func == (lhs: ExpressionNode, rhs: ExpressionNode) -> Bool { lhs.kind == rhs.kind }
  /// Hashes the structure only, matching `==`.
  public func hash(into hasher: inout Hasher) { hasher.combine(kind) }

  /// A debugging description; use `PredicatePrinter` for real output.
  public var description: String { String(describing: kind) }
}
