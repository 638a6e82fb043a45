import PredicateSyntax

extension PredicateEvaluator {
  /// Bounds on the work of one evaluation.
  public struct Options: Sendable, Hashable {
    /// The most steps one evaluation may take before it stops with ``EvaluationError/Kind/stepLimit``.
    ///
    /// A step is one element of a collection that `SUBQUERY` or `ANY`/`SOME`/`ALL`/`NONE` goes through,
    /// or that `IN` or `CONTAINS` searches (the whole collection, counted when the search starts). Each
    /// loop visits its collection once for every pass of the loops around it, so nested loops over large
    /// collections multiply: three nested `SUBQUERY`s over 1 000 elements are a billion steps, where an
    /// activation rule over a real extension context takes a few dozen.
    public var maximumSteps: Int

    /// The default step limit: 10 million, a few seconds of the tree-walker in a debug build, a fraction
    /// of a second compiled, and hundreds of thousands of times what a real rule takes.
    public static let defaultMaximumSteps = 10_000_000

    /// Bounds on the work of one evaluation.
    ///
    /// - Parameter maximumSteps: the most steps one evaluation may take (see ``maximumSteps``); the
    ///   default is ``defaultMaximumSteps``. A negative limit is taken as 0: the first element any collection
    ///   loop or search visits stops the evaluation.
    public init(maximumSteps: Int = Options.defaultMaximumSteps) {
      self.maximumSteps = maximumSteps
    }
  }
}

/// The steps one evaluation has left (see ``PredicateEvaluator/Options/maximumSteps``). Both evaluators
/// take steps at the same places, in the same order, so they stop at the same element with the same error.
struct StepBudget {
  private(set) var remaining: Int
  let maximum: Int

  init(_ options: PredicateEvaluator.Options) {
    remaining = Swift.max(options.maximumSteps, 0)
    maximum = remaining
  }

  /// Takes `count` steps; false, taking none, when that passes the limit. Only a comparison and a
  /// subtraction, which cannot overflow: it runs for every element a loop visits.
  @inline(__always)
  mutating func take(_ count: Int) -> Bool {
    guard count <= remaining else { return false }
    remaining -= count
    return true
  }

  /// What takes steps: a loop through a collection, or a search of one.
  enum Construct {
    /// `SUBQUERY`.
    case subquery
    /// `ANY`, `SOME`, `ALL` or `NONE`.
    case quantifier(Quantifier)
    /// `IN` or `CONTAINS`.
    case search(ComparisonOperator)
  }

  /// Takes one step of the loop `construct` makes through `collection`, which has `elements` elements;
  /// throws the step-limit error, taking none, when that passes the limit. The error's text is built only
  /// then: the check is a comparison and a subtraction, as it runs for every element a loop visits.
  @inline(__always)
  mutating func takeStep(_ construct: Construct, over collection: ExpressionNode, elements: Int)
    throws(EvaluationError)
  {
    guard take(1) else { throw exhausted(construct, over: collection, elements: elements) }
  }

  /// The error when a loop or search through `collection`, of `elements` elements, passes the limit; at
  /// the collection's expression.
  func exhausted(_ construct: Construct, over collection: ExpressionNode, elements: Int) -> EvaluationError {
    let name: String
    let advice: String
    switch construct {
    case .subquery, .quantifier:
      name = if case .quantifier(let quantifier) = construct { quantifier.rawValue } else { "SUBQUERY" }
      advice =
        "every element a SUBQUERY or ANY/ALL/NONE visits is a step, once per pass of each loop around it, so "
        + "nested loops over large collections multiply: nest fewer of them or evaluate a smaller context"
    case .search(let op):
      name = op.rawValue
      advice =
        "every element an IN or CONTAINS searches is a step, once per pass of each loop around the search, so "
        + "searching a large collection inside loops multiplies: search a smaller collection, nest fewer loops "
        + "around the search or evaluate a smaller context"
    }
    return EvaluationError(
      .stepLimit,
      "evaluation stopped after \(maximum) steps, the limit (PredicateEvaluator.Options.maximumSteps), in the "
        + "\(name) over \(Self.describe(collection)) (\(elements) element\(elements == 1 ? "" : "s")); "
        + advice,
      at: collection.range)
  }

  /// How a collection expression is named in the error: its canonical text, shortened when long.
  static func describe(_ collection: ExpressionNode) -> String {
    let text = PredicatePrinter.canonical(collection)
    guard text.count > 60 else { return text }
    return String(text.prefix(59)) + "…"
  }
}

/// The search an `IN` or `CONTAINS` comparison makes through a collection, which costs a step per element.
struct SearchSteps {
  /// `IN` or `CONTAINS`.
  let op: ComparisonOperator
  /// The searched collection's expression, named only in the error.
  let collection: ExpressionNode

  /// The search `comparison` makes, or nil when it makes none (any operator but `IN` and `CONTAINS`).
  init?(_ comparison: Comparison) {
    switch comparison.op {
    case .in: collection = comparison.rhs
    case .contains: collection = comparison.lhs
    default: return nil
    }
    op = comparison.op
  }

  /// Takes a step per element of the collection `lhs IN rhs` or `lhs CONTAINS rhs` searches; a string or
  /// a scalar costs none (the comparison then searches text, or fails).
  func take(_ lhs: PredicateValue, _ rhs: PredicateValue, from budget: inout StepBudget)
    throws(EvaluationError)
  {
    let count: Int
    switch op == .in ? rhs : lhs {
    case .array(let elements): count = elements.count
    case .dictionary(let dictionary): count = dictionary.count
    default: return
    }
    guard budget.take(count) else { throw budget.exhausted(.search(op), over: collection, elements: count) }
  }
}

extension PredicatePrinter {
  /// The canonical one-line form of an expression.
  static func canonical(_ expression: ExpressionNode) -> String {
    PredicatePrinter().string(for: expression)
  }
}
