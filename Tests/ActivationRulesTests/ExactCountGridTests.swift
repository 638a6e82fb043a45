import PredicateEvaluation
import PredicateSyntax
import TestSupport
import Testing

@testable import ActivationRules

/// The count search over a dense grid against Dijkstra over hashed states, and the dictionary rules whose
/// levels only the grid decides.
@Suite struct ExactCountGridTests {
  static func compare(_ first: PredicateNode, _ second: PredicateNode, _ strategy: LevelStates.Strategy)
    -> ExactRuleAnalysis.Comparison?
  {
    LevelStates.$forcedStrategy.withValue(strategy) {
      try? ExactRuleAnalysis.compare(first, second, keep: 20)
    }
  }

  /// The same classes, the same disagreeing classes, and the same costs of the smallest disagreements
  /// (Dijkstra and the grid may break ties between equally cheap witnesses differently).
  static func checkGridAgreesWithDijkstra(_ firstText: String, _ secondText: String) throws -> Bool {
    let first = try PredicateParser.parse(firstText)
    let second = try PredicateParser.parse(secondText)
    guard let hashed = compare(first, second, .hashedCounts) else { return false }
    let grid = try #require(compare(first, second, .counts), "\(firstText) vs \(secondText)")
    ExactAnalysisPropertyTests.expectSameComparison(
      grid, hashed, of: first, second, "\(firstText) vs \(secondText)")
    return true
  }

  @Test("grid = Dijkstra on 150 seeded pairs of random rules")
  func gridAgreesOnRandomRules() throws {
    var generator = ExactAnalysisPropertyTests.RuleGenerator(random: SeededGenerator(seed: 0x6_41D))
    let decided = try generator.rulePairs(150).filter { try Self.checkGridAgreesWithDijkstra($0.0, $0.1) }
      .count
    #expect(decided >= 120)
  }

  @Test("grid = Dijkstra on 100 seeded pairs with thresholds up to 6")
  func gridAgreesOnLargerThresholds() throws {
    var generator = ExactAnalysisPropertyTests.RuleGenerator(
      random: SeededGenerator(seed: 0x6_41D6), constants: [0, 1, 2, 3, 5, 6],
      types: ExactAnalysisPropertyTests.thresholdTypes)
    let decided = try generator.itemRulePairs(100).filter { try Self.checkGridAgreesWithDijkstra($0.0, $0.1) }
      .count
    #expect(decided >= 80)
  }

  /// The automatic choice with its bounds lowered so that every level with more than ten count vectors
  /// tries the interval search, passes its bound soon and falls back to the count search: the same
  /// classes as the count search alone. An earlier fallback kept the interval search's partial states, and
  /// reported Zotero's dictionary rule (real-rules/28) equal to its Intune form.
  @Test("interval search's fallback = count search on 100 seeded pairs")
  func fallbackAgreesWithCountSearch() throws {
    var generator = ExactAnalysisPropertyTests.RuleGenerator(
      random: SeededGenerator(seed: 0xFA11_BAC), constants: [0, 1, 2, 3, 5],
      types: ExactAnalysisPropertyTests.thresholdTypes)
    var compared = 0
    for _ in 0..<100 {
      let first = try PredicateParser.parse("SUBQUERY(extensionItems, $e, \(generator.item())).@count >= 1")
      let second = try PredicateParser.parse("SUBQUERY(extensionItems, $e, \(generator.item())).@count >= 1")
      guard let counted = Self.compare(first, second, .counts) else { continue }
      // Bounds of 1 to 16 combinations: the interval search gives up before or after recording states.
      for combinations in [1, 4, 16] {
        let fallback = try #require(
          LevelStates.$limits.withValue(
            LevelStates.Limits(countStates: 10, combinations: combinations, gridWork: 0)
          ) {
            try? ExactRuleAnalysis.compare(first, second, keep: 20)
          })
        #expect(fallback.contextClasses == counted.contextClasses)
        #expect(fallback.disagreeingClasses == counted.disagreeingClasses)
      }
      compared += 1
    }
    #expect(compared >= 80)
  }

  /// A dictionary rule like Zotero's (real-rules/28: files and images up to 5, text, one web URL; here up
  /// to 2, so the test runs in a debug build), decided by the fallback: its forms differ at three images and
  /// a text (Apple's form refuses more than two images, Microsoft's accepts the text).
  @Test func fallbackFindsTheDifferenceOfZoterosForms() throws {
    let dictionary = ActivationDictionary([.fileMaxCount: 2, .imageMaxCount: 2, .text: 1, .webURLMaxCount: 1])
    let apple = DictionaryConverter.predicate(for: dictionary, style: .apple)
    let intune = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
    let decision = try LevelStates.$limits.withValue(
      LevelStates.Limits(countStates: 10, combinations: 16, gridWork: 0)
    ) {
      try SemanticDiff.decide(apple, intune)
    }
    #expect(decision.exactness == .exact)
    #expect(!decision.report.rulesAgree)
    for disagreement in decision.report.smallestDisagreements {
      #expect(RuleEvaluator(apple).accepts(disagreement.context) == disagreement.acceptedByFirst)
      #expect(RuleEvaluator(intune).accepts(disagreement.context) == disagreement.acceptedBySecond)
    }
    let threeImagesAndText = ExtensionContext(extensionItems: [
      ExtensionItem(
        attachments: Array(
          repeating: ExtensionAttachment(registeredTypeIdentifiers: ["public.jpeg"]), count: 3)
          + [ExtensionAttachment(registeredTypeIdentifiers: ["public.plain-text"])])
    ])
    #expect(!RuleEvaluator(apple).accepts(threeImagesAndText))
    #expect(RuleEvaluator(intune).accepts(threeImagesAndText))
  }

  /// Dijkstra over hashed states stops at its work bound (successors tried), not only at its state bound:
  /// a level with many steps and few states passes the first long before the second. The same pair is
  /// decided under a bound it fits in, and the forced search's error names both bounds.
  @Test func hashedSearchStopsAtItsWorkBound() throws {
    let first = try PredicateParser.parse(
      """
      SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers \
      UTI-CONFORMS-TO "public.image").@count <= 3 AND SUBQUERY($e.attachments, $a, ANY \
      $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.movie").@count <= 3).@count >= 2
      """)
    let second = TwinInjector.injectedTree(first)
    func compare(work: Int) -> Result<ExactRuleAnalysis.Comparison, ExactRuleAnalysis.Undecidable> {
      LevelStates.$forcedStrategy.withValue(.hashedCounts) {
        LevelStates.$limits.withValue(LevelStates.Limits(exploreWork: work)) {
          Result { () throws(ExactRuleAnalysis.Undecidable) in
            try ExactRuleAnalysis.compare(first, second, keep: 5)
          }
        }
      }
    }
    let decided = try compare(work: LevelStates.maximumExploreWork).get()
    #expect(decided.contextClasses > 0)
    guard case .failure(let stopped) = compare(work: 10) else {
      Issue.record("a bound of 10 successors did not stop the search")
      return
    }
    #expect(stopped.reason.contains("10 successors (LevelStates.maximumExploreWork)"))
    #expect(stopped.reason.contains("distinct count states"))
  }

  /// A count of items compared with 75 809 (a rule the exact fuzzer built from a real one): the context
  /// level's grid has a digit of 75 810 values, whose table of cells was once built in quadratic time
  /// (3.6 s in a release build). It agrees with itself, and its smallest disagreement with its injected
  /// form has exactly that many items.
  @Test func decidesACountOfItemsComparedWithALargeNumber() throws {
    let rule = try PredicateParser.parse(
      """
      SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers \
      UTI-CONFORMS-TO "com.example.fill").@count == $e.attachments.@count).@count == 75809
      """)
    #expect(try ExactRuleAnalysis.compare(rule, rule).rulesAgree)
    let injected = TwinInjector.injectedTree(rule)
    let comparison = try ExactRuleAnalysis.compare(rule, injected, keep: 1)
    let smallest = try #require(comparison.smallestDisagreements.first)
    #expect(smallest.context.extensionItems.count == 75_809)
    #expect(RuleEvaluator(rule).accepts(smallest.context) == smallest.acceptedByFirst)
    #expect(RuleEvaluator(injected).accepts(smallest.context) == smallest.acceptedBySecond)
  }
}
