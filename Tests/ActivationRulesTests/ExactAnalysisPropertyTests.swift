import ActivationRules
import PredicateEvaluation
import PredicateSyntax
import TestSupport
import Testing
import UniformTypes

/// The exact engine against brute-force enumeration on seeded random rules: wherever enumeration finds a
/// disagreement the exact engine finds one no larger, every exact witness is a real disagreement, and
/// where the exact engine says the rules agree enumeration finds nothing.
@Suite struct ExactAnalysisPropertyTests {

  static let types = ["public.image", "public.jpeg", "public.url", "com.microsoft.intune.mam.public.jpeg"]
  /// Fewer types, for the tests whose larger thresholds make each type's classes count: one, an unrelated
  /// one, and a twin of a descendant.
  static let thresholdTypes = ["public.image", "public.url", "com.microsoft.intune.mam.public.jpeg"]

  /// Random rules in the fragment, small constants so enumeration's bounds reach every threshold.
  struct RuleGenerator {
    var random: SeededGenerator
    /// The numbers counts are compared with.
    var constants = [0, 1, 2]
    /// The types UTI tests name.
    var types = ExactAnalysisPropertyTests.types

    mutating func pick<T>(_ choices: [T]) -> T { choices[Int.random(in: 0..<choices.count, using: &random)] }
    mutating func chance(_ percent: Int) -> Bool { Int.random(in: 0..<100, using: &random) < percent }

    mutating func comparison() -> String { pick(["==", "!=", "<", "<=", ">", ">="]) + " \(pick(constants))" }

    mutating func combine(_ depth: Int, _ leaf: (inout RuleGenerator) -> String) -> String {
      guard depth > 0, chance(45) else { return leaf(&self) }
      if chance(20) { return "NOT (\(combine(depth - 1, leaf)))" }
      let op = pick(["AND", "OR"])
      return "(\(combine(depth - 1, leaf)) \(op) \(combine(depth - 1, leaf)))"
    }

    mutating func attachment() -> String {
      combine(1) { generator in
        if generator.chance(15) { return "$a.registeredTypeIdentifiers.@count \(generator.comparison())" }
        let quantifier = generator.pick(["ANY", "ALL", "NONE"])
        let op = generator.chance(80) ? "UTI-CONFORMS-TO" : "UTI-EQUALS"
        return
          "\(quantifier) $a.registeredTypeIdentifiers \(op) \"\(generator.pick(generator.types))\""
      }
    }

    mutating func item() -> String {
      combine(1) { generator in
        switch Int.random(in: 0..<5, using: &generator.random) {
        case 0: return "$e.attachments.@count \(generator.comparison())"
        case 1:
          return "SUBQUERY($e.attachments, $a, \(generator.attachment())).@count == $e.attachments.@count"
        default:
          return "SUBQUERY($e.attachments, $a, \(generator.attachment())).@count \(generator.comparison())"
        }
      }
    }

    /// `count` pairs of random rules, three in ten a rule against itself.
    mutating func rulePairs(_ count: Int) -> [(String, String)] {
      (0..<count).map { _ in
        let first = rule()
        return (first, chance(30) ? first : rule())
      }
    }

    /// `count` pairs of "some item satisfies a random item rule", three in ten a rule against itself.
    mutating func itemRulePairs(_ count: Int) -> [(String, String)] {
      (0..<count).map { _ in
        let first = "SUBQUERY(extensionItems, $e, \(item())).@count >= 1"
        return (first, chance(30) ? first : "SUBQUERY(extensionItems, $e, \(item())).@count >= 1")
      }
    }

    mutating func rule() -> String {
      combine(1) { generator in
        switch Int.random(in: 0..<5, using: &generator.random) {
        case 0: return "extensionItems.@count \(generator.comparison())"
        case 1: return "SUBQUERY(extensionItems, $e, \(generator.item())).@count == extensionItems.@count"
        default: return "SUBQUERY(extensionItems, $e, \(generator.item())).@count \(generator.comparison())"
        }
      }
    }
  }

  static func size(_ context: ExtensionContext) -> (Int, Int, Int) {
    (
      context.extensionItems.count, context.allAttachments.count,
      context.allAttachments.reduce(0) { $0 + $1.registeredTypeIdentifiers.count }
    )
  }

  /// Two searches' comparisons of the same rules agree — the same classes, the same disagreeing classes,
  /// witnesses of the same sizes (searches may break ties between equally cheap witnesses differently) —
  /// and every witness of `checked` is a real disagreement.
  static func expectSameComparison(
    _ checked: ExactRuleAnalysis.Comparison, _ reference: ExactRuleAnalysis.Comparison,
    of first: PredicateNode, _ second: PredicateNode, _ comment: Comment? = nil,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(checked.contextClasses == reference.contextClasses, comment, sourceLocation: sourceLocation)
    #expect(
      checked.disagreeingClasses == reference.disagreeingClasses, comment, sourceLocation: sourceLocation)
    let sizes = { (comparison: ExactRuleAnalysis.Comparison) in
      comparison.smallestDisagreements.map { disagreement in
        let size = Self.size(disagreement.context)
        return [size.0, size.1, size.2]
      }
    }
    #expect(sizes(checked) == sizes(reference), comment, sourceLocation: sourceLocation)
    for disagreement in checked.smallestDisagreements {
      #expect(
        RuleEvaluator(first).accepts(disagreement.context) == disagreement.acceptedByFirst,
        sourceLocation: sourceLocation)
      #expect(
        RuleEvaluator(second).accepts(disagreement.context) == disagreement.acceptedBySecond,
        sourceLocation: sourceLocation)
    }
  }

  enum PairOutcome { case undecided, agree, disagree }

  /// Compares two rules exactly and checks the answer against enumeration over `contexts`: a witness the
  /// exact engine finds is a real disagreement and no larger than the first one enumeration finds; "equal"
  /// means enumeration finds none.
  static func checkAgainstEnumeration(
    _ firstText: String, _ secondText: String, contexts: [ExtensionContext], values: [PredicateValue]
  ) throws -> PairOutcome {
    let first = try PredicateParser.parse(firstText)
    let second = try PredicateParser.parse(secondText)
    guard let exact = try? ExactRuleAnalysis.compare(first, second, keep: 1) else { return .undecided }
    let a = RuleEvaluator(first)
    let b = RuleEvaluator(second)
    let enumerated = zip(contexts, values).first { a.accepts(value: $0.1) != b.accepts(value: $0.1) }?.0
    guard let witness = exact.smallestDisagreements.first else {
      #expect(
        enumerated == nil, "\(firstText) vs \(secondText): enumeration found \(enumerated?.summary ?? "")")
      return .agree
    }
    #expect(a.accepts(witness.context) == witness.acceptedByFirst, "\(firstText)")
    #expect(b.accepts(witness.context) == witness.acceptedBySecond, "\(secondText)")
    #expect(witness.acceptedByFirst != witness.acceptedBySecond)
    if let enumerated {
      #expect(
        Self.size(witness.context) <= Self.size(enumerated),
        "\(firstText) vs \(secondText): \(witness.context.summary) vs \(enumerated.summary)")
    }
    return .disagree
  }

  /// Checks `count` generated pairs with ``checkAgainstEnumeration(_:_:contexts:values:)``: how many the
  /// exact engine decided, and how many of those disagree.
  static func tally(
    _ count: Int, contexts: [ExtensionContext], pair: () -> (String, String)
  ) throws -> (decided: Int, disagreeing: Int) {
    let values = contexts.map(\.predicateValue)
    var decided = 0
    var disagreeing = 0
    for _ in 0..<count {
      let (first, second) = pair()
      switch try checkAgainstEnumeration(first, second, contexts: contexts, values: values) {
      case .undecided: continue
      case .agree: decided += 1
      case .disagree:
        decided += 1
        disagreeing += 1
      }
    }
    return (decided, disagreeing)
  }

  @Test("exact = brute force on 150 seeded pairs of random rules")
  func agreesWithEnumeration() throws {
    var generator = RuleGenerator(random: SeededGenerator(seed: 0xE4AC_7001))
    // No type, one type, and two types at once: enumeration over these is complete for attachments that
    // differ only in which of the rules' tests they pass, up to 3 attachments in 2 items.
    let shapes =
      [[]] + Self.types.map { [$0] } + [
        ["public.data"], ["public.jpeg", "public.url"], ["public.url", "public.image"],
      ]
    let contexts = ContextEnumerator(shapes: shapes, maximumAttachments: 3, maximumItems: 2).contexts()
    let (decided, disagreeing) = try Self.tally(150, contexts: contexts) {
      let firstText = generator.rule()
      return (firstText, generator.chance(30) ? firstText : generator.rule())
    }
    // Most generated pairs are in the fragment, and both answers occur.
    #expect(decided >= 120)
    #expect(disagreeing >= 30 && disagreeing < decided)
  }

  @Test("never/always: exact = brute force on 150 seeded random rules")
  func activationAgreesWithEnumeration() throws {
    var generator = RuleGenerator(random: SeededGenerator(seed: 0xA1_0A75))
    let shapes = [[]] + Self.types.map { [$0] } + [["public.jpeg", "public.url"]]
    let contexts = ContextEnumerator(shapes: shapes, maximumAttachments: 3, maximumItems: 2).contexts()
    for _ in 0..<150 {
      let text = generator.rule()
      let rule = try PredicateParser.parse(text)
      guard let exact = try? ExactRuleAnalysis.activation(rule) else { continue }
      let evaluator = RuleEvaluator(rule)
      if let accepted = exact.smallestAccepted { #expect(evaluator.accepts(accepted), "\(text)") }
      if let rejected = exact.smallestRejected { #expect(!evaluator.accepts(rejected), "\(text)") }
      if exact.smallestAccepted == nil { #expect(!contexts.contains(where: evaluator.accepts), "\(text)") }
      if exact.smallestRejected == nil { #expect(contexts.allSatisfy(evaluator.accepts), "\(text)") }
    }
  }

  /// Thresholds up to 4 on counts that add up (`$e.attachments.@count` beside the counts of two types), in
  /// one item: enumeration up to 5 attachments reaches past every threshold of a single count.
  @Test("exact = brute force on 100 seeded pairs with thresholds up to 4 and summed counts")
  func agreesWithEnumerationOnLargerThresholdsAndSums() throws {
    let types = ["public.image", "public.url"]
    var generator = RuleGenerator(
      random: SeededGenerator(seed: 0x5_0A45), constants: [0, 1, 2, 3, 4], types: types)
    let shapes = [[], ["public.image"], ["public.url"], ["public.image", "public.url"]]
    let contexts = ContextEnumerator(shapes: shapes, maximumAttachments: 5, maximumItems: 1).contexts()
    let (decided, disagreeing) = try Self.tally(100, contexts: contexts) {
      // One item, so rules are item rules under "some item".
      let firstText = "SUBQUERY(extensionItems, $e, \(generator.item())).@count >= 1"
      return (
        firstText,
        generator.chance(30) ? firstText : "SUBQUERY(extensionItems, $e, \(generator.item())).@count >= 1"
      )
    }
    #expect(decided >= 80)
    #expect(disagreeing >= 20 && disagreeing < decided)
  }
}
