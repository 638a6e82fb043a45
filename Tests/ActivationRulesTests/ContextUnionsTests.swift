import PredicateEvaluation
import PredicateSyntax
import TestSupport
import Testing

@testable import ActivationRules

/// The context level as unions of the items' sets (``ContextUnions``) against the count search, and the
/// bit vectors it evaluates rules with.
@Suite struct ContextUnionsTests {
  /// Sizes of contexts (items, attachments, types), which equally cheap witnesses share.
  static func sizes(_ contexts: [ExtensionContext?]) -> [[Int]?] {
    contexts.map { context in
      context.map { context in
        let size = ExactAnalysisPropertyTests.size(context)
        return [size.0, size.1, size.2]
      }
    }
  }

  /// Unions (the default where they apply) and the count search (forced) on one pair: the same classes, the
  /// same disagreeing classes, witnesses of the same sizes, each a real disagreement; and for each rule the
  /// same smallest accepted and rejected contexts. Returns whether both decided the pair.
  static func checkUnionsAgreeWithCounts(_ firstText: String, _ secondText: String) throws -> Bool {
    let first = try PredicateParser.parse(firstText)
    let second = try PredicateParser.parse(secondText)
    guard
      let counted = LevelStates.$forcedStrategy.withValue(
        .counts,
        operation: {
          try? ExactRuleAnalysis.compare(first, second, keep: 20)
        })
    else { return false }
    let unions = try ExactRuleAnalysis.compare(first, second, keep: 20)
    let pair = "\(firstText) vs \(secondText)"
    #expect(unions.contextClasses == counted.contextClasses, "\(pair)")
    #expect(unions.disagreeingClasses == counted.disagreeingClasses, "\(pair)")
    #expect(
      sizes(unions.smallestDisagreements.map(\.context))
        == sizes(counted.smallestDisagreements.map(\.context)),
      "\(pair)")
    for disagreement in unions.smallestDisagreements {
      #expect(RuleEvaluator(first).accepts(disagreement.context) == disagreement.acceptedByFirst, "\(pair)")
      #expect(RuleEvaluator(second).accepts(disagreement.context) == disagreement.acceptedBySecond, "\(pair)")
    }
    for rule in [first, second] {
      let byUnions = try ExactRuleAnalysis.activation(rule)
      let byCounts = try #require(
        LevelStates.$forcedStrategy.withValue(.counts) { try? ExactRuleAnalysis.activation(rule) })
      #expect(
        sizes([byUnions.smallestAccepted, byUnions.smallestRejected])
          == sizes([byCounts.smallestAccepted, byCounts.smallestRejected]), "\(pair)")
      if let accepted = byUnions.smallestAccepted { #expect(RuleEvaluator(rule).accepts(accepted)) }
      if let rejected = byUnions.smallestRejected { #expect(!RuleEvaluator(rule).accepts(rejected)) }
    }
    return true
  }

  @Test("unions = count search on 150 seeded pairs of random rules")
  func unionsAgreeOnRandomRules() throws {
    var generator = ExactAnalysisPropertyTests.RuleGenerator(random: SeededGenerator(seed: 0x0_4105))
    let decided = try generator.rulePairs(150).filter { try Self.checkUnionsAgreeWithCounts($0.0, $0.1) }
      .count
    #expect(decided >= 120)
  }

  /// Item terms combined at the context level: some item with one, none with another, every item with a third.
  @Test("unions = count search on 100 seeded pairs of item-level combinations")
  func unionsAgreeOnItemCombinations() throws {
    var generator = ExactAnalysisPropertyTests.RuleGenerator(
      random: SeededGenerator(seed: 0x0_4106), constants: [0, 1, 2, 3],
      types: ExactAnalysisPropertyTests.thresholdTypes)
    func rule() -> String {
      let some = "SUBQUERY(extensionItems, $e, \(generator.item())).@count > 0"
      let none = "SUBQUERY(extensionItems, $e, \(generator.item())).@count == 0"
      let every = "SUBQUERY(extensionItems, $e, \(generator.item())).@count == extensionItems.@count"
      return generator.chance(50) ? "\(some) && \(none) || \(every)" : "(\(some) || \(none)) && \(every)"
    }
    var decided = 0
    for _ in 0..<100 {
      let first = rule()
      if try Self.checkUnionsAgreeWithCounts(first, generator.chance(20) ? first : rule()) { decided += 1 }
    }
    #expect(decided >= 80)
  }

  /// A truth table's entries for sets of 0 to 8 bits: a bit's table is true exactly on the sets holding it,
  /// and the operators work entry by entry, the padding of tables under 64 entries kept clear.
  @Test(arguments: 0...8)
  func truthTables(bitCount: Int) {
    let everything = BitVector(size: 1 << bitCount, value: true)
    #expect(everything.count == 1 << bitCount)
    #expect(everything.not().count == 0)
    for bit in 0..<bitCount {
      let table = BitVector(setsOf: bitCount, holding: bit)
      #expect((0..<(1 << bitCount)).allSatisfy { table[$0] == ($0 & (1 << bit) != 0) })
      #expect(table.count == 1 << (bitCount - 1))
      #expect(table.not().count == 1 << (bitCount - 1))
      #expect(table.or(table.not()) == everything)
      #expect(table.and(table.not()).count == 0)
    }
  }

  /// Bit vectors of any size built entry by entry: the entries, their count and the true entries listed in
  /// order agree with the predicate, and the padding of the last word stays clear.
  @Test(arguments: [0, 1, 63, 64, 65, 130, 200])
  func bitVectorsOfAnySize(size: Int) {
    let isTrue = { (index: Int) in index % 3 == 0 || index % 7 == 1 }
    let vector = BitVector(size: size, isTrue)
    #expect((0..<size).allSatisfy { vector[$0] == isTrue($0) })
    #expect(vector.count == (0..<size).filter(isTrue).count)
    var listed: [Int] = []
    vector.forEachTrue { listed.append($0) }
    #expect(listed == (0..<size).filter(isTrue))
    #expect(vector.not().count == size - vector.count)
    #expect(vector == BitVector(size: size, value: false).or(vector))
  }
}
