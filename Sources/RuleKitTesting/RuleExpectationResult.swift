import ActivationRules

/// The outcome of checking whether a rule activates for one context, with everything a failure needs to
/// be understood without re-running anything.
///
/// Use it directly with any test framework:
///
/// ```swift
/// let result = share.check(activates: true, for: .safariPage)
/// #expect(result.passed, Comment(rawValue: result.message))
/// ```
public struct RuleExpectationResult: Sendable, Hashable, CustomStringConvertible {
  /// Whether the rule did what was expected.
  public var passed: Bool { expectedActivation == actualActivation }
  /// Whether the test expected the extension to activate.
  public var expectedActivation: Bool
  /// Whether the rule activates it.
  public var actualActivation: Bool
  /// The context's name: a preset's name, or the name given for a custom context.
  public var contextName: String
  /// The context the rule was evaluated on.
  public var context: ExtensionContext
  /// Clause by clause, why the rule answered as it did; `nil` when evaluation failed (see ``message``).
  public var explanation: RuleExplanation?
  /// The smallest context on which the rule answers the way the test expected, when one exists within the
  /// enumeration bounds: what the rule wants instead. `nil` when the expectation passed.
  public var smallestContextWithExpectedOutcome: ExtensionContext?
  /// A one-line verdict, then (on failure) the explanation and the smallest context with the expected
  /// outcome.
  public var message: String

  public var description: String { message }
}

extension RuleUnderTest {
  /// How far the search for a context with the expected outcome goes: every context of at most this many
  /// attachments in at most ``searchItems`` extension items, over the types the rule and context mention.
  static let searchAttachments = 3
  static let searchItems = 2

  /// Checks whether the rule activates for `preset` as `expected`, without recording anything.
  public func check(activates expected: Bool, for preset: HostPreset) -> RuleExpectationResult {
    check(activates: expected, on: preset.context, named: preset.name)
  }

  /// Checks whether the rule activates for `context` as `expected`, without recording anything.
  ///
  /// - Parameters:
  ///   - expected: whether the extension should activate.
  ///   - context: what the host shares.
  ///   - name: how messages refer to the context.
  public func check(
    activates expected: Bool, on context: ExtensionContext, named name: String = "the given context"
  ) -> RuleExpectationResult {
    let actual = activates(for: context)
    var explanation: RuleExplanation?
    var evaluationProblem: String?
    if case .predicate(let tree, let text) = explained {
      do {
        explanation = try RuleExplanation(tree: tree, text: text, file: file, context: context)
      } catch {
        evaluationProblem = "evaluation failed: \(error)"
      }
    }
    let verb = expected ? "activate" : "not activate"
    let outcome = actual ? "it does" : "it does not"
    guard expected != actual else {
      return RuleExpectationResult(
        expectedActivation: expected, actualActivation: actual, contextName: name, context: context,
        explanation: explanation, smallestContextWithExpectedOutcome: nil,
        message: "the rule at \(location) is expected to \(verb) for \(name), and \(outcome)")
    }
    let (smallest, searched) = smallestContext(withOutcome: expected, near: context)
    var lines = ["expected the rule at \(location) to \(verb) for \(name), but \(outcome)"]
    if let explanation {
      lines.append("explanation:")
      lines += explanation.text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
    }
    if let evaluationProblem { lines.append(evaluationProblem) }
    if let smallest {
      lines.append(
        "smallest context on which the rule \(expected ? "activates" : "does not activate"): \(smallest.summary)"
      )
    } else {
      lines.append(
        "no context of at most \(searched) attachments in \(Self.searchItems) items over the "
          + "types the rule mentions makes it \(verb)"
          + (searched < Self.searchAttachments
            ? " (fewer than \(Self.searchAttachments) attachments: the rule names so many types that "
              + "\(Self.searchAttachments) would exceed ContextEnumerator.maximumContexts)" : ""))
    }
    return RuleExpectationResult(
      expectedActivation: expected, actualActivation: actual, contextName: name, context: context,
      explanation: explanation, smallestContextWithExpectedOutcome: smallest,
      message: lines.joined(separator: "\n"))
  }

  /// The first context, fewest attachments first, on which the rule answers `outcome`. Attachments are
  /// drawn from the types the rule mentions (with Intune twins and common distractors) and the attachment
  /// shapes of `context`, so the answer speaks the test's vocabulary.
  ///
  /// The search stays under ``ContextEnumerator/maximumContexts``: a rule naming many types is searched with
  /// fewer attachments, and the second value says how many.
  func smallestContext(withOutcome outcome: Bool, near context: ExtensionContext) -> (
    context: ExtensionContext?, attachments: Int
  ) {
    var types: [String] = []
    if case .predicate(let tree, _) = explained { types = RuleAnalysis.mentionedTypes(tree) }
    var shapes = ContextEnumerator.shapes(mentioning: types)
    for attachment in context.allAttachments where !shapes.contains(attachment.registeredTypeIdentifiers) {
      shapes.append(attachment.registeredTypeIdentifiers)
    }
    var enumerator = ContextEnumerator(
      shapes: shapes, maximumAttachments: Self.searchAttachments, maximumItems: Self.searchItems)
    while enumerator.count > ContextEnumerator.maximumContexts, enumerator.maximumAttachments > 0 {
      enumerator.maximumAttachments -= 1
    }
    return (enumerator.contexts().first { activates(for: $0) == outcome }, enumerator.maximumAttachments)
  }
}
