import ActivationRules
import Foundation
import PredicateEvaluation
import PredicateSyntax
import Testing
import UniformTypes

/// One rule of a hold-out folder, named `real-rules-holdout2/05.predicate` in test results.
struct HoldoutRule: Sendable, CustomTestStringConvertible {
  let folder: URL
  let name: String

  var url: URL { folder.appendingPathComponent(name) }
  var testDescription: String { "\(folder.lastPathComponent)/\(name)" }
}

/// The exact analysis on real rules it was not built against: `Tests/Fixtures/real-rules-holdout` (gathered
/// after the engine was built), `Tests/Fixtures/real-rules-holdout2` (never tuned against) and
/// `Tests/Fixtures/real-rules-holdout3` (the rare constructs: NOT, UTI-EQUALS, a count of 0). Each rule
/// against its Intune-injected form, as ``CorpusTests`` does for the development set, checked against the
/// rules' own answers and against brute-force enumeration.
@Suite struct HoldoutCorpusTests {
  static let folders = [Fixtures.holdout, Fixtures.holdout2, Fixtures.holdout3]

  /// How many rules each folder holds at least, so that a folder the tests cannot read fails rather than
  /// passing with nothing in it.
  static let leastRules = ["real-rules-holdout": 25, "real-rules-holdout2": 25, "real-rules-holdout3": 12]

  static let rules = folders.flatMap { folder in
    Fixtures.ruleFiles(in: folder).map { HoldoutRule(folder: folder, name: $0) }
  }

  /// Files that are not valid predicates, with where the parser stops: the rule as the app shipped it.
  static let unparsable = ["real-rules-holdout/06.predicate": (line: 1, column: 134)]

  static func load(_ rule: HoldoutRule) throws -> (file: RuleFile, rule: ActivationRule) {
    try ActivationRule.load(rule.url)
  }

  /// The rule and its injected form, as `ExactDiffBenchmark` and `rulekit diff RULE INJECTED` compare them.
  static func pair(_ rule: HoldoutRule) throws -> (original: PredicateNode, injected: PredicateNode) {
    try CorpusTests.injected(try load(rule).rule, style: .intune)
  }

  static let loadable = rules.filter { unparsable[$0.testDescription] == nil }

  /// Enumeration's bounds: every context of up to 3 single-type attachments in up to 2 items.
  static let bounds = SemanticDiff.Bounds(maximumAttachments: 3, maximumItems: 2)

  @Test(arguments: folders)
  func theFolderHoldsTheRulesItsIndexLists(folder: URL) throws {
    let index = try JSONSerialization.jsonObject(
      with: Data(contentsOf: folder.appendingPathComponent("index.json")))
    let files = try #require(index as? [[String: Any]]).compactMap { $0["file"] as? String }
    #expect(files == Fixtures.ruleFiles(in: folder))
    #expect(files.count >= (Self.leastRules[folder.lastPathComponent] ?? Int.max))
  }

  @Test(arguments: rules)
  func everyRuleLoadsConvertsAndInjects(rule holdout: HoldoutRule) throws {
    if let stop = Self.unparsable[holdout.testDescription] {
      // Refused where the app's text stops being a predicate, with a reason the user can act on.
      #expect {
        _ = try Self.load(holdout)
      } throws: { error in
        guard let error = error as? ActivationRuleError, error.kind == .syntax else { return false }
        return (error.position?.line, error.position?.column) == (stop.line, stop.column)
          && error.summary.contains("remove it")
      }
      return
    }
    let (file, rule) = try Self.load(holdout)
    let text = rule.text(style: .intune)
    #expect(try ActivationRule.parsePredicate(text) == rule.predicate(style: .intune))
    let injected = try TwinInjector.inject(text: text)
    #expect(try TwinInjector.inject(text: injected.text).text == injected.text)
    #expect(RuleLinter().lint(file).allSatisfy { $0.id != LintCheck.syntaxError.rawValue })
  }

  /// Exact, never bounded: every hold-out rule is inside the fragment (counts and type tests), and every
  /// witness is a context on which the two rules really answer differently.
  @Test(arguments: loadable)
  func diffAgainstTheInjectedFormIsExactAndItsWitnessesAreReal(rule: HoldoutRule) throws {
    let (original, injected) = try Self.pair(rule)
    let decision = try SemanticDiff.decide(original, injected)
    #expect(decision.exactness == .exact)
    for disagreement in decision.report.smallestDisagreements {
      #expect(RuleEvaluator(original).accepts(disagreement.context) == disagreement.acceptedByFirst)
      #expect(RuleEvaluator(injected).accepts(disagreement.context) == disagreement.acceptedBySecond)
      #expect(disagreement.acceptedByFirst != disagreement.acceptedBySecond)
    }
  }

  /// The exact answer against enumeration of every context within ``bounds``: agreement means enumeration
  /// finds nothing; a disagreement enumeration finds, the exact search finds too, with no more items and no
  /// more attachments; and a smallest exact witness that enumeration could have listed (within the bounds,
  /// one enumerated type per attachment) is found by enumeration at the same size.
  @Test(arguments: loadable)
  func diffAgreesWithEnumerationWhereEnumerationReaches(rule: HoldoutRule) throws {
    try Self.agreesWithEnumeration(rule)
  }

  static func agreesWithEnumeration(_ rule: HoldoutRule) throws {
    let (original, injected) = try Self.pair(rule)
    let exact = try ExactRuleAnalysis.compare(original, injected, keep: 1)
    let enumerated = try SemanticDiff.compare(original, injected, bounds: Self.bounds, keep: Int.max)
    guard let witness = exact.smallestDisagreements.first else {
      #expect(enumerated.rulesAgree, "\(enumerated.smallestDisagreements.first?.context.summary ?? "")")
      return
    }
    let size = { (context: ExtensionContext) in [context.extensionItems.count, context.allAttachments.count] }
    let enumeratedSizes = enumerated.smallestDisagreements.map { size($0.context) }
    if let smallest = enumeratedSizes.min(by: { $0.lexicographicallyPrecedes($1) }) {
      #expect(!smallest.lexicographicallyPrecedes(size(witness.context)), "\(witness.context.summary)")
    }
    // The report's types are the enumeration's single-type attachments.
    let shapes = Set(enumerated.types.map { [$0] })
    let listable =
      witness.context.extensionItems.count <= Self.bounds.maximumItems
      && witness.context.allAttachments.count <= Self.bounds.maximumAttachments
      && witness.context.allAttachments.allSatisfy { shapes.contains($0.registeredTypeIdentifiers) }
    if listable {
      #expect(enumeratedSizes.contains(size(witness.context)), "\(witness.context.summary)")
    }
  }

  /// `lint`'s never/always findings come from the exact engine: never-activates exactly when no context is
  /// accepted, always-activates exactly when none is rejected (TRUEPREDICATE aside), and every accepted or
  /// rejected context it names is answered that way by the rule; both checked against enumeration within
  /// ``bounds``.
  @Test(arguments: loadable)
  func neverAndAlwaysAreExactAndAgreeWithEnumeration(rule holdout: HoldoutRule) throws {
    try Self.neverAndAlways(holdout)
  }

  static func neverAndAlways(_ holdout: HoldoutRule) throws {
    let (file, rule) = try Self.load(holdout)
    let tree = rule.predicate(style: .apple)
    let activation = try ExactRuleAnalysis.activation(tree)
    let evaluator = RuleEvaluator(tree)
    if let accepted = activation.smallestAccepted { #expect(evaluator.accepts(accepted)) }
    if let rejected = activation.smallestRejected { #expect(!evaluator.accepts(rejected)) }
    let contexts = ContextEnumerator(
      shapes: ContextEnumerator.shapes(mentioning: RuleAnalysis.mentionedTypes(tree)),
      maximumAttachments: Self.bounds.maximumAttachments, maximumItems: Self.bounds.maximumItems
    ).contexts()
    if activation.smallestAccepted == nil { #expect(!contexts.contains(where: evaluator.accepts)) }
    if activation.smallestRejected == nil { #expect(contexts.allSatisfy(evaluator.accepts)) }
    let ids = Set(RuleLinter().lint(file).map(\.id))
    #expect(ids.contains(LintCheck.neverActivates.rawValue) == (activation.smallestAccepted == nil))
    // The linter leaves TRUEPREDICATE, which says it accepts everything, unflagged.
    let saysSo = if case .truePredicate = tree.kind { true } else { false }
    let always = activation.smallestAccepted != nil && activation.smallestRejected == nil && !saysSo
    #expect(ids.contains(LintCheck.alwaysActivates.rawValue) == always)
    #expect(!ids.contains(LintCheck.notExhaustivelyChecked.rawValue))
  }
}
