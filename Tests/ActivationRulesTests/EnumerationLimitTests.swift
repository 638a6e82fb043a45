import Foundation
import PredicateSyntax
import Testing

@testable import ActivationRules

/// `ContextEnumerator.maximumContexts`: `diff` refuses bounds past it with an error, `lint` checks fewer
/// attachments and says the rule was not exhaustively checked.
@Suite struct EnumerationLimitTests {
  @Test(arguments: 1...5)
  func countIsTheNumberOfContextsBuilt(shapes: Int) {
    let types = (0..<shapes).map { ["type\($0)"] }
    for attachments in 0...4 {
      for items in 1...3 {
        let enumerator = ContextEnumerator(
          shapes: types, maximumAttachments: attachments, maximumItems: items)
        #expect(enumerator.count == enumerator.contexts().count, "\(shapes) shapes, \(attachments), \(items)")
      }
    }
  }

  /// `count` single-type attachment shapes.
  private func shapes(_ count: Int) -> [[String]] { (0..<count).map { ["type\($0)"] } }

  @Test func theLimitIsExact() throws {
    // One item of at most one attachment over n shapes: n + 1 contexts (the empty one too).
    let limit = ContextEnumerator.maximumContexts
    #expect(limit == 100_000)
    let atLimit = ContextEnumerator(shapes: shapes(limit - 1), maximumAttachments: 1, maximumItems: 1)
    #expect(atLimit.count == limit)
    #expect(try atLimit.checkedContexts().count == limit)
    let over = ContextEnumerator(shapes: shapes(limit), maximumAttachments: 1, maximumItems: 1)
    let error = try #require(throws: ContextEnumerator.LimitExceeded.self) { try over.checkedContexts() }
    #expect(error.contexts == limit + 1)
    #expect(
      error.description
        == "100001 contexts of up to 1 attachments in up to 1 items over 100000 attachment types exceed the "
        + "limit of 100000 (ContextEnumerator.maximumContexts); lower the most attachments or items")
  }

  @Test func countDoesNotOverflow() {
    let enumerator = ContextEnumerator(shapes: shapes(1_000), maximumAttachments: 40, maximumItems: 10)
    #expect(enumerator.count == Int.max)
  }

  @Test func diffRefusesBoundsPastTheLimitBeforeEvaluating() throws {
    // Six types, their twins and four distractors: 16 shapes; 6 attachments in 3 items is far too many.
    let types = [
      "public.image", "public.movie", "public.url", "public.plain-text", "com.adobe.pdf", "public.file-url",
    ]
    let rule = try PredicateParser.parse(
      types.map { "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"\($0)\"" }
        .joined(separator: " OR "))
    let error = try #require(throws: ContextEnumerator.LimitExceeded.self) {
      try SemanticDiff.compare(rule, rule, bounds: .init(maximumAttachments: 6, maximumItems: 3))
    }
    #expect(error.contexts > ContextEnumerator.maximumContexts)
    // The default bounds stay far below it.
    #expect(try SemanticDiff.compare(rule, rule).contextsChecked < 10_000)
  }

  @Test func lintSaysWhenItCouldNotCheckExhaustively() throws {
    // 28 types, their twins and 4 distractors: 60 shapes, more than 100 000 contexts of 3 attachments.
    let tests = (0..<28).map { "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"com.example.type\($0)\"" }
    let rule =
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(tests.joined(separator: " OR "))).@count > 0)"
      + ".@count > 0"
    let findings = RuleLinter().lint(RuleFile(path: "wide.predicate", predicate: rule))
    let bounded = try #require(findings.first { $0.id == LintCheck.notExhaustivelyChecked.rawValue })
    #expect(bounded.severity == .warning)
    #expect(bounded.message.hasPrefix("never/always-activates not exhaustively checked: "))
    #expect(bounded.message.contains("exceed the limit of 100000 (ContextEnumerator.maximumContexts)"))
    #expect(bounded.message.hasSuffix("checked up to 2 attachments"))
  }

  @Test func aNarrowRuleIsCheckedExhaustively() {
    let findings = RuleLinter().lint(
      RuleFile(
        path: "narrow.predicate", predicate: #"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url""#
      ))
    #expect(!findings.contains { $0.id == LintCheck.notExhaustivelyChecked.rawValue })
  }
}
