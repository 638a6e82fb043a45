import PredicateEvaluation
import PredicateSyntax
import TestSupport
import Testing

@testable import ActivationRules

/// The search by supporting parts (`LevelStates+SupportingParts.swift`): a level of independent parts whose
/// count of unsupported children more classes than the empty one raise, or whose children are counted up to
/// a bound, against the whole level's search.
@Suite struct ExactSupportingPartsTests {
  /// Bounds under which the count searches refuse every level, so that small levels, which the count search
  /// decides first, take the search by supporting parts as large ones do; the interval search has no bound.
  static let withoutCountSearch = LevelStates.Limits(
    countStates: 4, combinations: .max, gridWork: 4, exploreWork: 4, gridCells: 4)

  /// Whether the item level of the search over both rules was searched by supporting parts.
  static func searchedBySupportingParts(_ first: PredicateNode, _ second: PredicateNode) throws -> Bool {
    let search = try LevelStates.$limits.withValue(withoutCountSearch) {
      try ExactSearch(rules: [first, second], registry: .system)
    }
    guard case .explicit(let states) = search.items.storage else { return false }
    return states.bySupportingParts
  }

  /// The whole level's search without its time bound, against the default search: same classes, same
  /// disagreements, same witness sizes, every witness real.
  static func checkAgainstWhole(_ first: PredicateNode, _ second: PredicateNode) throws {
    var limits = LevelStates.limits
    limits.combinations = .max
    let whole = try LevelStates.$limits.withValue(limits) {
      try LevelStates.$splitsIndependentParts.withValue(false) {
        try ExactRuleAnalysis.compare(first, second, keep: 20)
      }
    }
    let split = try LevelStates.$limits.withValue(withoutCountSearch) {
      try ExactRuleAnalysis.compare(first, second, keep: 20)
    }
    ExactAnalysisPropertyTests.expectSameComparison(split, whole, of: first, second)
  }

  /// Version 1 dictionaries naming web URLs beside one or two other keys, maxima 1 or 2, sometimes a
  /// bound on the attachments: Apple's form with twins against Microsoft's. A URL beside a twin file URL
  /// chooses in the URL part and is still unsupported by the apple form.
  @Test("supporting parts = whole on 60 seeded version 1 dictionaries naming web URLs")
  func agreesWithTheWholeSearch() throws {
    var random = SeededGenerator(seed: 0x5_0919)
    let others: [ActivationDictionary.Key] = [.imageMaxCount, .movieMaxCount, .text, .attachmentsMaxCount]
    var bySupportingParts = 0
    for _ in 0..<60 {
      var entries: [ActivationDictionary.Key: Int] = [.webURLMaxCount: Int.random(in: 1...2, using: &random)]
      for _ in 0..<Int.random(in: 1...2, using: &random) {
        let key = others[Int.random(in: 0..<others.count, using: &random)]
        entries[key] = key == .text ? 1 : Int.random(in: 1...2, using: &random)
      }
      let dictionary = ActivationDictionary(entries)
      let apple = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .apple))
      let intune = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
      try Self.checkAgainstWhole(apple, intune)
      if try Self.searchedBySupportingParts(apple, intune) { bySupportingParts += 1 }
    }
    #expect(bySupportingParts >= 40)
  }
}

extension ExactSupportingPartsTests {
  /// A level built by hand: slot 0 counts every child, slot 1 the unsupported ones, then each part's slots;
  /// every combination of one choice (or none) per part is a class of children.
  struct SyntheticLevel {
    var level = LevelStates()
    var steps: [LevelStates.Step] = []
    var caps: [Int32] = []
  }

  /// A random level of one to three parts of one or two slots, choices of one or two slots, some supporting,
  /// and count tests with constants below each slot's cap.
  static func syntheticLevel(using random: inout SeededGenerator) -> SyntheticLevel {
    var result = SyntheticLevel()
    var caps: [Int32] = [Int32.random(in: 1...3, using: &random), 1]
    var parts: [[(slots: [Int], types: Int, supporting: Bool)]] = []
    for _ in 0..<Int.random(in: 1...3, using: &random) {
      let first = caps.count
      let width = Int.random(in: 1...2, using: &random)
      for _ in 0..<width { caps.append(Int32.random(in: 1...3, using: &random)) }
      let masks = width == 1 ? [[first]] : [[first], [first + 1], [first, first + 1]]
      var choices: [(slots: [Int], types: Int, supporting: Bool)] = []
      for mask in masks where choices.isEmpty || Bool.random(using: &random) {
        choices.append((mask, Int.random(in: 1...2, using: &random), Bool.random(using: &random)))
      }
      parts.append(choices)
    }
    if !parts.contains(where: { $0.contains { $0.supporting } }) { parts[0][0].supporting = true }
    result.caps = caps
    // Tests: the children counted exactly or up to a bound, no unsupported child, and each part slot
    // compared with a constant below its cap (its counts past the cap answer alike).
    func test(cap: Int32) -> CountTest {
      let constant = Double(Int.random(in: 0..<Int(cap), using: &random))
      let operators: [ComparisonOperator] = [.equalTo, .lessThanOrEqualTo, .greaterThan]
      return CountTest(kind: .compare(operators[Int.random(in: 0..<3, using: &random)], constant))
    }
    result.level.atoms = [SlotTest(slot: 0, test: test(cap: caps[0])), SlotTest(slot: 1, test: test(cap: 1))]
    for slot in 2..<caps.count {
      for _ in 0..<Int.random(in: 1...2, using: &random) {
        result.level.atoms.append(SlotTest(slot: slot, test: test(cap: caps[slot])))
      }
    }
    // Every combination of choices, each part's none first.
    var combinations: [[Int]] = [[]]
    for choices in parts {
      combinations = combinations.flatMap { prefix in (-1..<choices.count).map { prefix + [$0] } }
    }
    for (child, combination) in combinations.enumerated() {
      var increments = [0]
      var types = 0
      var supported = false
      for (part, choice) in combination.enumerated() where choice >= 0 {
        increments += parts[part][choice].slots
        types += parts[part][choice].types
        supported = supported || parts[part][choice].supporting
      }
      if !supported { increments.append(1) }
      result.steps.append((increments, child, ExactCost(attachments: 1, types: types)))
    }
    return result
  }

  /// Each class of a searched level (the atoms holding) with its cheapest cost.
  static func cheapestByClass(_ level: LevelStates) -> [[Bool]: ExactCost] {
    var result: [[Bool]: ExactCost] = [:]
    for state in 0..<level.stateCount {
      let key = level.atoms.indices.map { level.holds(atom: $0, in: state) }
      result[key] = Swift.min(result[key] ?? level.costs[state], level.costs[state])
    }
    return result
  }

  /// Each state's witness: a collection of the synthetic level's children with the state's counts and cost.
  static func expectWitnessesReach(_ level: LevelStates, _ synthetic: SyntheticLevel) {
    for state in 0..<level.stateCount {
      var counts = [Int](repeating: 0, count: synthetic.caps.count)
      var cost = ExactCost()
      for child in level.children(of: state) {
        for slot in synthetic.steps[child].increments { counts[slot] += 1 }
        cost = cost + synthetic.steps[child].cost
      }
      let capped = zip(counts, synthetic.caps).map { Swift.min($0, Int($1)) }
      #expect(capped == synthetic.caps.indices.map { level.count(state, slot: $0) })
      #expect(cost == level.costs[state])
    }
  }

  /// A search of a split level against the count search (every count vector) on 300 random levels: the
  /// same classes at the same cheapest costs, and each state's witness a collection of its counts and cost.
  /// `search` searches the level by its split and says whether it did; returns how many levels split.
  static func checkAgainstTheCountSearch(
    seed: UInt64, _ search: (inout LevelStates, LevelStates.SupportingParts, [Int32]) throws -> Bool
  ) throws -> Int {
    var random = SeededGenerator(seed: seed)
    var searched = 0
    for _ in 0..<300 {
      let synthetic = Self.syntheticLevel(using: &random)
      guard let split = LevelStates.supportingParts(steps: synthetic.steps, caps: synthetic.caps) else {
        continue
      }
      var bySplit = synthetic.level
      let found = try search(&bySplit, split, synthetic.caps)
      try #require(found)
      var byCounts = synthetic.level
      let counted = try byCounts.countSearch(steps: synthetic.steps, caps: synthetic.caps)
      try #require(counted)
      #expect(Self.cheapestByClass(bySplit) == Self.cheapestByClass(byCounts))
      Self.expectWitnessesReach(bySplit, synthetic)
      searched += 1
    }
    return searched
  }

  /// The search by supporting parts against the count search on random levels.
  @Test("supporting parts = count search on 300 random levels")
  func agreesWithTheCountSearchOnRandomLevels() throws {
    let searched = try Self.checkAgainstTheCountSearch(seed: 0x5_3001) { level, split, caps in
      level.searchSupportingParts(split, caps: caps)
    }
    #expect(searched >= 140)
  }
}
