import ActivationRules
import Testing

@testable import RuleKitTesting

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

  @Test("a failing non-activation expectation shows the trace and the smallest part that activates")
  func failingNonActivation() throws {
    let result = share.check(activates: false, for: .safariPage)
    #expect(!result.passed)
    #expect(result.message.contains("to not activate for safari-page, but it does"))
    #expect(result.message.contains("  result: activates"))
    #expect(result.smallestContextWithExpectedOutcome == nil)
    let part = try #require(result.smallestActivatingPart)
    #expect(share.activates(for: part))
    // Safari shares a URL and the page's text; the URL alone is what the rule accepts.
    #expect(part.allAttachments.map(\.registeredTypeIdentifiers) == [["public.url"]])
    #expect(
      result.message.hasSuffix(
        "smallest part of safari-page on which the rule still activates: \(part.summary)"))
  }

  /// A rule that activates when one extension item holds at least `count` attachments of `type`.
  static func rule(accepting count: Int, of type: String) throws -> RuleUnderTest {
    try RuleUnderTest(
      predicate: """
        SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers \
        UTI-CONFORMS-TO "\(type)").@count >= \(count)).@count >= 1
        """)
  }

  @Test("the activating part is the smallest: every smaller part of the context was tried")
  func smallestActivatingPartIsMinimal() throws {
    let twoImages = try Self.rule(accepting: 2, of: "public.image")
    let context = ExtensionContext(extensionItems: [
      ExtensionItem(
        attachments: [["public.plain-text"], ["public.jpeg"], ["public.url"], ["public.png"]].map {
          ExtensionAttachment(registeredTypeIdentifiers: $0)
        }),
      ExtensionItem(attachments: [ExtensionAttachment(registeredTypeIdentifiers: ["public.heic"])]),
    ])
    let result = twoImages.check(activates: false, on: context, named: "the mixed share")
    let part = try #require(result.smallestActivatingPart)
    #expect(part.extensionItems.count == 1)
    #expect(part.allAttachments.map(\.registeredTypeIdentifiers) == [["public.jpeg"], ["public.png"]])
    #expect(result.message.contains("smallest part of the mixed share on which the rule still activates"))
  }

  @Test("a rule that activates for anything names the empty part")
  func activatesForNothingShared() throws {
    let always = try RuleUnderTest(predicate: "TRUEPREDICATE")
    let result = always.check(activates: false, for: .photos(count: 3))
    #expect(result.smallestActivatingPart?.extensionItems.isEmpty == true)
  }

  @Test("past the search limit, attachments are dropped one at a time")
  func largeContextIsReducedGreedily() throws {
    let threePDFs = try Self.rule(accepting: 3, of: "com.adobe.pdf")
    // Three PDFs among 40 attachments: the parts of up to three attachments alone number
    // 1 + 40 + 780 + 9 880, past the search limit, so the search drops attachments instead.
    var attachments = Array(repeating: ["public.plain-text"], count: 40)
    for index in [5, 17, 30] { attachments[index] = ["com.adobe.pdf"] }
    let result = threePDFs.check(activates: false, on: ExtensionContext(attachments: attachments))
    let part = try #require(result.smallestActivatingPart)
    #expect(
      part.allAttachments.map(\.registeredTypeIdentifiers) == Array(repeating: ["com.adobe.pdf"], count: 3))
    #expect(result.message.contains("no attachment of which can be left out: "))
  }

  @Test(
    "combinations are stepped in order, each once",
    arguments: [(5, 0, 1), (5, 2, 10), (6, 3, 20), (4, 4, 1)])
  func combinations(count: Int, size: Int, expected: Int) {
    var combination = Array(0..<size)
    var seen: Set<[Int]> = [combination]
    while RuleUnderTest.advance(&combination, choosingFrom: count) { seen.insert(combination) }
    #expect(seen.count == expected)
    #expect(seen.allSatisfy { $0 == $0.sorted() && Set($0).count == size && ($0.last ?? 0) < count })
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

  @Test("a rule nothing activates says so, decided over every context")
  func unsatisfiableRule() {
    let never = (try? RuleUnderTest(predicate: "FALSEPREDICATE"))
    let result = never?.check(activates: true, for: .safariPage)
    #expect(result?.passed == false)
    #expect(result?.smallestContextWithExpectedOutcome == nil)
    #expect(
      result?.message.hasSuffix("no context makes the rule activate (decided over every context)") == true)
  }

  @Test("the smallest activating context is exact: four images, past the enumeration's three attachments")
  func smallestContextPastTheEnumeration() throws {
    let fourImages = try RuleUnderTest(
      predicate: "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
        + "UTI-CONFORMS-TO \"public.image\").@count >= 4).@count > 0")
    let result = fourImages.check(activates: true, for: .safariPage)
    let smallest = try #require(result.smallestContextWithExpectedOutcome)
    #expect(fourImages.activates(for: smallest))
    #expect(smallest.extensionItems.count == 1 && smallest.allAttachments.count == 4)
  }
}
