import ActivationRules
import RuleKitTesting
import Testing

/// The search for the smallest context with the expected outcome stays under
/// `ContextEnumerator.maximumContexts`, and the failure message says when it searched less.
@Suite("Search limit")
struct SearchLimitTests {
  @Test("a rule naming many types is searched with fewer attachments, and the message says so")
  func wideRule() throws {
    // 28 types, their twins and 4 distractors: 60 shapes, more than 100 000 contexts of 3 attachments.
    // Arithmetic on a count puts the rule outside the exact analysis, so the enumeration answers.
    let tests = (0..<28).map { "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"com.example.type\($0)\"" }
    let rule = try RuleUnderTest(
      predicate: "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, "
        + "(\(tests.joined(separator: " OR "))) AND $a.registeredTypeIdentifiers.@count * 2 == 7).@count > 0"
        + ").@count > 0")
    let result = rule.check(activates: true, for: .safariPage)
    #expect(!result.passed)
    #expect(result.smallestContextWithExpectedOutcome == nil)
    #expect(
      result.message.contains(
        "no context of at most 2 attachments in 2 items over the types the rule mentions makes it activate "
          + "(fewer than 3 attachments: the rule names so many types that 3 would exceed "
          + "ContextEnumerator.maximumContexts)"))
  }
}
