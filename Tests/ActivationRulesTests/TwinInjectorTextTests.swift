import ActivationRules
import Foundation
import PredicateSyntax
import Testing

/// The injector as a text edit: exact output on the guide's example, and on every corpus predicate.
@Suite struct TwinInjectorTextTests {
  /// The guide's rule B (spec intune-guide-requirements.md §1.4 B), verbatim.
  static let ruleB = Fixtures.guideRule("B")

  /// The guide's rule C (§1.4 C, V2020), verbatim: rule B with its Intune twins.
  static let ruleC = Fixtures.guideRule("C")

  @Test func ruleBBecomesExactlyRuleC() throws {
    let result = try TwinInjector.inject(text: Self.ruleB)
    #expect(result.text == Self.ruleC)
    #expect(result.addedTwins.count == 4)
    #expect(result.insertions.count == 1)
  }

  /// irccloud's share extension tests public.image in several clauses: its twin was listed once per clause
  /// ("added 9" for five types).
  @Test func aTypeTestedTwiceIsListedOnce() throws {
    let clause = { (variable: String) in
      "SUBQUERY(extensionItems, $\(variable), SUBQUERY($\(variable).attachments, $a, ANY "
        + #"$a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image").@count > 0).@count > 0"#
    }
    let result = try TwinInjector.inject(text: clause("e") + " OR " + clause("f"))
    #expect(result.insertions.count == 2)
    #expect(result.addedTwins == ["com.microsoft.intune.mam.public.image"])
    #expect(
      TwinInjector.missingTwins(try ActivationRule.parsePredicate(clause("e") + " OR " + clause("f")))
        == ["com.microsoft.intune.mam.public.image"])
  }

  @Test func ruleCIsLeftAlone() throws {
    let result = try TwinInjector.inject(text: Self.ruleC)
    #expect(result.text == Self.ruleC)
    #expect(result.insertions.isEmpty)
  }

  @Test func openInGeneratorTreeIsRuleA() throws {
    let parsed = try ActivationRule.parsePredicate(OpenInRuleGeneratorTests.ruleA)
    #expect(OpenInRuleGenerator.predicate(contentTypes: ["public.text", "public.image"]) == parsed)
  }

  @Test(arguments: [
    // A lone test in a SUBQUERY predicate: no parentheses needed.
    (
      #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url").@count > 0).@count > 0"#,
      #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" || ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "com.microsoft.intune.mam.public.url").@count > 0).@count > 0"#
    ),
    // A test beside AND is wrapped; a NONE test joins its AND chain.
    (
      #"ANY t UTI-CONFORMS-TO "public.url" AND NONE t UTI-CONFORMS-TO "public.file-url""#,
      #"(ANY t UTI-CONFORMS-TO "public.url" || ANY t UTI-CONFORMS-TO "com.microsoft.intune.mam.public.url") AND NONE t UTI-CONFORMS-TO "public.file-url" AND NONE t UTI-CONFORMS-TO "com.microsoft.intune.mam.public.file-url""#
    ),
    // NOT keeps excluding: the twin goes inside.
    (
      #"NOT ANY t UTI-CONFORMS-TO 'public.movie'"#,
      #"NOT (ANY t UTI-CONFORMS-TO 'public.movie' || ANY t UTI-CONFORMS-TO 'com.microsoft.intune.mam.public.movie')"#
    ),
    // Parenthesised operands: twins copy the operand's parentheses and go inside the enclosing group.
    (
      #"((ANY t UTI-CONFORMS-TO "a") || (ANY t UTI-CONFORMS-TO "b")) AND x == 1"#,
      #"((ANY t UTI-CONFORMS-TO "a") || (ANY t UTI-CONFORMS-TO "b") || (ANY t UTI-CONFORMS-TO "com.microsoft.intune.mam.a") || (ANY t UTI-CONFORMS-TO "com.microsoft.intune.mam.b")) AND x == 1"#
    ),
    // The operator's spelling and line breaks are copied from the chain.
    (
      "ANY t UTI-CONFORMS-TO \"a\"\n  OR ANY t UTI-CONFORMS-TO \"b\"",
      "ANY t UTI-CONFORMS-TO \"a\"\n  OR ANY t UTI-CONFORMS-TO \"b\"\n  OR ANY t UTI-CONFORMS-TO \"com.microsoft.intune.mam.a\"\n  OR ANY t UTI-CONFORMS-TO \"com.microsoft.intune.mam.b\""
    ),
    // A test nested in a UTI test's operand is copied, not widened, so a second run changes nothing
    // (regression: `scripts/fuzz injector` found inject twice ≠ inject once here).
    (
      #"SUBQUERY(t, $t, s UTI-CONFORMS-TO "public.url") UTI-CONFORMS-TO "public.data""#,
      #"SUBQUERY(t, $t, s UTI-CONFORMS-TO "public.url") UTI-CONFORMS-TO "public.data" || SUBQUERY(t, $t, s UTI-CONFORMS-TO "public.url") UTI-CONFORMS-TO "com.microsoft.intune.mam.public.data""#
    ),
    // ALL gets an ALL twin.
    (
      #"ALL t UTI-EQUALS "public.jpeg""#,
      #"ALL t UTI-EQUALS "public.jpeg" || ALL t UTI-EQUALS "com.microsoft.intune.mam.public.jpeg""#
    ),
  ])
  func shapes(before: String, after: String) throws {
    let result = try TwinInjector.inject(text: before)
    #expect(result.text == after)
    #expect(try TwinInjector.inject(text: after).text == after)
  }

  @Test(arguments: Fixtures.predicateFiles)
  func corpusPredicateInjectsIdempotently(name: String) throws {
    let text = String(decoding: try Fixtures.data(name), as: UTF8.self)
    let once = try TwinInjector.inject(text: text)
    let twice = try TwinInjector.inject(text: once.text)
    #expect(twice.text == once.text)
    #expect(twice.insertions.isEmpty)
    #expect(TwinInjector.missingTwins(once.tree).isEmpty)
    // Only insertions: deleting them gives the original back.
    #expect(once.insertions.allSatisfy { !$0.text.isEmpty })
    #expect(once.text.utf8.count == text.utf8.count + once.insertions.map(\.text.utf8.count).reduce(0, +))
  }

  @Test func canonicalOptionPrintsTheInjectedTree() throws {
    let tree = try ActivationRule.parsePredicate(Self.ruleB)
    let printed = PredicatePrinter.pretty(TwinInjector.injectedTree(tree))
    #expect(try ActivationRule.parsePredicate(printed) == ActivationRule.parsePredicate(Self.ruleC))
  }

  @Test(arguments: [100, 300])
  func aLongChainGetsItsTwinsAtItsEnd(clauses: Int) throws {
    // Past 255 clauses the parser groups a chain as a balanced tree; the twins appended at the end regroup
    // it, which the injector's check must accept.
    let tests = (0..<clauses).map { #"ANY t UTI-CONFORMS-TO "com.example.type\#($0)""# }
    let twins = (0..<clauses).map {
      #"ANY t UTI-CONFORMS-TO "com.microsoft.intune.mam.com.example.type\#($0)""#
    }
    let result = try TwinInjector.inject(text: tests.joined(separator: " || "))
    #expect(result.text == (tests + twins).joined(separator: " || "))
    #expect(result.addedTwins.count == clauses)
    #expect(try TwinInjector.inject(text: result.text).text == result.text)
  }
}
