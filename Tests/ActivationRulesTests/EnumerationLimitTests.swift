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
        let contexts = enumerator.contexts()
        #expect(enumerator.count == contexts.count, "\(shapes) shapes, \(attachments), \(items)")
        // The size's objects are the extension items and attachments built.
        let objects = contexts.reduce(0) { $0 + $1.extensionItems.count + $1.allAttachments.count }
        #expect(
          enumerator.size == .init(contexts: .exactly(contexts.count), objects: .exactly(objects)),
          "\(shapes) shapes, \(attachments), \(items)")
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
    #expect(error.contexts == .exactly(limit + 1))
    #expect(
      error.description
        == "100001 contexts of up to 1 attachments in up to 1 items over 100000 attachment types exceed the "
        + "limit of 100000 (ContextEnumerator.maximumContexts); lower the most attachments or items")
  }

  @Test func countDoesNotOverflow() {
    let enumerator = ContextEnumerator(shapes: shapes(1_000), maximumAttachments: 40, maximumItems: 10)
    #expect(enumerator.count == Int.max)
    // Int.max stands for "not counted exactly"; the size says so instead of passing it off as a count.
    #expect(enumerator.size.contexts == .moreThan(ContextEnumerator.maximumContexts))
  }

  /// Bounds that used to hang `rulekit diff` while counting (it built every partition of the attachments
  /// into the items), and the refusal each now gets at once. Six shapes: public.image, its twin and the
  /// four distractors.
  @Test(
    arguments: [
      (
        40, 40,
        "more than 100000 contexts of up to 40 attachments in up to 40 items over 6 attachment types exceed "
          + "the limit of 100000 (ContextEnumerator.maximumContexts); lower the most attachments or items"
      ),
      (
        1, 1_000,
        "7000 contexts of up to 1 attachments in up to 1000 items over 6 attachment types hold 3509500 "
          + "extension items and attachments, more than the limit of 1000000 (ContextEnumerator.maximumObjects); "
          + "lower the most attachments or items"
      ),
      (
        0, 100_000,
        "100000 contexts of up to 0 attachments in up to 100000 items over 6 attachment types hold 5000050000 "
          + "extension items and attachments, more than the limit of 1000000 (ContextEnumerator.maximumObjects); "
          + "lower the most attachments or items"
      ),
      (
        Int.max, Int.max,
        "more than 100000 contexts of up to 9223372036854775807 attachments in up to 9223372036854775807 items "
          + "over 6 attachment types exceed the limit of 100000 (ContextEnumerator.maximumContexts); lower the "
          + "most attachments or items"
      ),
    ])
  func diffRefusesLargeBoundsAtOnce(attachments: Int, items: Int, message: String) throws {
    let rule = try PredicateParser.parse(
      #"ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image""#)
    let clock = ContinuousClock()
    let start = clock.now
    let error = try #require(throws: ContextEnumerator.LimitExceeded.self) {
      try SemanticDiff.compare(
        rule, rule, bounds: .init(maximumAttachments: attachments, maximumItems: items))
    }
    #expect(error.description == message)
    // Generous for a debug build on a loaded machine; counting used to take hours or never end.
    #expect(clock.now - start < .seconds(5))
  }

  @Test func boundsJustPastTheContextLimitAreCountedExactly() {
    // The guide's nine attachment types (docs/limits.md): 6 attachments in 3 items.
    let enumerator = ContextEnumerator(shapes: shapes(9), maximumAttachments: 6, maximumItems: 3)
    #expect(enumerator.size == .init(contexts: .exactly(264_066), objects: .exactly(2_232_252)))
  }

  @Test func manyItemsWithinTheLimitsAreBuiltWithoutQuadraticWork() throws {
    // 1 000 contexts of 1 to 1 000 empty items: 500 500 objects, under the limit.
    let enumerator = ContextEnumerator(shapes: shapes(3), maximumAttachments: 0, maximumItems: 1_000)
    #expect(enumerator.size == .init(contexts: .exactly(1_000), objects: .exactly(500_500)))
    let contexts = try enumerator.checkedContexts()
    #expect(contexts.map(\.extensionItems.count) == Array(1...1_000))
  }

  @Test func diffRefusesBoundsPastTheLimitBeforeEvaluating() throws {
    // Six types, their twins and the two distractors not among them: 14 shapes; 6 attachments in 3 items
    // is far too many.
    let types = [
      "public.image", "public.movie", "public.url", "public.plain-text", "com.adobe.pdf", "public.file-url",
    ]
    let rule = try PredicateParser.parse(
      types.map { "ANY extensionItems.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"\($0)\"" }
        .joined(separator: " OR "))
    let error = try #require(throws: ContextEnumerator.LimitExceeded.self) {
      try SemanticDiff.compare(rule, rule, bounds: .init(maximumAttachments: 6, maximumItems: 3))
    }
    #expect(error.contexts == .exactly(2_804_224))
    // The default bounds stay far below it.
    #expect(try SemanticDiff.compare(rule, rule).contextsChecked < 10_000)
  }

  @Test func lintSaysWhenItCouldNotCheckExhaustively() throws {
    // 28 types, their twins and 4 distractors: 60 shapes, more than 100 000 contexts of 3 attachments. The
    // MATCHES on the types (outside the exact fragment) reads only what the enumerated contexts vary.
    let tests = (0..<28).map { "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"com.example.type\($0)\"" }
    let rule =
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(tests.joined(separator: " OR "))).@count > 0)"
      + ".@count > 0 AND ANY extensionItems.attachments.registeredTypeIdentifiers MATCHES \"com[.].*\""
    let findings = RuleLinter().lint(RuleFile(path: "wide.predicate", predicate: rule))
    let bounded = try #require(findings.first { $0.id == LintCheck.notExhaustivelyChecked.rawValue })
    #expect(bounded.severity == .warning)
    #expect(bounded.message.hasPrefix("never/always-activates not exhaustively checked: "))
    #expect(bounded.message.contains("exceed the limit of 100000 (ContextEnumerator.maximumContexts)"))
    #expect(bounded.message.contains("checked up to 2 attachments (not decided exactly: "))
    // Inside the fragment the same rule is decided exactly, without enumerating.
    let exact = RuleLinter().lint(
      RuleFile(path: "wide.predicate", predicate: rule.components(separatedBy: " AND ANY")[0]))
    #expect(exact.allSatisfy { $0.id != LintCheck.notExhaustivelyChecked.rawValue })
  }

  @Test(.timeLimit(.minutes(1)))
  func lintWithManyItemsChecksFewerItemsAndSaysSo() throws {
    // No attachment in up to 100 000 items: 100 000 contexts, but five billion items. Lowering attachments
    // alone cannot help; 1 413 items (998 991 objects) is the most within ContextEnumerator.maximumObjects.
    let linter = RuleLinter(bounds: .init(maximumAttachments: 0, maximumItems: 100_000))
    let findings = linter.lint(
      RuleFile(
        path: "narrow.predicate", predicate: #"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url""#
      ))
    let bounded = try #require(findings.first { $0.id == LintCheck.notExhaustivelyChecked.rawValue })
    #expect(bounded.severity == .warning)
    #expect(
      bounded.message
        == "never/always-activates not exhaustively checked: 100000 contexts of up to 0 attachments in up to "
        + "100000 items over 5 attachment types hold 5000050000 extension items and attachments, more than the "
        + "limit of 1000000 (ContextEnumerator.maximumObjects); checked up to 0 attachments in up to 1413 items "
        + "(not decided exactly: ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.url\": ANY is modelled "
        + "only over an attachment's registeredTypeIdentifiers inside a SUBQUERY over attachments)"
    )
  }

  /// An equality test and a conformance test on the same type (outside the exact fragment, so compared by
  /// enumeration) part only on the type's subtypes: the enumeration draws one declared direct subtype of each
  /// tested type, so the bounded diff finds `[[public.file-url]]` instead of calling the rules equal.
  @Test(arguments: [
    #"ANY $a.registeredTypeIdentifiers ==[c] "PUBLIC.URL""#,
    #"ANY $a.registeredTypeIdentifiers IN {"public.url", "public.plain-text"}"#,
    #"ANY $a.registeredTypeIdentifiers BEGINSWITH "public.url""#,
  ])
  func boundedDiffTellsEqualityFromConformance(equality: String) throws {
    func rule(_ test: String) throws -> PredicateNode {
      try PredicateParser.parse(
        "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(test)).@count >= 1).@count == 1")
    }
    let decision = try SemanticDiff.decide(
      rule(equality), rule(#"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url""#))
    #expect(!decision.exactness.isExact)
    #expect(!decision.report.rulesAgree)
    // The IN list also names public.plain-text, its own witness; the subtype's is among the smallest.
    #expect(
      decision.report.smallestDisagreements.contains {
        $0.context.summary == "[[public.file-url]]" && !$0.acceptedByFirst && $0.acceptedBySecond
      }, "\(decision.report.smallestDisagreements.map(\.context.summary))")
    #expect(decision.report.types.contains("public.file-url"))
  }

  /// The subtype is one a user recognizes in a witness: a type real hosts share before the first declared
  /// (`public.image`'s first declared child is a fax type).
  @Test func subtypesAreTheOnesHostsShare() {
    #expect(
      ContextEnumerator.directSubtypes(of: ["public.image", "public.url"], in: .system)
        == ["public.jpeg", "public.file-url"])
  }

  @Test func subtypesAreAddedOnlyWithinTheLimits() {
    #expect(
      ContextEnumerator.directSubtypes(of: ["public.url", "PUBLIC.URL", "com.example.unknown"], in: .system)
        == ["public.file-url"])
    let small = ContextEnumerator(shapes: [["public.url"]], maximumAttachments: 3, maximumItems: 2)
    #expect(
      small.addingSubtypes(of: ["public.url"], in: .system).shapes == [["public.url"], ["public.file-url"]])
    // A subtype already drawn from is not added twice.
    let both = ContextEnumerator(
      shapes: [["public.url"], ["public.file-url"]], maximumAttachments: 3, maximumItems: 2)
    #expect(both.addingSubtypes(of: ["public.url"], in: .system).shapes == both.shapes)
    // At the context limit (n + 1 contexts of one attachment in one item), one shape more would pass it.
    let full = ContextEnumerator(
      shapes: shapes(ContextEnumerator.maximumContexts - 1), maximumAttachments: 1, maximumItems: 1)
    #expect(full.addingSubtypes(of: ["public.url"], in: .system).shapes.count == full.shapes.count)
    let roomForOne = ContextEnumerator(
      shapes: shapes(ContextEnumerator.maximumContexts - 2), maximumAttachments: 1, maximumItems: 1)
    let added = roomForOne.addingSubtypes(of: ["public.url", "public.image"], in: .system)
    #expect(added.shapes.count == roomForOne.shapes.count + 1 && added.size.isWithinLimits)
    #expect(added.shapes.last == ["public.file-url"])
  }

  @Test func reducingKeepsBoundsWithinTheLimits() {
    let within = ContextEnumerator(shapes: shapes(3), maximumAttachments: 3, maximumItems: 2)
    let unchanged = within.reducedToLimits()
    #expect(unchanged.enumerator.maximumAttachments == 3 && unchanged.enumerator.maximumItems == 2)
    #expect(unchanged.requested == within.size && unchanged.size == within.size)

    // Too many contexts: fewer attachments, the items kept; the most attachments that fit.
    let wide = ContextEnumerator(shapes: shapes(60), maximumAttachments: 3, maximumItems: 2).reducedToLimits()
    #expect(wide.enumerator.maximumAttachments == 2 && wide.enumerator.maximumItems == 2)
    #expect(wide.requested.contexts.exceeds(ContextEnumerator.maximumContexts))
    #expect(wide.size == wide.enumerator.size && wide.size.isWithinLimits)

    // Too many objects even without attachments: no attachment, and the most items that fit.
    let tall = ContextEnumerator(shapes: shapes(3), maximumAttachments: 2, maximumItems: 100_000)
      .reducedToLimits()
    #expect(tall.enumerator.maximumAttachments == 0 && tall.enumerator.maximumItems == 1_413)
    #expect(tall.size == .init(contexts: .exactly(1_413), objects: .exactly(998_991)))
    var oneMore = tall.enumerator
    oneMore.maximumItems += 1
    #expect(!oneMore.size.isWithinLimits)

    // Huge bounds end within the limits too, and quickly.
    let huge = ContextEnumerator(shapes: shapes(5), maximumAttachments: .max, maximumItems: .max)
      .reducedToLimits()
    #expect(huge.size == huge.enumerator.size && huge.size.isWithinLimits)
    #expect(huge.enumerator.maximumAttachments == 0)
  }

  @Test func aNarrowRuleIsCheckedExhaustively() {
    let findings = RuleLinter().lint(
      RuleFile(
        path: "narrow.predicate",
        predicate: #"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, "#
          + #"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url").@count > 0).@count > 0"#))
    #expect(!findings.contains { $0.id == LintCheck.notExhaustivelyChecked.rawValue })
  }
}
