import PredicateSyntax

/// Why a predicate could not be evaluated, and where in its source text.
///
/// Apple's `NSPredicate` raises an Objective-C exception in these situations; RuleKit reports a value instead.
public struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure, for programs that react to it; the raw values are stable codes.
  public enum Kind: String, Sendable, Hashable, Codable, CaseIterable {
    /// An operand has a type the operator cannot use (`"a" < 1`, `ANY 5 == 1`).
    case typeMismatch
    /// A `$variable` has no value.
    case unboundVariable
    /// A construct that is parsed but deliberately not evaluated (arbitrary `FUNCTION` selectors, `ANYKEY`…).
    case unsupported
    /// An index outside the array, or a `BETWEEN` bound list that is not two elements long.
    case invalidArgument
    /// A regular expression that does not compile.
    case invalidRegularExpression
    /// A regular expression that exceeded PCRE2's match or depth limit.
    case regularExpressionLimit
    /// Arithmetic that has no result (division by zero, overflow).
    case arithmetic
    /// The evaluation took more steps than ``PredicateEvaluator/Options/maximumSteps`` allows: loops nested
    /// over collections too large for their nesting.
    case stepLimit
  }

  /// The old name of ``Kind``.
  @available(*, deprecated, renamed: "Kind")
  public typealias Reason = Kind

  /// The kind of failure.
  public var kind: Kind
  /// The kind of failure; renamed ``kind``.
  @available(*, deprecated, renamed: "kind")
  public var reason: Kind {
    get { kind }
    set { kind = newValue }
  }
  /// A sentence that reads after "error: ".
  public var message: String
  /// The source range of the offending expression or operator.
  public var range: SourceRange

  /// An error of `kind`, saying `message`, about the expression at `range`.
  public init(_ kind: Kind, _ message: String, at range: SourceRange) {
    self.kind = kind
    self.message = message
    self.range = range
  }

  /// `line:column: error: message`, at the start of ``range``.
  public var description: String { "\(range.start): error: \(message)" }
}
