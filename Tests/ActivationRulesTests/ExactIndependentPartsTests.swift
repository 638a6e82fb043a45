import PredicateEvaluation
import PredicateSyntax
import TestSupport
import Testing

@testable import ActivationRules

/// The split search (a level searched part by part, `LevelStates+Parts.swift`) against the whole level's
/// search, and the conditions under which a level splits.
@Suite struct ExactIndependentPartsTests {
  static func compare(_ first: PredicateNode, _ second: PredicateNode, splitting: Bool)
    -> ExactRuleAnalysis.Comparison?
  {
    LevelStates.$splitsIndependentParts.withValue(splitting) {
      try? ExactRuleAnalysis.compare(first, second, keep: 20)
    }
  }

  /// Whether the item level of the search over both rules was split.
  static func splits(_ first: PredicateNode, _ second: PredicateNode) throws -> Bool {
    try ExactSearch(rules: [first, second], registry: .system).items.combined != nil
  }

  /// The same classes, the same disagreeing classes, the same sizes of the smallest disagreements, and
  /// every witness a real disagreement. False when the whole search cannot decide the pair.
  static func checkSplitAgreesWithWhole(_ first: PredicateNode, _ second: PredicateNode) throws -> Bool {
    guard let whole = compare(first, second, splitting: false) else { return false }
    let split = try #require(compare(first, second, splitting: true))
    ExactAnalysisPropertyTests.expectSameComparison(split, whole, of: first, second)
    return true
  }

  /// Sets version 2 half the time and `count` random keys, each a maximum from `maximum` (Text: 1). Version
  /// 2: Apple's form asks for some supported attachment, as Microsoft's does; version 1 asks that all be
  /// supported, which puts a "none of these types" count in the core.
  static func addRandomKeys(
    to entries: inout [ActivationDictionary.Key: Int], count: ClosedRange<Int>,
    using random: inout SeededGenerator, maximum: (inout SeededGenerator) -> Int
  ) {
    let keys: [ActivationDictionary.Key] = [
      .attachmentsMaxCount, .fileMaxCount, .imageMaxCount, .movieMaxCount, .text, .webURLMaxCount,
      .webPageMaxCount,
    ]
    if Bool.random(using: &random) { entries[.dictionaryVersion] = 2 }
    for _ in 0..<Int.random(in: count, using: &random) {
      let key = keys[Int.random(in: 0..<keys.count, using: &random)]
      entries[key] = key == .text ? 1 : maximum(&random)
    }
  }

  /// A dictionary rule's Apple form and Microsoft's injected one.
  static func appleAndIntune(_ entries: [ActivationDictionary.Key: Int]) -> (PredicateNode, PredicateNode) {
    let dictionary = ActivationDictionary(entries)
    return (
      DictionaryConverter.predicate(for: dictionary, style: .apple),
      TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
    )
  }

  /// Random dictionaries of one to three keys with small maxima, versions 1 and 2, Apple's form against
  /// Microsoft's injected one: the pairs whose item levels hold originals and twins side by side.
  @Test("split = whole on 80 seeded dictionaries, Apple's form against Microsoft's")
  func splitAgreesOnDictionaries() throws {
    var random = SeededGenerator(seed: 0x5_1017)
    var decided = 0
    var split = 0
    for _ in 0..<80 {
      var entries: [ActivationDictionary.Key: Int] = [:]
      Self.addRandomKeys(to: &entries, count: 1...3, using: &random) { Int.random(in: 1...2, using: &$0) }
      let (apple, intune) = Self.appleAndIntune(entries)
      if try Self.checkSplitAgreesWithWhole(apple, intune) { decided += 1 }
      if try Self.splits(apple, intune) { split += 1 }
    }
    #expect(decided >= 70)
    #expect(split >= 50)
  }

  /// Random item rules of counts of `ANY … UTI-CONFORMS-TO` tests (the shape dictionary rules take), one
  /// against the other given its Intune twins.
  /// The dictionary's own meaning with twins injected (`configure --dictionary-style apple`) against
  /// Microsoft's form: each type is counted as "original or twin" beside the original and the twin alone,
  /// so a part's choices are not closed under subsets (no choice raises the original without the
  /// combined count) and its fronts are checked by a second search; version 1's "none of its types" count
  /// ties originals to twins.
  @Test("split = whole on 80 seeded dictionaries, Apple's form with twins against Microsoft's")
  func splitAgreesOnAppleFormsWithTwins() throws {
    var random = SeededGenerator(seed: 0xA_7715)
    var decided = 0
    var split = 0
    var unproven = 0
    var withNoneChild = 0
    for _ in 0..<80 {
      var entries: [ActivationDictionary.Key: Int] = [:]
      Self.addRandomKeys(to: &entries, count: 1...3, using: &random) { Int.random(in: 1...2, using: &$0) }
      let dictionary = ActivationDictionary(entries)
      let apple = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .apple))
      let intune = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
      if try Self.checkSplitAgreesWithWhole(apple, intune) { decided += 1 }
      let search = try ExactSearch(rules: [apple, intune], registry: .system)
      guard let combined = search.items.combined else { continue }
      split += 1
      if combined.split.frontsProven.contains(false) { unproven += 1 }
      if combined.split.noneChoice != nil { withNoneChild += 1 }
    }
    #expect(decided >= 70)
    #expect(split >= 20)
    #expect(unproven >= 20)
    #expect(withNoneChild >= 5)
  }

  /// Two version 1 dictionaries of the same keys with other maxima, in Apple's form: "every attachment is
  /// supported" makes an attachment of none of the types the none child, and a part's class such as "at
  /// most one file" holds both when the part chooses nothing and when it carries a child, which must be
  /// told apart (real-rules-holdout2/23.plist was once reported never to activate).
  @Test("split = whole on 60 seeded pairs of version 1 dictionaries")
  func splitAgreesOnVersionOneDictionaries() throws {
    var random = SeededGenerator(seed: 0x1_0023)
    let keys: [ActivationDictionary.Key] = [.fileMaxCount, .imageMaxCount, .movieMaxCount, .text]
    var decided = 0
    var withNoneChild = 0
    for _ in 0..<60 {
      var first: [ActivationDictionary.Key: Int] = [:]
      var second: [ActivationDictionary.Key: Int] = [:]
      for key in keys where Bool.random(using: &random) {
        first[key] = key == .text ? 1 : Int.random(in: 1...3, using: &random)
        second[key] = key == .text ? 1 : Int.random(in: 1...3, using: &random)
      }
      let apple = DictionaryConverter.predicate(for: ActivationDictionary(first), style: .apple)
      let other = DictionaryConverter.predicate(for: ActivationDictionary(second), style: .apple)
      if try Self.checkSplitAgreesWithWhole(apple, other) { decided += 1 }
      if try ExactSearch(rules: [apple, other], registry: .system).items.combined?.split.noneChoice != nil {
        withNoneChild += 1
      }
      let activation = try ExactRuleAnalysis.activation(apple)
      let whole = try LevelStates.$splitsIndependentParts.withValue(false) {
        try ExactRuleAnalysis.activation(apple)
      }
      #expect((activation.smallestAccepted == nil) == (whole.smallestAccepted == nil))
      let size = { (context: ExtensionContext) in
        let (items, attachments, types) = ExactAnalysisPropertyTests.size(context)
        return [items, attachments, types]
      }
      #expect(activation.smallestAccepted.map(size) == whole.smallestAccepted.map(size))
      #expect(activation.smallestRejected.map(size) == whole.smallestRejected.map(size))
    }
    #expect(decided >= 55)
    #expect(withNoneChild >= 10)
  }

  @Test("split = whole on 120 seeded random count rules given twins")
  func splitAgreesOnInjectedRules() throws {
    var generator = ExactAnalysisPropertyTests.RuleGenerator(
      random: SeededGenerator(seed: 0x7_1115), constants: [0, 1, 2, 3],
      types: ["public.image", "public.jpeg", "public.url", "public.plain-text"])
    func item() -> String {
      generator.combine(2) { generator in
        if generator.chance(15) { return "$e.attachments.@count \(generator.comparison())" }
        let type = generator.pick(generator.types)
        return "SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(type)\")"
          + ".@count \(generator.comparison())"
      }
    }
    var decided = 0
    var split = 0
    for _ in 0..<120 {
      let first = try PredicateParser.parse("SUBQUERY(extensionItems, $e, \(item())).@count > 0")
      let second = TwinInjector.injectedTree(
        try PredicateParser.parse("SUBQUERY(extensionItems, $e, \(item())).@count > 0"))
      if try Self.checkSplitAgreesWithWhole(first, second) { decided += 1 }
      if try Self.splits(first, second) { split += 1 }
    }
    #expect(decided >= 100)
    #expect(split >= 30)
  }

  /// Dictionaries with large maxima: free parts of counts up to 1 000, which the split search hands to the
  /// interval search (one cheapest state per class) when the grid (every count vector) would be larger.
  @Test("split = whole on 24 seeded dictionaries with maxima up to 999")
  func splitAgreesOnLargeMaxima() throws {
    var random = SeededGenerator(seed: 0x9_9901)
    let maxima = [1, 3, 20, 100, 999]
    var decided = 0
    var byClasses = 0
    for _ in 0..<24 {
      // Files and web URLs or pages exclude each other, so their twins form one free part of two counts.
      let web: ActivationDictionary.Key = Bool.random(using: &random) ? .webURLMaxCount : .webPageMaxCount
      var entries: [ActivationDictionary.Key: Int] = [
        .fileMaxCount: [100, 999][Int.random(in: 0...1, using: &random)],
        web: [100, 999][Int.random(in: 0...1, using: &random)],
      ]
      Self.addRandomKeys(to: &entries, count: 0...3, using: &random) {
        maxima[Int.random(in: 0..<maxima.count, using: &$0)]
      }
      let (apple, intune) = Self.appleAndIntune(entries)
      if try Self.checkSplitAgreesWithWhole(apple, intune) { decided += 1 }
      let search = try ExactSearch(rules: [apple, intune], registry: .system)
      // The interval search keeps its states explicitly; the count searches pack them.
      if let combined = search.items.combined,
        combined.parts.dropLast().contains(where: { if case .explicit = $0.storage { true } else { false } })
      {
        byClasses += 1
      }
    }
    #expect(decided >= 16)
    #expect(byClasses >= 5)
  }

  /// Every maximum 999 beside Text (real-rules-holdout2/12.plist): a free part of two counts up to 1 000 is
  /// 1 002 001 count vectors but 9 classes, and each class's least vector is its whole front.
  @Test func searchesAFreePartOfLargeCountsByClasses() throws {
    let dictionary = ActivationDictionary([
      .attachmentsMaxCount: 999, .fileMaxCount: 999, .imageMaxCount: 999, .movieMaxCount: 999, .text: 1,
      .webPageMaxCount: 999, .webURLMaxCount: 999,
    ])
    let apple = DictionaryConverter.predicate(for: dictionary, style: .apple)
    let intune = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
    let search = try ExactSearch(rules: [apple, intune], registry: .system)
    let combined = try #require(search.items.combined)
    let free = combined.parts.dropLast()
    #expect(free.contains { $0.caps.count == 2 })
    #expect(free.allSatisfy { $0.stateCount <= 1_001 })
    let decision = try SemanticDiff.decide(apple, intune)
    #expect(decision.exactness == .exact)
    for disagreement in decision.report.smallestDisagreements {
      #expect(RuleEvaluator(apple).accepts(disagreement.context) == disagreement.acceptedByFirst)
      #expect(RuleEvaluator(intune).accepts(disagreement.context) == disagreement.acceptedBySecond)
    }
  }

  /// 14.plist's level (seven keys of up to 10, with twins: 1.3 × 10⁹ count vectors per item), which only
  /// the split search decides.
  @Test func decidesTheLargestRealDictionary() throws {
    let dictionary = ActivationDictionary([
      .dictionaryVersion: 2, .attachmentsMaxCount: 10, .fileMaxCount: 10, .imageMaxCount: 10,
      .movieMaxCount: 10, .text: 1, .webURLMaxCount: 1, .webPageMaxCount: 1,
    ])
    let apple = DictionaryConverter.predicate(for: dictionary, style: .apple)
    let intune = TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
    let decision = try SemanticDiff.decide(apple, intune)
    #expect(decision.exactness == .exact)
    #expect(!decision.report.rulesAgree)
    for disagreement in decision.report.smallestDisagreements {
      #expect(RuleEvaluator(apple).accepts(disagreement.context) == disagreement.acceptedByFirst)
      #expect(RuleEvaluator(intune).accepts(disagreement.context) == disagreement.acceptedBySecond)
    }
  }

  static func step(_ increments: [Int], types: Int) -> LevelStates.Step {
    (increments, 0, ExactCost(attachments: 1, types: types))
  }

  /// Every combination of a choice of two parts, costs adding up: two free parts, and a shared slot (the
  /// core).
  @Test func splitsAProductOfChoices() throws {
    let steps = [
      Self.step([2], types: 0), Self.step([0, 2], types: 1), Self.step([1, 2], types: 1),
      Self.step([0, 1, 2], types: 2),
    ]
    let split = try #require(LevelStates.independentParts(steps: steps, caps: [3, 3, 1]))
    #expect(split.core == [2])
    #expect(split.slots == [[0], [1]])
  }

  /// A part that always raises some slot (slot 0: "none of the other types", as version 1 dictionaries
  /// count) joins the core; the free part beside it is searched alone.
  @Test func putsAPartThatNeverChoosesNoneInTheCore() throws {
    let steps = [
      Self.step([0], types: 0), Self.step([1], types: 1), Self.step([0, 2], types: 1),
      Self.step([1, 2], types: 2),
    ]
    let split = try #require(LevelStates.independentParts(steps: steps, caps: [1, 3, 3]))
    #expect(split.core == [0, 1])
    #expect(split.slots == [[2]])
    #expect(split.coreChoices.map(\.increments) == [[0], [1]])
  }

  @Test(
    "levels that do not split",
    arguments: [
      // Each pair of slots combines freely but the three do not (an even number of them): one part.
      [
        ([], 0), ([0, 1], 2), ([0, 2], 2), ([1, 2], 2),
      ],
      // One type raises both slots: the pair costs less than its parts.
      [([], 0), ([0], 1), ([1], 1), ([0, 1], 1)],
      // A combination missing.
      [([], 0), ([0], 1), ([1], 1)],
    ] as [[([Int], Int)]])
  func doesNotSplit(_ steps: [([Int], Int)]) {
    let steps = steps.map { Self.step($0.0, types: $0.1) }
    #expect(LevelStates.independentParts(steps: steps, caps: [2, 2, 2]) == nil)
  }

  /// A part whose choices are closed under subsets and cost the sum of their slots has proven fronts; a
  /// part whose only choice raises two slots at once still splits, its fronts left to be checked.
  @Test func marksPartsWhoseFrontsAreNotProven() throws {
    let steps = [
      Self.step([], types: 0), Self.step([0, 1], types: 2), Self.step([2], types: 1),
      Self.step([0, 1, 2], types: 3),
    ]
    let split = try #require(LevelStates.independentParts(steps: steps, caps: [2, 2, 2]))
    #expect(split.slots == [[0, 1], [2]])
    #expect(split.frontsProven == [false, true])
  }

  /// Slots that combine freely two at a time but not three at a time are one part, and the parts beside
  /// them stay apart: slot 3 is raised exactly when one of slots 1 and 2 is (an apple form's "original or
  /// twin" beside each alone, without the pair itself), slot 0 is free.
  @Test func mergesSlotsDependentThreeAtATime() throws {
    var steps: [LevelStates.Step] = []
    for free in [[], [0]] {
      for (dependent, types) in [([], 0), ([1, 3], 1), ([2, 3], 1), ([1, 2], 2)] as [([Int], Int)] {
        steps.append(Self.step(free + dependent, types: types + free.count))
      }
    }
    let split = try #require(LevelStates.independentParts(steps: steps, caps: [2, 2, 2, 2]))
    #expect(split.slots == [[0], [1, 2, 3]])
  }

  /// A free part's class whose fewest choices cost more types than more choices do (one attachment of
  /// both types costing 3, or two of one type each costing 1): its front has two points, which combining
  /// one state per class would lose, so the check refuses the part; at 2 types the one choice is
  /// cheapest in both and the check passes.
  @Test(arguments: [(3, false), (2, true)])
  func checksThatFrontsAreSinglePoints(bothTypes: Int, single: Bool) throws {
    var level = LevelStates()
    level.atoms = [
      SlotTest(slot: 0, test: CountTest(kind: .compare(.greaterThan, 0))),
      SlotTest(slot: 1, test: CountTest(kind: .compare(.greaterThan, 0))),
    ]
    let steps: [LevelStates.Step] = [
      ([0], 0, ExactCost(attachments: 1, types: 1)), ([1], 1, ExactCost(attachments: 1, types: 1)),
      ([0, 1], 2, ExactCost(attachments: 1, types: bothTypes)),
    ]
    let searched = try level.searched(steps: steps, caps: [1, 1], outputs: nil)
    #expect(
      LevelStates.frontsAreSinglePoints(of: searched, level: level, steps: steps, caps: [1, 1]) == single)
  }

  /// Parts are found over the level's active slots (cap above 0) wherever they sit; a level of more than
  /// 64 active slots is searched whole.
  @Test func splitsOverActiveSlotsUpToSixtyFour() throws {
    // Slots 5 and 70 free, 9 shared; the other 67 slots unused (cap 0).
    var caps = [Int32](repeating: 0, count: 80)
    for slot in [5, 9, 70] { caps[slot] = 2 }
    let steps = [
      Self.step([9], types: 0), Self.step([5, 9], types: 1), Self.step([9, 70], types: 2),
      Self.step([5, 9, 70], types: 3),
    ]
    let split = try #require(LevelStates.independentParts(steps: steps, caps: caps))
    #expect(split.core == [9])
    #expect(split.slots == [[5], [70]])
    #expect(split.choices.map { $0.map(\.types) } == [[1], [2]])
    // Two free slots beside slots every class raises: with 64 active slots the level splits, with 65 it is
    // searched whole.
    for (sharedCount, splits) in [(62, true), (63, false)] {
      let shared = Array(0..<sharedCount)
      let wide = [
        Self.step(shared, types: 0), Self.step(shared + [sharedCount], types: 1),
        Self.step(shared + [sharedCount + 1], types: 1),
        Self.step(shared + [sharedCount, sharedCount + 1], types: 2),
      ]
      let caps = [Int32](repeating: 1, count: sharedCount + 2)
      #expect((LevelStates.independentParts(steps: wide, caps: caps) != nil) == splits)
    }
  }
}
