import Foundation
import PredicateSyntax
import Testing
import UniformTypes

@testable import ActivationRules

/// Tree-level behaviour of the injector (no text): which twins are added where.
@Suite struct TwinInjectorTreeTests {
  static func guideRule(_ types: [String]) -> PredicateNode {
    let inner = RuleBuilder.compare(
      RuleBuilder.attachmentSubqueryCount(RuleBuilder.or(types.map { RuleBuilder.conforms($0) })),
      .greaterThan,
      RuleBuilder.integer(0))
    return RuleBuilder.compare(RuleBuilder.itemSubqueryCount(inner), .greaterThan, RuleBuilder.integer(0))
  }

  static let ruleBTypes = ["public.url", "public.plain-text", "public.image", "public.data"]

  @Test func ruleBBecomesRuleC() {
    let ruleC = Self.guideRule(Self.ruleBTypes + Self.ruleBTypes.map(IntuneTwin.twinIfNeeded))
    #expect(TwinInjector.injectedTree(Self.guideRule(Self.ruleBTypes)) == ruleC)
    #expect(
      TwinInjector.missingTwins(Self.guideRule(Self.ruleBTypes))
        == Self.ruleBTypes.map(IntuneTwin.twinIfNeeded))
    #expect(TwinInjector.missingTwins(ruleC).isEmpty)
    #expect(TwinInjector.injectedTree(ruleC) == ruleC)
  }

  @Test func exclusionWithNoneExcludesTheTwinToo() {
    let url = RuleBuilder.conforms("public.url")
    let notFile = RuleBuilder.conforms("public.file-url", quantifier: .none)
    let tree = RuleBuilder.and([url, notFile])
    let expected = RuleBuilder.and([
      RuleBuilder.or([url, RuleBuilder.conforms("com.microsoft.intune.mam.public.url")]), notFile,
      RuleBuilder.conforms("com.microsoft.intune.mam.public.file-url", quantifier: .none),
    ])
    #expect(TwinInjector.injectedTree(tree) == expected)
  }

  @Test func notAroundATestWidensInside() {
    let file = RuleBuilder.conforms("public.file-url")
    let tree = PredicateNode(.not(file))
    let expected = PredicateNode(
      .not(RuleBuilder.or([file, RuleBuilder.conforms("com.microsoft.intune.mam.public.file-url")])))
    #expect(TwinInjector.injectedTree(tree) == expected)
  }

  @Test func allQuantifierGetsAnAllTwin() {
    let tree = RuleBuilder.conforms("public.image", quantifier: .all)
    #expect(
      TwinInjector.injectedTree(tree)
        == RuleBuilder.or([
          tree, RuleBuilder.conforms("com.microsoft.intune.mam.public.image", quantifier: .all),
        ]))
  }

  @Test func utiIteratorSubqueryIsCovered() {
    let uti = RuleBuilder.variable("uti")
    func test(_ type: String) -> PredicateNode {
      PredicateNode(.comparison(Comparison(lhs: uti, op: .utiConformsTo, rhs: RuleBuilder.string(type))))
    }
    let inner = RuleBuilder.and([test("public.url"), PredicateNode(.not(test("public.file-url")))])
    let tree = RuleBuilder.compare(
      RuleBuilder.subqueryCount(RuleBuilder.registeredTypes, "uti", inner), .greaterThanOrEqualTo,
      RuleBuilder.integer(1))
    #expect(
      TwinInjector.missingTwins(tree) == [
        "com.microsoft.intune.mam.public.url", "com.microsoft.intune.mam.public.file-url",
      ])
    let once = TwinInjector.injectedTree(tree)
    #expect(TwinInjector.missingTwins(once).isEmpty)
    #expect(TwinInjector.injectedTree(once) == once)
  }

  @Test func utiEqualsIsTwinnedToo() {
    let tree = PredicateNode(
      .comparison(
        Comparison(
          quantifier: .any, lhs: RuleBuilder.registeredTypes, op: .utiEquals,
          rhs: RuleBuilder.string("public.jpeg"))))
    #expect(TwinInjector.missingTwins(tree) == ["com.microsoft.intune.mam.public.jpeg"])
  }

  @Test(arguments: Fixtures.dictionaryFiles)
  func intuneConversionAlreadyHasEveryTwin(name: String) throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data(name))
    let tree = DictionaryConverter.predicate(for: dictionary, style: .intune)
    #expect(TwinInjector.missingTwins(tree).isEmpty)
    #expect(TwinInjector.injectedTree(tree) == tree)
  }

  @Test(arguments: Fixtures.dictionaryFiles)
  func appleConversionGetsTwinsOnce(name: String) throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data(name))
    let tree = DictionaryConverter.predicate(for: dictionary, style: .apple)
    let once = TwinInjector.injectedTree(tree)
    #expect(TwinInjector.injectedTree(once) == once)
    #expect(TwinInjector.missingTwins(once).isEmpty)
  }
}
