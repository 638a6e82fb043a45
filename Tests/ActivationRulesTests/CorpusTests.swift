import ActivationRules
import Foundation
import PredicateSyntax
import Testing
import UniformTypes

/// Every one of the 39 corpus rules through convert, inject, lint and explain; the twin property by
/// exhaustive enumeration.
@Suite struct CorpusTests {
  static func load(_ name: String) throws -> (file: RuleFile, rule: ActivationRule) {
    try ActivationRule.load(Fixtures.corpus.appendingPathComponent(name))
  }

  /// The injected form: a predicate's text edit, or a dictionary converted in `style` with twins.
  static func injected(_ rule: ActivationRule, style: DictionaryConversionStyle) throws -> (
    original: PredicateNode, injected: PredicateNode
  ) {
    switch rule {
    case .predicate(let tree, let text):
      return (tree, try TwinInjector.inject(text: text).tree)
    case .dictionary(let dictionary):
      let converted = DictionaryConverter.predicate(for: dictionary, style: style)
      return (
        DictionaryConverter.predicate(for: dictionary, style: .apple), TwinInjector.injectedTree(converted)
      )
    }
  }

  @Test(arguments: Fixtures.dictionaryFiles)
  func intuneConversionMatchesGolden(name: String) throws {
    let (_, rule) = try Self.load(name)
    let printed = rule.text(style: .intune) + "\n"
    let golden = Fixtures.goldens.appendingPathComponent(
      name.replacingOccurrences(of: ".plist", with: ".intune.predicate"))
    if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
      try Data(printed.utf8).write(to: golden)
    }
    let expected = String(decoding: try Data(contentsOf: golden), as: UTF8.self)
    #expect(printed == expected)
    // The printed form reads back as the converted tree.
    #expect(try ActivationRule.parsePredicate(printed) == rule.predicate(style: .intune))
  }

  @Test(arguments: Fixtures.corpusFiles)
  func convertInjectLintAndExplainRun(name: String) throws {
    let (file, rule) = try Self.load(name)
    let text = rule.text(style: .intune)
    let tree = try ActivationRule.parsePredicate(text)
    let injected = try TwinInjector.inject(text: text)
    #expect(try TwinInjector.inject(text: injected.text).text == injected.text)
    if case .dictionary(let dictionary) = rule {
      // `rulekit inject` on a dictionary prints the apple-style conversion with twins: injecting that again
      // changes nothing.
      let printed = PredicatePrinter.pretty(
        TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .apple)))
      #expect(try TwinInjector.inject(text: printed).insertions.isEmpty)
    }
    let findings = RuleLinter().lint(file)
    #expect(findings.allSatisfy { $0.id != LintCheck.syntaxError.rawValue })
    for preset in HostPreset.all {
      let explanation = try RuleExplanation(tree: tree, text: text, file: nil, context: preset.context)
      #expect(explanation.accepted == RuleEvaluator(tree).accepts(preset.context))
      #expect(!explanation.text.isEmpty)
    }
  }

  @Test(arguments: Fixtures.corpusFiles)
  func injectionHasTheTwinProperty(name: String) throws {
    let (_, rule) = try Self.load(name)
    let (original, injected) = try Self.injected(rule, style: .apple)
    let result = SemanticDiff.twinCounterexamples(
      original: original, injected: injected, bounds: .init(maximumAttachments: 3, maximumItems: 2))
    #expect(result.checked > 0 || name == "02.plist")
    #expect(
      result.counterexamples.isEmpty,
      "\(result.counterexamples.prefix(3).map { "\($0.context.summary) keeps=\($0.injectedAcceptsContext) twin=\($0.injectedAcceptsTwinImage)" })"
    )
  }

  /// IntuneMAMConfigurator's shape counts per item with "no item has more than N", so with several
  /// extension items it rejects contexts the dictionary accepts (06, 10, 14, 15 show it); with the single
  /// item every observed host sends, it keeps everything and adds the twins.
  @Test(arguments: Fixtures.dictionaryFiles)
  func intuneShapeHasTheTwinPropertyForOneItem(name: String) throws {
    let (_, rule) = try Self.load(name)
    let (original, injected) = try Self.injected(rule, style: .intune)
    let result = SemanticDiff.twinCounterexamples(
      original: original, injected: injected, bounds: .init(maximumAttachments: 4, maximumItems: 1))
    #expect(
      result.counterexamples.isEmpty,
      "\(result.counterexamples.prefix(3).map { "\($0.context.summary) keeps=\($0.injectedAcceptsContext) twin=\($0.injectedAcceptsTwinImage)" })"
    )
  }
}

@Suite struct IntuneShapeDivergenceTests {
  @Test(arguments: Fixtures.dictionaryFiles)
  func multiItemDivergenceIsWhereDocumented(name: String) throws {
    let (_, rule) = try CorpusTests.load(name)
    let (original, injected) = try CorpusTests.injected(rule, style: .intune)
    let result = SemanticDiff.twinCounterexamples(
      original: original, injected: injected, bounds: .init(maximumAttachments: 3, maximumItems: 2))
    let diverges = ["06.plist", "10.plist", "14.plist", "15.plist"].contains(name)
    #expect(result.counterexamples.isEmpty != diverges)
  }
}
