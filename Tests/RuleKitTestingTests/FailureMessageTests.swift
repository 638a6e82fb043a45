import ActivationRules
import RuleKitTesting
import Testing

/// Failing expectations, run through the non-recording API so the suite stays green while it checks what a
/// user would read.
@Suite("Failure messages")
struct FailureMessageTests {
  let share: RuleUnderTest

  init() throws {
    share = try RuleUnderTest(contentsOf: "../../Examples/SampleApp/ShareExtension/Info.plist")
  }

  @Test("a failing activation expectation shows the explain trace from the Info.plist")
  func failingActivation() throws {
    let result = share.check(activates: true, for: .firefoxURLText)
    #expect(!result.passed)
    #expect(result.expectedActivation && !result.actualActivation)
    let lines = result.message.split(separator: "\n").map(String.init)
    let verdict = try #require(lines.first)
    #expect(verdict.hasPrefix("expected the rule at "))
    #expect(
      verdict.hasSuffix("ShareExtension/Info.plist:20:12 to activate for firefox-url-text, but it does not"))
    // The explain trace, indented, with each clause's position in the Info.plist.
    let explanation = try #require(result.explanation)
    #expect(result.message.contains(explanation.text.replacingOccurrences(of: "\n", with: "\n  ")))
    #expect(lines.contains("  result: does not activate"))
    #expect(lines.contains("  context: [[public.url], [public.plain-text]]"))
    #expect(lines.contains { $0.hasPrefix("  ✗ SUBQUERY ( extensionItems,") && $0.hasSuffix("(20:12)") })
    #expect(lines.contains { $0.contains("✗ $attachment #2: attachment [\"public.plain-text\"]") })
  }

  @Test("a failing activation expectation shows the smallest context the rule does activate for")
  func smallestActivatingContext() throws {
    let result = share.check(activates: true, for: .firefoxURLText)
    let smallest = try #require(result.smallestContextWithExpectedOutcome)
    #expect(share.activates(for: smallest))
    #expect(smallest.allAttachments.count == 1)
    #expect(result.message.hasSuffix("smallest context on which the rule activates: \(smallest.summary)"))
  }

  @Test("a failing non-activation expectation shows the trace and the smallest context left out")
  func failingNonActivation() throws {
    let result = share.check(activates: false, for: .safariPage)
    #expect(!result.passed)
    #expect(result.message.contains("to not activate for safari-page, but it does"))
    #expect(result.message.contains("  result: activates"))
    let smallest = try #require(result.smallestContextWithExpectedOutcome)
    #expect(!share.activates(for: smallest))
    #expect(smallest.allAttachments.isEmpty)
  }

  @Test("a dictionary rule's failure explains its conversion")
  func dictionaryRuleFailure() throws {
    let webPages = try RuleUnderTest(dictionary: ["NSExtensionActivationSupportsWebURLWithMaxCount": 1])
    let result = webPages.check(activates: true, for: .filesPDF)
    #expect(!result.passed)
    #expect(result.message.hasPrefix("expected the rule at <dictionary> to activate for files-pdf"))
    #expect(result.message.contains("  ✗ "))
    let smallest = try #require(result.smallestContextWithExpectedOutcome)
    #expect(smallest.allAttachments.map(\.registeredTypeIdentifiers) == [["public.url"]])
  }

  @Test("a rule nothing activates says the search found no context")
  func unsatisfiableRule() {
    let never = (try? RuleUnderTest(predicate: "FALSEPREDICATE"))
    let result = never?.check(activates: true, for: .safariPage)
    #expect(result?.passed == false)
    #expect(result?.smallestContextWithExpectedOutcome == nil)
    #expect(result?.message.contains("no context of at most 3 attachments in 2 items") == true)
  }
}
