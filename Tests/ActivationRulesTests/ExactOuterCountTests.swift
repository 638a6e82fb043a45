import PredicateEvaluation
import PredicateSyntax
import Testing

@testable import ActivationRules

/// A count of the enclosing level inside a SUBQUERY (`extensionItems.@count` in the item condition,
/// `$e.attachments.@count` in the attachment condition), as real-rules-holdout2/31.predicate (Threema) writes
/// it. It is a count like any other, the same for every element the SUBQUERY visits, so the rule is inside
/// the fragment. `ExactModel` counts a collection only at the level of its children; `OuterConditions`
/// moves such conditions out of their SUBQUERYs first. Without it these rules fell back to enumeration,
/// which missed the differences below.
@Suite struct ExactOuterCountTests {
  static let url = "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.url\""
  /// Some item with a URL attachment.
  static let plain =
    "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(url)).@count >= 1).@count >= 1"

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var rule: String
    /// The smallest context on which `rule` and ``plain`` differ: its items and attachments.
    var witness: (items: Int, attachments: Int)
    var testDescription: String { name }
  }

  static let cases = [
    Case(
      name: "extensionItems.@count in the item condition",
      rule: "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(url)).@count >= 1"
        + " AND extensionItems.@count <= 2).@count >= 1",
      witness: (3, 1)),
    Case(
      name: "$e.attachments.@count in the attachment condition",
      rule: "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(url)"
        + " AND $e.attachments.@count <= 3).@count >= 1).@count >= 1",
      witness: (1, 4)),
    Case(
      name: "extensionItems.@count two SUBQUERYs deep",
      rule: "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(url)"
        + " AND extensionItems.@count < 2).@count >= 1).@count >= 1",
      // Two items, one of them empty: the URL's item is then not alone.
      witness: (2, 1)),
    Case(
      name: "a negated outer count beside an OR",
      rule: "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(url)).@count >= 1"
        + " AND (NOT extensionItems.@count > 1 OR $e.attachments.@count == 1)).@count >= 1",
      // Two items, the URL's holding a second attachment.
      witness: (2, 2)),
  ]

  /// Rules with conditions of an enclosing level at every depth, under NOT and OR, next to conditions on the
  /// element and with a variable name shadowed inside the condition.
  static let splitRules =
    cases.map(\.rule) + [
      "SUBQUERY(extensionItems, $e, NOT (extensionItems.@count == 2) OR SUBQUERY($e.attachments, $a, \(url))"
        + ".@count == 0).@count == 1",
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(url) AND $e.attachments.@count <= 2"
        + " AND extensionItems.@count >= 2).@count >= 1 AND extensionItems.@count <= 2).@count >= 2",
      "SUBQUERY(extensionItems, $e, SUBQUERY(extensionItems, $e, $e.attachments.@count >= 2).@count >= 1"
        + " AND $e.attachments.@count == 1).@count >= 1",
    ]

  /// The split rule accepts exactly the contexts the rule as written accepts (every context of up to four
  /// attachments, of a URL or an image, in up to three items).
  @Test(arguments: splitRules)
  func splittingKeepsTheMeaning(_ text: String) throws {
    let rule = try PredicateParser.parse(text)
    let split = OuterConditions.split(rule)
    #expect(split != rule)
    let contexts = ContextEnumerator(
      shapes: [["public.url"], ["public.image"]], maximumAttachments: 4, maximumItems: 3
    ).contexts()
    #expect(contexts.count > 100)
    let (written, rewritten) = (RuleEvaluator(rule), RuleEvaluator(split))
    for context in contexts {
      #expect(written.accepts(context) == rewritten.accepts(context), "\(context.summary)")
    }
    #expect(try ExactRuleAnalysis.compare(rule, rule).rulesAgree)
  }

  /// A condition on the SUBQUERY's own element, or one that evaluates to something new each time, stays.
  static let staying = [
    "SUBQUERY(extensionItems, $e, $e.attachments.@count <= 2).@count >= 1",
    "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(url)).@count >= 1"
      + " AND random() < 0.5).@count >= 1",
  ]

  @Test(arguments: staying)
  func conditionsOnTheElementStay(_ text: String) throws {
    let rule = try PredicateParser.parse(text)
    #expect(OuterConditions.split(rule) == rule)
  }

  /// More conditions than ``OuterConditions/maximumSplits`` in one comparison: not split, and the exact
  /// analysis says it cannot decide the rule instead of growing it 2^n-fold.
  @Test func tooManyConditionsAreReportedNotSplit() throws {
    let bounds = (1...(OuterConditions.maximumSplits + 1)).map { " AND extensionItems.@count != \($0 * 10)" }
    let text =
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(Self.url)).@count >= 1"
      + bounds.joined() + ").@count >= 1"
    let rule = try PredicateParser.parse(text)
    #expect(OuterConditions.split(rule) == rule)
    let decision = try SemanticDiff.decide(rule, try PredicateParser.parse(Self.plain))
    guard case .bounded(let reason) = decision.exactness else {
      Issue.record("decided exactly: \(decision.exactness)")
      return
    }
    #expect(reason.contains("extensionItems.@count"))
  }

  @Test(arguments: cases)
  func aCountOfTheEnclosingLevelIsDecidedExactly(_ example: Case) throws {
    let rule = try PredicateParser.parse(example.rule)
    let plain = try PredicateParser.parse(Self.plain)
    let decision = try SemanticDiff.decide(rule, plain)
    #expect(decision.exactness == .exact)
    let witness = try #require(decision.report.smallestDisagreements.first)
    #expect(witness.context.extensionItems.count == example.witness.items)
    #expect(witness.context.allAttachments.count == example.witness.attachments)
    #expect(RuleEvaluator(rule).accepts(witness.context) != RuleEvaluator(plain).accepts(witness.context))
  }

  /// The same condition hoisted out of the SUBQUERY, where it is the context's own count: decided exactly
  /// today, with the witness the nested form should give. A count of the enclosing level has one value for
  /// all the SUBQUERY's elements, so splitting the SUBQUERY on it (the condition true, or false) reaches
  /// this form in general.
  @Test func theHoistedFormIsDecidedExactly() throws {
    let hoisted = try PredicateParser.parse("extensionItems.@count <= 2 AND " + Self.plain)
    let plain = try PredicateParser.parse(Self.plain)
    let decision = try SemanticDiff.decide(hoisted, plain)
    #expect(decision.exactness == .exact)
    let witness = try #require(decision.report.smallestDisagreements.first)
    #expect(witness.context.extensionItems.count == 3)
    #expect(RuleEvaluator(hoisted).accepts(witness.context) != RuleEvaluator(plain).accepts(witness.context))
  }
}
