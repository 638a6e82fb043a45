import Foundation
import PredicateSyntax
import Testing
import UniformTypes

@testable import ActivationRules

/// The `apple`-style predicate must accept exactly what the direct model accepts.
@Suite struct DictionaryAgreementTests {
  /// Hand-made dictionaries covering what the corpus lacks: min counts, strictness switched on in version 2.
  static let extraDictionaries: [ActivationDictionary] = [
    ActivationDictionary([.imageMaxCount: 2, .attachmentsMinCount: 2, .attachmentsMaxCount: 3]),
    ActivationDictionary([.dictionaryVersion: 2, .usesStrictMatching: 1, .webURLMaxCount: 1, .text: 1]),
    ActivationDictionary([
      .dictionaryVersion: 2, .fileMaxCount: 1, .movieMaxCount: 2, .attachmentsMinCount: 1,
    ]),
    ActivationDictionary([.attachmentsMaxCount: 1]),
    ActivationDictionary([.dictionaryVersion: 2, .attachmentsMaxCount: 2]),
    ActivationDictionary([.dictionaryVersion: 2, .attachmentsMinCount: 2]),
  ]

  static func contexts(for model: DictionaryModel) -> [ExtensionContext] {
    var shapes = ContextEnumerator.shapes(mentioning: model.mentionedTypes + ["public.jpeg"], twins: false)
    shapes.append(["public.url", "public.file-url"])
    shapes.append(["com.adobe.pdf", "public.file-url"])
    return ContextEnumerator(shapes: shapes, maximumAttachments: 4, maximumItems: 2).contexts()
  }

  static func check(_ dictionary: ActivationDictionary) -> (checked: Int, mismatches: [String]) {
    let model = DictionaryModel(dictionary)
    let evaluator = RuleEvaluator(DictionaryConverter.predicate(for: dictionary, style: .apple))
    var mismatches: [String] = []
    let contexts = contexts(for: model)
    for context in contexts {
      let direct = model.accepts(context, registry: .system)
      if evaluator.accepts(context) != direct {
        mismatches.append("\(context.summary): model says \(direct)")
      }
    }
    return (contexts.count, mismatches)
  }

  @Test(arguments: Fixtures.dictionaryFiles)
  func corpusDictionary(name: String) throws {
    let result = Self.check(try ActivationDictionary(plistData: Fixtures.data(name)))
    #expect(result.checked > 1000)
    #expect(result.mismatches.isEmpty, "\(result.mismatches.prefix(3))")
  }

  @Test(arguments: extraDictionaries)
  func handMadeDictionary(dictionary: ActivationDictionary) {
    let result = Self.check(dictionary)
    #expect(result.mismatches.isEmpty, "\(result.mismatches.prefix(3))")
  }
}

@Suite struct ContextEnumeratorTests {
  @Test(arguments: [(0, 1, 1), (1, 1, 3), (2, 1, 6), (2, 2, 15), (3, 2, 29)])
  func countsAreMultisetCounts(attachments: Int, items: Int, expected: Int) {
    // Two shapes: an item of n attachments is one of n+1 multisets; two items are pairs up to order.
    let enumerator = ContextEnumerator(
      shapes: [["a"], ["b"]], maximumAttachments: attachments, maximumItems: items)
    let contexts = enumerator.contexts()
    #expect(Set(contexts).count == contexts.count)
    #expect(contexts.count == expected)
  }

  @Test func smallestFirst() {
    let contexts = ContextEnumerator(shapes: [["a"]], maximumAttachments: 2, maximumItems: 2).contexts()
    let sizes = contexts.map { $0.allAttachments.count }
    #expect(sizes == sizes.sorted())
  }

  @Test func shapesIncludeTwinsAndDistractorsOnce() {
    let shapes = ContextEnumerator.shapes(mentioning: ["public.url", "PUBLIC.URL"])
    #expect(shapes.first == ["public.url"])
    #expect(shapes.contains(["com.microsoft.intune.mam.public.url"]))
    #expect(shapes.filter { $0 == ["public.url"] }.count == 1)
    #expect(shapes.contains { $0[0].hasPrefix("dyn.") })
  }
}

@Suite struct SemanticDiffTests {
  static let ruleB = TwinInjectorTreeTests.guideRule(TwinInjectorTreeTests.ruleBTypes)

  @Test func ruleAgreesWithItself() throws {
    let report = try SemanticDiff.compare(Self.ruleB, Self.ruleB)
    #expect(report.rulesAgree)
    #expect(report.contextsChecked > 100)
  }

  @Test func ruleBAndRuleCDisagreeOnATwinAttachmentFirst() throws {
    let report = try SemanticDiff.compare(Self.ruleB, TwinInjector.injectedTree(Self.ruleB))
    #expect(!report.rulesAgree)
    let first = try #require(report.smallestDisagreements.first)
    #expect(first.context.allAttachments.count == 1)
    #expect(!first.acceptedByFirst && first.acceptedBySecond)
    #expect(IntuneTwin.isTwin(first.context.allAttachments[0].registeredTypeIdentifiers[0]))
  }

  @Test func injectionHasTheTwinPropertyOnRuleB() {
    let result = SemanticDiff.twinCounterexamples(
      original: Self.ruleB, injected: TwinInjector.injectedTree(Self.ruleB))
    #expect(result.checked > 100)
    #expect(result.counterexamples.isEmpty)
  }

  @Test func withoutInjectionTheTwinPropertyFails() {
    let result = SemanticDiff.twinCounterexamples(original: Self.ruleB, injected: Self.ruleB)
    #expect(!result.counterexamples.isEmpty)
  }
}
