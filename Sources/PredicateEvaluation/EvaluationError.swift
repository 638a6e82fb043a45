import PredicateSyntax

/// Why a predicate could not be evaluated, and where in its source text.
///
/// Apple's `NSPredicate` raises an Objective-C exception in these situations; RuleKit reports a value instead.
public struct EvaluationError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The kind of failure, for programs that react to it.
  public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
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

  /// The kind of failure.
  public var reason: Reason
  /// A sentence that reads after "error: ".
  public var message: String
  /// The source range of the offending expression or operator.
  public var range: SourceRange

  public init(_ reason: Reason, _ message: String, at range: SourceRange) {
    self.reason = reason
    self.message = message
    self.range = range
  }

  public var description: String { "\(range.start): error: \(message)" }
}
