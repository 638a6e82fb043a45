import ActivationRules
import PredicateSyntax
import Testing
import UniformTypes

/// Hand-made rules the bounded enumeration of `SemanticDiff` got wrong, now decided exactly, with the
/// smallest witness.
@Suite struct ExactAnalysisTests {
  static func parse(_ text: String) throws -> PredicateNode { try PredicateParser.parse(text) }

  /// `SUBQUERY(extensionItems, $e, ITEM).@count >= 1`
  static func someItem(_ item: String) -> String { "SUBQUERY(extensionItems, $e, \(item)).@count >= 1" }
  /// `SUBQUERY($e.attachments, $a, TEST).@count`
  static func attachments(_ test: String) -> String { "SUBQUERY($e.attachments, $a, \(test)).@count" }
  static func any(_ type: String, _ quantifier: String = "ANY") -> String {
    "\(quantifier) $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(type)\""
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var first: String
    var second: String
    /// The smallest witness's items, attachments and types.
    var size: (items: Int, attachments: Int, types: Int)
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a difference only at four attachments",
      first: someItem(attachments(any("public.image")) + " >= 1 AND $e.attachments.@count < 4"),
      second: someItem(attachments(any("public.image")) + " >= 1"), size: (1, 4, 1)),
    Case(
      name: "a @count <= 10 threshold",
      first: someItem(attachments(any("public.image")) + " BETWEEN {1, 10}"),
      second: someItem(attachments(any("public.image")) + " >= 1"), size: (1, 11, 11)),
    Case(
      name: "ALL over an attachment registering no type",
      first: someItem(attachments(any("public.image", "ALL")) + " >= 1"),
      second: someItem(attachments(any("public.image")) + " >= 1"), size: (1, 1, 0)),
    Case(
      name: "NONE beside ANY on one attachment registering two types",
      first: someItem(attachments(any("public.url") + " AND " + any("public.plain-text", "NONE")) + " >= 1"),
      second: someItem(attachments(any("public.url")) + " >= 1"), size: (1, 1, 2)),
    Case(
      name: "a count of items past the enumerated two",
      first: "SUBQUERY(extensionItems, $e, $e.attachments.@count >= 1).@count == 3",
      second: "SUBQUERY(extensionItems, $e, $e.attachments.@count >= 1).@count >= 3", size: (4, 4, 0)),
    Case(
      name: "nested: a count of items each counting more than two images",
      first: "SUBQUERY(extensionItems, $e, \(attachments(any("public.image"))) > 2).@count == 2",
      second: "SUBQUERY(extensionItems, $e, \(attachments(any("public.image"))) > 2).@count >= 2",
      size: (3, 9, 9)),
  ]

  @Test(arguments: cases)
  func exactEngineFindsTheSmallestWitness(_ example: Case) throws {
    let first = try Self.parse(example.first)
    let second = try Self.parse(example.second)
    let comparison = try ExactRuleAnalysis.compare(first, second)
    let witness = try #require(comparison.smallestDisagreements.first)
    let context = witness.context
    #expect(context.extensionItems.count == example.size.items, "\(context.summary)")
    #expect(context.allAttachments.count == example.size.attachments, "\(context.summary)")
    #expect(
      context.allAttachments.reduce(0) { $0 + $1.registeredTypeIdentifiers.count } == example.size.types,
      "\(context.summary)")
    // The witness is real: the evaluator answers differently on it.
    #expect(RuleEvaluator(first).accepts(context) == witness.acceptedByFirst)
    #expect(RuleEvaluator(second).accepts(context) == witness.acceptedBySecond)
    #expect(witness.acceptedByFirst != witness.acceptedBySecond)
  }

  @Test func theBoundedEnumerationMissedEveryOne() throws {
    for example in Self.cases {
      let report = try SemanticDiff.compare(Self.parse(example.first), Self.parse(example.second))
      #expect(report.rulesAgree, "\(example.name)")
    }
  }

  @Test func equivalentRulesAgreeExactly() throws {
    let types = (0..<32).map { "com.example.type\($0)" }
    let forward = Self.someItem(
      Self.attachments(types.map { Self.any($0) }.joined(separator: " || ")) + " <= 10")
    let backward = Self.someItem(
      Self.attachments(types.reversed().map { Self.any($0) }.joined(separator: " OR ")) + " < 11")
    let comparison = try ExactRuleAnalysis.compare(Self.parse(forward), Self.parse(backward))
    #expect(comparison.rulesAgree)
    // ALL over the item's attachments, written two ways.
    let counted =
      "SUBQUERY(extensionItems, $e, \(Self.attachments(Self.any("public.image"))) == "
      + "$e.attachments.@count).@count >= 1"
    let none =
      "SUBQUERY(extensionItems, $e, \(Self.attachments("NOT (\(Self.any("public.image")))")) == 0)"
      + ".@count >= 1"
    #expect(try ExactRuleAnalysis.compare(Self.parse(counted), Self.parse(none)).rulesAgree)
  }

  @Test func neverAndAlwaysAreDecided() throws {
    let never = try ExactRuleAnalysis.activation(
      Self.parse(
        Self.someItem(Self.attachments(Self.any("public.url")) + " > 11 AND $e.attachments.@count <= 11")))
    #expect(never.smallestAccepted == nil)
    let always = try ExactRuleAnalysis.activation(Self.parse("extensionItems.@count >= 1"))
    #expect(always.smallestRejected == nil)
    let sometimes = try ExactRuleAnalysis.activation(
      Self.parse(Self.someItem(Self.attachments(Self.any("public.url")) + " >= 12")))
    #expect(sometimes.smallestAccepted?.allAttachments.count == 12)
    #expect(sometimes.smallestRejected?.summary == "[]")
  }

  @Test(arguments: [
    (#"ANY extensionItems.attributedContentText MATCHES "a.*""#, "MATCHES"),
    ("SUBQUERY(extensionItems, $e, $e.attachments.@count + 1 > 2).@count > 0", "count"),
    (#"FUNCTION(extensionItems, "count") > 0"#, "FUNCTION"),
    (
      "SUBQUERY(extensionItems, $e, \(attachments(any("public.url"))) > \(attachments(any("public.text"))))"
        + ".@count > 0", "either can exceed"
    ),
    // Constants past Int.max are named as they were written (the fuzzer found this message trapping).
    (
      "SUBQUERY(extensionItems, $e, \(attachments(any("public.url"))) <= 2\(String(repeating: "3", count: 72)))"
        + ".@count > 0", "2.333"
    ),
    ("SUBQUERY(extensionItems, $e, \(attachments(any("public.url"))) <= 100000).@count > 0", "100000"),
  ])
  func rulesOutsideTheFragmentSayWhy(rule: String, reasonMentions: String) throws {
    let error = try #require(throws: ExactRuleAnalysis.Undecidable.self) {
      try ExactRuleAnalysis.activation(Self.parse(rule))
    }
    #expect(error.reason.contains(reasonMentions), "\(error.reason)")
  }

  /// A maximum `K` on one count, alone or beside a bound on all attachments (a sum of that count and the
  /// rest): the smallest witness holds `K + 1` attachments however large `K` is, 99 included.
  @Test(arguments: [4, 10, 99])
  func largeMaximaAreDecidedExactly(maximum: Int) throws {
    let images = Self.attachments(Self.any("public.image"))
    let alone = try ExactRuleAnalysis.compare(
      Self.parse(Self.someItem("\(images) BETWEEN {1, \(maximum)}")),
      Self.parse(Self.someItem("\(images) >= 1")))
    let witness = try #require(alone.smallestDisagreements.first?.context)
    #expect(witness.allAttachments.count == maximum + 1)
    #expect(witness.allAttachments.allSatisfy { $0.registeredTypeIdentifiers.count == 1 })
    // The bound on every attachment against the bound on images: K + 1 attachments, one of them an image.
    let sum = try ExactRuleAnalysis.compare(
      Self.parse(Self.someItem("\(images) >= 1 AND $e.attachments.@count <= \(maximum)")),
      Self.parse(Self.someItem("\(images) >= 1 AND \(images) <= \(maximum)")))
    let sumWitness = try #require(sum.smallestDisagreements.first?.context)
    #expect(sumWitness.allAttachments.count == maximum + 1)
    #expect(sumWitness.allAttachments.reduce(0) { $0 + $1.registeredTypeIdentifiers.count } == 1)
    let first = Self.someItem("\(images) >= 1 AND $e.attachments.@count <= \(maximum)")
    #expect(!RuleEvaluator(try Self.parse(first)).accepts(sumWitness))
    // Written two ways, the same maximum agrees.
    #expect(
      try ExactRuleAnalysis.compare(
        Self.parse(Self.someItem("\(images) <= \(maximum) AND \(images) > 0")),
        Self.parse(Self.someItem("\(images) < \(maximum + 1) AND \(images) >= 1"))
      ).rulesAgree)
  }

  /// Several categories of up to 99 that one attachment can raise together (real rule 20 against the same
  /// rule with Intune twins injected, as `rulekit inject` writes it): 100⁶ count states, decided exactly by
  /// count intervals. Beyond the one-attachment
  /// differences (a twin alone), the forms differ at 100 attachments: 99 movies and one attachment with an
  /// image and a twin movie are 99 movies to Apple's form but 100 movies-or-twins to the Intune form.
  @Test func manyLargeMaximaAreDecidedExactly() throws {
    let dictionary = ActivationDictionary([.fileMaxCount: 99, .imageMaxCount: 99, .movieMaxCount: 99])
    let apple = DictionaryConverter.predicate(for: dictionary, style: .apple)
    let intune = TwinInjector.injectedTree(apple)
    let comparison = try ExactRuleAnalysis.compare(apple, intune, keep: 1_000)
    #expect(!comparison.rulesAgree)
    let onlyAppleAccepts = comparison.smallestDisagreements.filter { $0.acceptedByFirst }
    let smallest = try #require(onlyAppleAccepts.first)
    #expect(smallest.context.allAttachments.count == 100)
    #expect(RuleEvaluator(apple).accepts(smallest.context))
    #expect(!RuleEvaluator(intune).accepts(smallest.context))
    let decision = try SemanticDiff.decide(apple, intune)
    #expect(decision.exactness.isExact)
  }
}
