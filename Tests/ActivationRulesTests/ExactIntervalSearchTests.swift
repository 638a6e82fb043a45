import PredicateEvaluation
import PredicateSyntax
import TestSupport
import Testing

@testable import ActivationRules

/// The interval search (integer programs per combination of count intervals) against the count search
/// (Dijkstra over saturated counts) and against brute force, and the large maxima it decides.
@Suite struct ExactIntervalSearchTests {
  typealias Size = (Int, Int, Int)

  static func compare(_ first: PredicateNode, _ second: PredicateNode, _ strategy: LevelStates.Strategy)
    -> ExactRuleAnalysis.Comparison?
  {
    LevelStates.$forcedStrategy.withValue(strategy) { try? ExactRuleAnalysis.compare(first, second, keep: 1) }
  }

  static func activation(_ rule: PredicateNode, _ strategy: LevelStates.Strategy) -> ExactRuleAnalysis
    .Activation?
  {
    LevelStates.$forcedStrategy.withValue(strategy) { try? ExactRuleAnalysis.activation(rule) }
  }

  static func size(_ context: ExtensionContext?) -> Size? {
    context.map(ExactAnalysisPropertyTests.size)
  }

  /// Both searches on the same pair: the same answer, smallest witnesses of the same size, each a real
  /// disagreement. Returns whether both decided it.
  static func checkStrategiesAgree(_ firstText: String, _ secondText: String) throws -> Bool {
    let first = try PredicateParser.parse(firstText)
    let second = try PredicateParser.parse(secondText)
    guard let counts = compare(first, second, .counts) else { return false }
    let intervals = try #require(compare(first, second, .intervals), "\(firstText) vs \(secondText)")
    #expect(counts.rulesAgree == intervals.rulesAgree, "\(firstText) vs \(secondText)")
    let countWitness = counts.smallestDisagreements.first?.context
    let intervalWitness = intervals.smallestDisagreements.first?.context
    #expect(
      size(countWitness).map { [$0.0, $0.1, $0.2] } == size(intervalWitness).map { [$0.0, $0.1, $0.2] },
      "\(firstText) vs \(secondText): \(countWitness?.summary ?? "-") vs \(intervalWitness?.summary ?? "-")")
    if let disagreement = intervals.smallestDisagreements.first {
      #expect(RuleEvaluator(first).accepts(disagreement.context) == disagreement.acceptedByFirst)
      #expect(RuleEvaluator(second).accepts(disagreement.context) == disagreement.acceptedBySecond)
      #expect(disagreement.acceptedByFirst != disagreement.acceptedBySecond)
    }
    for (rule, text) in [(first, firstText), (second, secondText)] {
      let byCounts = try #require(activation(rule, .counts))
      let byIntervals = try #require(activation(rule, .intervals), "\(text)")
      #expect(
        size(byCounts.smallestAccepted).map { [$0.0, $0.1, $0.2] }
          == size(byIntervals.smallestAccepted).map { [$0.0, $0.1, $0.2] }, "\(text)")
      #expect(
        size(byCounts.smallestRejected).map { [$0.0, $0.1, $0.2] }
          == size(byIntervals.smallestRejected).map { [$0.0, $0.1, $0.2] }, "\(text)")
    }
    return true
  }

  @Test("interval search = count search on 150 seeded pairs of random rules")
  func strategiesAgreeOnRandomRules() throws {
    var generator = ExactAnalysisPropertyTests.RuleGenerator(random: SeededGenerator(seed: 0x1_17E5))
    let decided = try generator.rulePairs(150).filter { try Self.checkStrategiesAgree($0.0, $0.1) }.count
    #expect(decided >= 120)
  }

  @Test("interval search = count search on 100 seeded pairs with thresholds up to 6 and summed counts")
  func strategiesAgreeOnLargerThresholds() throws {
    var generator = ExactAnalysisPropertyTests.RuleGenerator(
      random: SeededGenerator(seed: 0x6_0A45), constants: [0, 1, 2, 3, 5, 6],
      types: ExactAnalysisPropertyTests.thresholdTypes)
    let decided = try generator.itemRulePairs(100).filter { try Self.checkStrategiesAgree($0.0, $0.1) }.count
    #expect(decided >= 80)
  }

  /// Intervals of one count: the runs every test answers alike, the last one unbounded from the cap on.
  @Test(
    arguments: [
      (2, [CountTest(kind: .compare(.greaterThanOrEqualTo, 1))], [(0, 0), (1, nil)]),
      (100, [CountTest(kind: .compare(.lessThanOrEqualTo, 99))], [(0, 99), (100, nil)]),
      (
        5, [CountTest(kind: .compare(.lessThanOrEqualTo, 4)), CountTest(kind: .compare(.greaterThan, 0))],
        [(0, 0), (1, 4), (5, nil)]
      ),
      (4, [CountTest(kind: .between(1, 3))], [(0, 0), (1, 3), (4, nil)]),
      (4, [CountTest(kind: .oneOf([1, 3]))], [(0, 0), (1, 1), (2, 2), (3, 3), (4, nil)]),
      (3, [CountTest(kind: .compare(.equalTo, 2.5))], [(0, nil)]),
      (3, [CountTest(kind: .compare(.lessThan, 2.5))], [(0, 2), (3, nil)]),
    ] as [(Int32, [CountTest], [(Int, Int?)])])
  func intervals(cap: Int32, tests: [CountTest], expected: [(Int, Int?)]) {
    let intervals = LevelStates.intervals(cap: cap, tests: tests)
    #expect(intervals == expected.map { LevelStates.CountInterval(low: $0.0, high: $0.1) })
  }

  /// Random programs of the shape the search builds (0/1 rows, `≥`/`≤` bounds, a row bounding the sum)
  /// against listing every vector of values up to that bound.
  /// The second set is larger, with costs of the folded (items, attachments, types) kind: what the dual
  /// simplex method's pivots meet on real levels.
  @Test(
    "integer programs = brute force on 300 seeded programs",
    arguments: [
      (seed: 0x11_9C0D, variables: 4, rows: 4, costs: 7),
      (seed: 0x2D_51A7, variables: 6, rows: 7, costs: 500),
    ]
  )
  func integerProgramsAgreeWithBruteForce(
    seed: UInt64, variables maxVariables: Int, rows maxRows: Int, costs maxCost: Int
  )
    throws
  {
    var random = SeededGenerator(seed: seed)
    var feasible = 0
    for _ in 0..<300 {
      let variables = Int.random(in: 1...maxVariables, using: &random)
      var program = IntegerProgram(
        variableCount: variables,
        costs: (0..<variables).map { _ in Int.random(in: 1...maxCost, using: &random) })
      for _ in 0..<Int.random(in: 1...maxRows, using: &random) {
        let members = (0..<variables).filter { _ in Bool.random(using: &random) }
        guard !members.isEmpty else { continue }
        program.rows.append(
          .init(
            variables: members, relation: Bool.random(using: &random) ? .atLeast : .atMost,
            bound: Int.random(in: 0...5, using: &random)))
      }
      let limit = Int.random(in: 0...(maxVariables > 4 ? 4 : 6), using: &random)
      program.rows.append(.init(variables: Array(0..<variables), relation: .atMost, bound: limit))
      var best: Int?
      var values = Array(repeating: 0, count: variables)
      func holds() -> Bool {
        program.rows.allSatisfy { row in
          let sum = row.variables.reduce(0) { $0 + values[$1] }
          return row.relation == .atLeast ? sum >= row.bound : sum <= row.bound
        }
      }
      func enumerate(_ index: Int) {
        guard index < variables else {
          if holds() {
            let cost = zip(program.costs, values).reduce(0) { $0 + $1.0 * $1.1 }
            best = min(best ?? cost, cost)
          }
          return
        }
        for value in 0...limit {
          values[index] = value
          enumerate(index + 1)
        }
      }
      enumerate(0)
      let solution = try program.minimum()
      #expect(solution?.cost == best, "\(program)")
      // The relaxation bounds the program from below, and its optimum meets every row.
      var linear = try LinearRelaxation(program: program, extraRows: [])
      let relaxed = try linear.solve()
      #expect(best == nil || relaxed != nil, "\(program)")
      // Rows added to a solved relaxation, solved on from there (the interval search's way), reach the
      // same optimum as all rows at once.
      var incremental = LinearRelaxation(costs: program.costs)
      let half = program.rows.count / 2
      for row in program.rows.prefix(half) { try incremental.add(row) }
      let earlier = try incremental.solve()
      for row in program.rows.dropFirst(half) { try incremental.add(row) }
      let resumed = earlier == nil ? nil : try incremental.solve()
      #expect(resumed?.objective == relaxed?.objective, "\(program)")
      if let relaxed, let best {
        #expect(!(ExactFraction(integer: best) < relaxed.objective), "\(program)")
        let objective = try zip(program.costs, relaxed.values).reduce(ExactFraction.zero) {
          try $0.adding($1.1.multiplied(by: ExactFraction(integer: $1.0)))
        }
        #expect(objective == relaxed.objective, "\(program)")
        for row in program.rows {
          let sum = try row.variables.reduce(ExactFraction.zero) { try $0.adding(relaxed.values[$1]) }
          let bound = ExactFraction(integer: row.bound)
          #expect(row.relation == .atLeast ? !(sum < bound) : !(bound < sum), "\(program)")
        }
      }
      if let solution {
        feasible += 1
        values = solution.values
        #expect(holds())
        #expect(zip(program.costs, solution.values).reduce(0) { $0 + $1.0 * $1.1 } == solution.cost)
      }
    }
    #expect(feasible > 60 && feasible < 280)
  }

  static func someItem(_ condition: String) -> String {
    "SUBQUERY(extensionItems, $e, \(condition)).@count >= 1"
  }

  static func typeCount(_ type: String) -> String {
    "SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(type)\").@count"
  }

  static let onlyImagesAndMovies =
    "SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\" OR "
    + "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.movie\").@count == $e.attachments.@count"

  /// Up to 99 images and 99 movies, and nothing else, allow at most 198 attachments: a limit of 198 changes
  /// nothing, a limit of 197 differs only at 198 attachments — which the smallest witness has.
  @Test func differenceOnlyAtTheSumOfTwoLargeMaxima() throws {
    let base =
      "\(Self.typeCount("public.image")) <= 99 AND \(Self.typeCount("public.movie")) <= 99 AND "
      + Self.onlyImagesAndMovies
    let rule = try PredicateParser.parse(Self.someItem(base))
    let same = try PredicateParser.parse(Self.someItem(base + " AND $e.attachments.@count <= 198"))
    let tighter = try PredicateParser.parse(Self.someItem(base + " AND $e.attachments.@count <= 197"))
    #expect(try ExactRuleAnalysis.compare(rule, same).rulesAgree)
    let comparison = try ExactRuleAnalysis.compare(rule, tighter, keep: 1)
    let witness = try #require(comparison.smallestDisagreements.first)
    #expect(witness.acceptedByFirst && !witness.acceptedBySecond)
    #expect(ExactAnalysisPropertyTests.size(witness.context) == (1, 198, 198))
    #expect(RuleEvaluator(rule).accepts(witness.context))
    #expect(!RuleEvaluator(tighter).accepts(witness.context))
  }

  /// The counterexample to scaling constants down (DocC, "Deciding rules exactly"): with every attachment an
  /// image or a file, more than 20 twins of images need more than 10 + 10 images and files, so the rule
  /// never activates (scaled to "> 2, ≤ 1, ≤ 1" it would not, either; to "> 3, ≤ 2, ≤ 2" it would: the
  /// sum, not the intervals, decides). Both searches agree.
  @Test(arguments: [LevelStates.Strategy.counts, .intervals])
  func scalingCounterexampleNeverActivates(strategy: LevelStates.Strategy) throws {
    let twin = "com.microsoft.intune.mam.public.image"
    let onlyImagesAndFiles =
      "SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\" OR "
      + "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.file-url\").@count == $e.attachments.@count"
    let rule = try PredicateParser.parse(
      Self.someItem(
        "\(Self.typeCount(twin)) > 20 AND \(Self.typeCount("public.image")) <= 10 AND "
          + "\(Self.typeCount("public.file-url")) <= 10 AND \(onlyImagesAndFiles)"))
    let activation = try #require(Self.activation(rule, strategy))
    #expect(activation.smallestAccepted == nil)
    let reachable = try PredicateParser.parse(
      Self.someItem(
        "\(Self.typeCount(twin)) > 20 AND \(Self.typeCount("public.image")) <= 10 AND "
          + "\(Self.typeCount("public.file-url")) <= 10"))
    let accepted = try #require(Self.activation(reachable, strategy)?.smallestAccepted)
    // Twenty-one twins alone, in one item: they are neither images nor files.
    #expect(ExactAnalysisPropertyTests.size(accepted) == (1, 21, 21))
  }
}

extension ExactIntervalSearchTests {
  /// A dictionary rule with maxima of 3 against its Intune forms (Microsoft's and the injected one): small
  /// enough for the count search, so both searches must tell apart the same classes of contexts and find
  /// witnesses of the same sizes.
  @Test(arguments: [false, true])
  func strategiesAgreeOnDictionaryRules(injected: Bool) throws {
    let dictionary = ActivationDictionary([.fileMaxCount: 3, .imageMaxCount: 3, .movieMaxCount: 3])
    let apple = DictionaryConverter.predicate(for: dictionary, style: .apple)
    let intune =
      injected
      ? TwinInjector.injectedTree(apple)
      : TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
    let byCounts = try #require(
      LevelStates.$forcedStrategy.withValue(.counts) {
        try? ExactRuleAnalysis.compare(apple, intune, keep: 50)
      })
    let byIntervals = try #require(
      LevelStates.$forcedStrategy.withValue(.intervals) {
        try? ExactRuleAnalysis.compare(apple, intune, keep: 50)
      })
    #expect(byCounts.contextClasses == byIntervals.contextClasses)
    #expect(byCounts.disagreeingClasses == byIntervals.disagreeingClasses)
    #expect(
      byCounts.smallestDisagreements.map {
        [ExactAnalysisPropertyTests.size($0.context)].map { [$0.0, $0.1, $0.2] }
      }
        == byIntervals.smallestDisagreements.map {
          [ExactAnalysisPropertyTests.size($0.context)].map { [$0.0, $0.1, $0.2] }
        })
  }
}
