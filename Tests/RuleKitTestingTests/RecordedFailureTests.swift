import ActivationRules
import RuleKitTesting
import Testing

/// The recording assertions, made to fail on purpose: each test passes only when the assertion records
/// exactly one issue, at the caller's line, whose comment carries the explain trace and the smallest
/// context. `withKnownIssue` is how Swift Testing checks that an issue is recorded (it fails the test when
/// none is); nothing here is skipped.
@Suite("Recorded failures")
struct RecordedFailureTests {
  let share: RuleUnderTest

  init() throws {
    share = try RuleUnderTest(contentsOf: "../../Examples/SampleApp/ShareExtension/Info.plist")
  }

  /// Whether `issue` was recorded at `line` of this file with a comment holding the verdict, the indented
  /// explain trace and the smallest-context line.
  static func isRuleFailure(_ issue: Issue, line: Int, verdict: String, smallest: String) -> Bool {
    guard let location = issue.sourceLocation, location.line == line,
      location.fileID.hasSuffix("RecordedFailureTests.swift")
    else { return false }
    let comment = issue.comments.map(\.rawValue).joined(separator: "\n")
    return comment.contains(verdict) && comment.contains("\nexplanation:\n  ")
      && comment.contains("\n  result: ") && comment.contains("\n" + smallest)
  }

  @Test("expectActivation records the trace at the caller when the rule does not activate")
  func expectActivationRecords() {
    let line = #line + 2  // the assertion's line
    withKnownIssue {
      let result = expectActivation(share, for: .firefoxURLText)
      #expect(!result.passed)
    } matching: { issue in
      Self.isRuleFailure(
        issue, line: line, verdict: "to activate for firefox-url-text, but it does not",
        smallest: "smallest context on which the rule activates: ")
    }
  }

  @Test("expectNoActivation records the trace and the activating part when the rule activates")
  func expectNoActivationRecords() {
    let line = #line + 2  // the assertion's line
    withKnownIssue {
      expectNoActivation(
        share, on: ExtensionContext(attachments: [["public.jpeg"], ["com.adobe.pdf"]]))
    } matching: { issue in
      Self.isRuleFailure(
        issue, line: line, verdict: "to not activate for the given context, but it does",
        smallest: "smallest part of the given context on which the rule still activates: [[public.jpeg]]")
    }
  }

  @Test("a passing expectation records nothing")
  func passingRecordsNothing() {
    // Recorded issues here would fail this test: there is no withKnownIssue around it.
    #expect(expectActivation(share, for: .safariPage).passed)
    #expect(expectNoActivation(share, for: .photos(count: 6)).passed)
  }
}
