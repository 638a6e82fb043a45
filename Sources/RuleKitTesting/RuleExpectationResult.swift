import ActivationRules
import UniformTypes

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
  /// When the rule should activate and does not: the smallest context on which it does — what the rule
  /// wants instead — decided over every context where the exact analysis decides the rule, else the first
  /// within the enumeration bounds. `nil` otherwise.
  public var smallestContextWithExpectedOutcome: ExtensionContext?
  /// When the rule should not activate and does: the smallest part of the tested context (some of its
  /// attachments, in their items) on which it still activates — what makes it activate. `nil` otherwise.
  ///
  /// The part is the smallest one when the tested context is small enough to try every part by size (see
  /// ``RuleUnderTest/activatingPartSearchLimit``); past that, attachments are dropped one at a time while
  /// the rule still activates, which leaves a part where no single attachment can go.
  public var smallestActivatingPart: ExtensionContext?
  /// A one-line verdict, then (on failure) the explanation and the smallest context that shows the
  /// difference: the smallest activating context, or the smallest activating part of the tested context.
  public var message: String

  /// The same as ``message``, so a result prints as its verdict.
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
        explanation: explanation, smallestContextWithExpectedOutcome: nil, smallestActivatingPart: nil,
        message: "the rule at \(location) is expected to \(verb) for \(name), and \(outcome)")
    }
    var lines = ["expected the rule at \(location) to \(verb) for \(name), but \(outcome)"]
    if let explanation {
      lines.append("explanation:")
      lines += explanation.text.split(separator: "\n", omittingEmptySubsequences: false).map { "  \($0)" }
    }
    if let evaluationProblem { lines.append(evaluationProblem) }
    guard expected else {
      // An empty context is always a smallest context that does not activate, so say instead which part of
      // the tested context makes the rule activate: that is what the author has to exclude.
      let part = smallestActivatingPart(of: context)
      lines.append(
        part.exhaustive
          ? "smallest part of \(name) on which the rule still activates: \(part.context.summary)"
          : "a part of \(name) on which the rule still activates, no attachment of which can be left out: "
            + part.context.summary)
      return RuleExpectationResult(
        expectedActivation: expected, actualActivation: actual, contextName: name, context: context,
        explanation: explanation, smallestContextWithExpectedOutcome: nil,
        smallestActivatingPart: part.context, message: lines.joined(separator: "\n"))
    }
    let (smallest, searched, exact) = smallestActivatingContext(near: context)
    if let smallest {
      lines.append("smallest context on which the rule activates: \(smallest.summary)")
    } else if exact {
      lines.append("no context makes the rule \(verb) (decided over every context)")
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
      explanation: explanation, smallestContextWithExpectedOutcome: smallest, smallestActivatingPart: nil,
      message: lines.joined(separator: "\n"))
  }

  /// How many parts of a tested context the search for ``RuleExpectationResult/smallestActivatingPart``
  /// evaluates, smallest first, before it falls back to dropping attachments one at a time.
  public static let activatingPartSearchLimit = 4_096

  /// The smallest part of `context` (a subset of its attachments, each kept in its item; items left without
  /// attachments are dropped) on which the rule activates; `context` itself when nothing smaller does.
  ///
  /// Parts are tried by size while that takes at most ``activatingPartSearchLimit`` evaluations, so the
  /// answer is a smallest part (`exhaustive`); past that, attachments are dropped one at a time while the
  /// rule still activates, which ends in a part no single attachment can leave.
  func smallestActivatingPart(of context: ExtensionContext) -> (context: ExtensionContext, exhaustive: Bool) {
    let positions = context.extensionItems.indices.flatMap { item in
      context.extensionItems[item].attachments.indices.map { (item: item, attachment: $0) }
    }
    func part(keeping kept: [Int]) -> ExtensionContext {
      var items = context.extensionItems.map { item -> ExtensionItem in
        var emptied = item
        emptied.attachments = []
        return emptied
      }
      for index in kept {
        let position = positions[index]
        items[position.item].attachments.append(
          context.extensionItems[position.item].attachments[position.attachment])
      }
      return ExtensionContext(extensionItems: items.filter { !$0.attachments.isEmpty })
    }
    var evaluations = 0
    for size in 0...positions.count {
      var combination = Array(0..<size)
      while true {
        evaluations += 1
        if evaluations > Self.activatingPartSearchLimit { break }
        let candidate = part(keeping: combination)
        if activates(for: candidate) { return (candidate, true) }
        guard Self.advance(&combination, choosingFrom: positions.count) else { break }
      }
      if evaluations > Self.activatingPartSearchLimit { break }
    }
    // Too many parts to try them all: drop attachments while the rule still activates.
    var kept = Array(positions.indices)
    var dropped = true
    while dropped {
      dropped = false
      for index in kept.indices.reversed() {
        var fewer = kept
        fewer.remove(at: index)
        if activates(for: part(keeping: fewer)) {
          kept = fewer
          dropped = true
        }
      }
    }
    return (part(keeping: kept), false)
  }

  /// Steps `combination` (increasing indices below `count`) to the next one in lexicographic order;
  /// `false` after the last.
  static func advance(_ combination: inout [Int], choosingFrom count: Int) -> Bool {
    var slot = combination.count - 1
    while slot >= 0, combination[slot] == count - combination.count + slot { slot -= 1 }
    guard slot >= 0 else { return false }
    combination[slot] += 1
    for next in (slot + 1)..<combination.count { combination[next] = combination[next - 1] + 1 }
    return true
  }

  /// The smallest context on which the rule activates, decided over every context by
  /// ``ExactRuleAnalysis/activation(_:registry:effort:)`` (`exact`); for a rule outside its fragment, or
  /// past its bound, the first context, fewest attachments first, of an enumeration. Its attachments are
  /// drawn from the types the rule mentions (with Intune twins, common distractors and a subtype of each
  /// tested type, as `diff` and `lint` enumerate) and the attachment shapes of `context`, so the answer
  /// speaks the test's vocabulary.
  ///
  /// The search stays within ``ContextEnumerator/maximumContexts`` and ``ContextEnumerator/maximumObjects``
  /// (``ContextEnumerator/reducedToLimits()``): a rule naming many types is searched with fewer attachments,
  /// and the second value says how many. (Its ``searchItems`` items never need fewer: 100 000 contexts of
  /// at most ``searchAttachments`` attachments in them hold fewer objects than the limit.)
  func smallestActivatingContext(near context: ExtensionContext) -> (
    context: ExtensionContext?, attachments: Int, exact: Bool
  ) {
    var types: [String] = []
    let registry = file?.registry() ?? .system
    if case .predicate(let tree, _) = explained {
      types = RuleAnalysis.mentionedTypes(tree)
      // The exact answer, checked with the evaluator the test uses (it never differs; if it did, the
      // enumeration below would speak instead).
      if let activation = try? ExactRuleAnalysis.activation(tree, registry: registry) {
        if let smallest = activation.smallestAccepted, activates(for: smallest) {
          return (smallest, smallest.allAttachments.count, true)
        }
        if activation.smallestAccepted == nil { return (nil, 0, true) }
      }
    }
    var shapes = ContextEnumerator.shapes(mentioning: types)
    for attachment in context.allAttachments where !shapes.contains(attachment.registeredTypeIdentifiers) {
      shapes.append(attachment.registeredTypeIdentifiers)
    }
    let enumerator = ContextEnumerator(
      shapes: shapes, maximumAttachments: Self.searchAttachments, maximumItems: Self.searchItems
    ).reducedToLimits().enumerator.addingSubtypes(of: types, in: registry)
    return (enumerator.contexts().first { activates(for: $0) }, enumerator.maximumAttachments, false)
  }
}
