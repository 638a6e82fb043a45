import PredicateSyntax

/// A record of how a predicate reached its answer, for `rulekit explain`.
///
/// A trace is a tree of steps mirroring the evaluation: every predicate node that was evaluated (nodes
/// skipped by short-circuiting are absent), every `SUBQUERY` element with the result of the inner predicate
/// for it, and every element an `ANY`/`ALL`/`NONE` comparison looked at.
public struct EvaluationTrace: Sendable, Hashable {
  /// What one step of the trace evaluated.
  public enum Step: Sendable, Hashable {
    /// A predicate node: `TRUEPREDICATE`, `NOT`, `AND`, `OR` or a comparison.
    case predicate
    /// The inner predicate of a `SUBQUERY`, evaluated with `$variable` bound to element `index` of the collection.
    case subqueryElement(variable: String, index: Int, value: PredicateValue)
    /// One element of the left-hand collection of an `ANY`, `ALL` or `NONE` comparison.
    case quantifiedElement(index: Int, value: PredicateValue)
  }

  /// The source range of the node evaluated: the predicate, or the `SUBQUERY` or comparison the element belongs to.
  public var range: SourceRange
  /// What kind of step this is: the predicate itself or one element of a collection.
  public var step: Step
  /// What the step evaluated to.
  public var result: Bool
  /// The steps evaluated inside this one, in order.
  public var children: [EvaluationTrace]

  /// A step over `range` that evaluated to `result`, with the steps evaluated inside it.
  public init(range: SourceRange, step: Step, result: Bool, children: [EvaluationTrace] = []) {
    self.range = range
    self.step = step
    self.result = result
    self.children = children
  }
}

/// Collects trace steps while the tree-walker runs. One recorder per evaluation; not shared across threads.
final class TraceRecorder {
  private var stack: [[EvaluationTrace]] = [[]]

  func begin() { stack.append([]) }

  func end(range: SourceRange, step: EvaluationTrace.Step, result: Bool) {
    let children = stack.removeLast()
    let trace = EvaluationTrace(range: range, step: step, result: result, children: children)
    stack[stack.count - 1].append(trace)
  }

  /// Drops an unfinished step after an error so the recorder stays balanced.
  func abandon() { stack.removeLast() }

  var root: EvaluationTrace? { stack.first?.first }
}
