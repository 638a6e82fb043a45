import PredicateSyntax
import Testing

@testable import ActivationRules

/// ``ExactRuleAnalysis/Effort``: a search stopped by its time bound says so, and the exhaustive effort
/// decides the same rules exactly. The bounds are lowered here so that small rules reach them; no real pair
/// of the fixtures reaches the default bound any more, and a generated dictionary that does is run end to
/// end (`ExactDiffEndToEndTests`).
@Suite struct ExactEffortTests {
  /// Bounds every search passes on the rules below: the count searches (grid and hashed) refuse, the
  /// interval search stops after a few combinations.
  static let tinyLimits = LevelStates.Limits(
    countStates: 4, combinations: 8, gridWork: 4, exploreWork: 4, gridCells: 4)

  /// `body` under ``tinyLimits``, with levels searched whole (the split search, which has no time bound of
  /// its own, decides the small pair below part by part).
  static func bounded<T>(_ body: () throws -> T) rethrows -> T {
    try LevelStates.$splitsIndependentParts.withValue(false) {
      try LevelStates.$limits.withValue(tinyLimits, operation: body)
    }
  }

  /// A version 1 dictionary naming web URLs and images: its apple form with twins against
  /// Microsoft's injected form (what `configure --dictionary-style apple` writes against what Microsoft's
  /// tool writes): with levels searched whole, as here, the shape the default bound stops for larger maxima
  /// (real-rules/04.plist, which the search by supporting choices now decides by default).
  ///
  /// Built afresh for each test, not kept in a `static let`: the injector recurses deeper than the 30 frames
  /// AddressSanitizer records, so a value built inside a static initializer is reported by LeakSanitizer
  /// without the `once_slow` frame `scripts/lsan.supp` matches (CI's ASan run failed on it).
  static var pair: (PredicateNode, PredicateNode) {
    let dictionary = ActivationDictionary([.webURLMaxCount: 1, .imageMaxCount: 2])
    return (
      TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .apple)),
      TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .intune))
    )
  }

  @Test func standardEffortStopsAtTheBoundAndSaysTheRuleIsInsideTheFragment() throws {
    let (apple, intune) = Self.pair
    // `#expect(throws:)` returns the error, which the check inside has read.
    _ = Self.bounded {
      #expect {
        _ = try ExactRuleAnalysis.compare(apple, intune)
      } throws: { error in
        guard let undecidable = error as? ExactRuleAnalysis.Undecidable else { return false }
        return undecidable.searchLimitReached
          && undecidable.reason.contains("combinations of count intervals")
      }
    }
  }

  @Test func exhaustiveEffortDecidesWhatTheBoundStopped() throws {
    let (apple, intune) = Self.pair
    let unbounded = try ExactRuleAnalysis.compare(apple, intune)
    let exhaustive = try Self.bounded {
      try ExactRuleAnalysis.compare(apple, intune, effort: .exhaustive)
    }
    #expect(!exhaustive.rulesAgree)
    #expect(exhaustive.disagreeingClasses > 0)
    // The smallest disagreement is the same size whichever search found it: an attachment holding a URL
    // and a twin file URL, which Microsoft's URL test accepts and the apple form's does not.
    let smallest = try #require(exhaustive.smallestDisagreements.first)
    let expected = try #require(unbounded.smallestDisagreements.first)
    #expect(smallest.context.summary == expected.context.summary)
    #expect(smallest.context.summary.contains("public.url"))
  }

  @Test func decisionSaysWhenMoreEffortWouldDecide() throws {
    let (apple, intune) = Self.pair
    let bounded = try Self.bounded {
      try SemanticDiff.decide(apple, intune)
    }
    #expect(!bounded.exactness.isExact)
    #expect(bounded.searchLimitReached)
    let exhaustive = try Self.bounded {
      try SemanticDiff.decide(apple, intune, effort: .exhaustive)
    }
    #expect(exhaustive.exactness.isExact)
    #expect(!exhaustive.searchLimitReached)
    // A rule outside the fragment stays bounded, and more effort would not change that.
    let matches = try PredicateParser.parse(
      "SUBQUERY(extensionItems, $e, ANY $e.attachments.registeredTypeIdentifiers MATCHES 'public\\\\..*')"
        + ".@count > 0")
    let outside = try SemanticDiff.decide(matches, apple, effort: .exhaustive)
    #expect(!outside.exactness.isExact)
    #expect(!outside.searchLimitReached)
  }

  @Test func lintSuggestsExhaustiveOnlyWhenItWouldDecide() throws {
    let (apple, intune) = Self.pair
    // Accepts the contexts Microsoft's form accepts and the apple form does not (the URL beside a twin file
    // URL): some, not all.
    let difference = PredicateNode(.and(PredicateNode(.not(apple)), intune))
    let file = RuleFile(path: "difference.predicate", predicate: difference.formatted)
    let bounded = Self.bounded { RuleLinter().lint(file) }
    let notExact = try #require(bounded.first { $0.check == LintCheck.notExhaustivelyChecked.name })
    #expect(notExact.fix?.contains("--exhaustive") == true)
    let exhaustive = Self.bounded {
      RuleLinter(effort: .exhaustive).lint(file)
    }
    #expect(!exhaustive.contains { $0.check == LintCheck.notExhaustivelyChecked.name })
    #expect(!exhaustive.contains { $0.check == LintCheck.neverActivates.name })
    #expect(!exhaustive.contains { $0.check == LintCheck.alwaysActivates.name })
  }
}
