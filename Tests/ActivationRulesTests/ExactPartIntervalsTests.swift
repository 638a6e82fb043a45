import PredicateEvaluation
import PredicateSyntax
import TestSupport
import Testing

@testable import ActivationRules

/// The interval search over supporting parts (`LevelStates+PartIntervals.swift`): a level of supporting parts
/// whose tables outgrow their bound, searched by count intervals over each part's choices and the number of
/// children, against the count search and the whole level's interval search.
@Suite struct ExactPartIntervalsTests {
  /// Bounds under which the count searches refuse every level and no part's table is built, so that small
  /// levels take the interval search over parts as the large ones of real rules do.
  static let withoutTables = LevelStates.Limits(
    countStates: 4, combinations: .max, gridWork: 4, exploreWork: 4, gridCells: 4, supportTableEntries: 0)

  /// The search over parts against the count search (every count vector) on random levels, every atom read:
  /// the same classes at the same cheapest costs, and each state's witness a collection of its counts and
  /// cost.
  @Test("parts by intervals = count search on 300 random levels")
  func agreesWithTheCountSearchOnRandomLevels() throws {
    let searched = try ExactSupportingPartsTests.checkAgainstTheCountSearch(seed: 0x5_3002) {
      level, split, caps in
      try level.searchSupportingPartIntervals(split, caps: caps, outputs: nil)
    }
    #expect(searched >= 140)
  }

  /// Whether the item level of the search over both rules was searched over parts by intervals.
  static func searchedByPartIntervals(_ first: PredicateNode, _ second: PredicateNode) throws -> Bool {
    let search = try LevelStates.$limits.withValue(withoutTables) {
      try ExactSearch(rules: [first, second], registry: .system)
    }
    guard case .explicit(let states) = search.items.storage else { return false }
    return states.byPartIntervals
  }

  /// Version 1 dictionaries naming web URLs beside other keys, with maxima up to 5 and sometimes a bound
  /// on the attachments: Apple's form with twins against Microsoft's, over parts by intervals against the
  /// whole level's interval search.
  @Test("parts by intervals = whole search on 30 seeded version 1 dictionaries")
  func agreesWithTheWholeSearch() throws {
    var random = SeededGenerator(seed: 0x5_0920)
    let others: [ActivationDictionary.Key] = [
      .imageMaxCount, .movieMaxCount, .fileMaxCount, .text, .attachmentsMaxCount,
    ]
    var byPartIntervals = 0
    for _ in 0..<30 {
      var entries: [ActivationDictionary.Key: Int] = [.webURLMaxCount: Int.random(in: 1...5, using: &random)]
      for _ in 0..<Int.random(in: 1...2, using: &random) {
        let key = others[Int.random(in: 0..<others.count, using: &random)]
        entries[key] = key == .text ? 1 : Int.random(in: 1...5, using: &random)
      }
      let dictionary = ActivationDictionary(entries)
      let apple = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .apple))
      let intune = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
      var limits = LevelStates.limits
      limits.combinations = .max
      let whole = try LevelStates.$limits.withValue(limits) {
        try LevelStates.$splitsIndependentParts.withValue(false) {
          try ExactRuleAnalysis.compare(apple, intune, keep: 20)
        }
      }
      let split = try LevelStates.$limits.withValue(Self.withoutTables) {
        try ExactRuleAnalysis.compare(apple, intune, keep: 20)
      }
      ExactAnalysisPropertyTests.expectSameComparison(split, whole, of: apple, intune)
      if try Self.searchedByPartIntervals(apple, intune) { byPartIntervals += 1 }
    }
    #expect(byPartIntervals >= 20)
  }
}
