import ActivationRules
import RuleKitTesting
import XCTest

/// The XCTest assertions, used as an XCTest-based app suite would.
final class XCTestAssertionTests: XCTestCase {
  func testSampleShareExtension() throws {
    let share = try RuleUnderTest(contentsOf: "../../Examples/SampleApp/ShareExtension/Info.plist")
    XCTAssertActivates(share, for: .safariPage)
    XCTAssertActivates(share, on: ExtensionContext(attachments: [["public.jpeg"], ["com.adobe.pdf"]]))
    XCTAssertDoesNotActivate(share, for: .photos(count: 6))
    XCTAssertDoesNotActivate(share, on: ExtensionContext(attachments: [["public.plain-text"]]))
  }

  func testOpenInExtension() throws {
    let openIn = try RuleUnderTest(contentsOf: "../../Examples/SampleApp/OpenInExtension/Info.plist")
    XCTAssertActivates(openIn, for: .intuneManagedApp, "the Open-In extension serves managed apps")
    XCTAssertDoesNotActivate(openIn, for: .filesPDF)
  }
}

/// The XCTest assertions made to fail on purpose. The failures are captured instead of reported, so the
/// test checks what a user would read: the caller's file and line, their message first, then the explain
/// trace and the smallest context.
final class XCTestFailureTests: XCTestCase {
  struct Failure {
    var description: String
    var file: String
    var line: Int
  }

  private var captured: [Failure] = []
  private var capturing = false

  #if canImport(Darwin)
    override func record(_ issue: XCTIssue) {
      guard capturing else { return super.record(issue) }
      captured.append(
        Failure(
          description: issue.compactDescription, file: issue.sourceCodeContext.location?.fileURL.path ?? "",
          line: issue.sourceCodeContext.location?.lineNumber ?? 0))
    }
  #else
    override func recordFailure(
      withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
    ) {
      guard capturing else {
        return super.recordFailure(
          withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
      }
      captured.append(Failure(description: description, file: filePath, line: lineNumber))
    }
  #endif

  /// The failures `body` reports, captured instead of failing this test.
  private func failures(of body: () -> Void) -> [Failure] {
    captured = []
    capturing = true
    body()
    capturing = false
    return captured
  }

  func testFailingActivationReportsTheTraceAtTheCaller() throws {
    let share = try RuleUnderTest(contentsOf: "../../Examples/SampleApp/ShareExtension/Info.plist")
    var line = 0
    let failures = failures {
      line = #line + 1
      XCTAssertActivates(share, for: .firefoxURLText, "the share sheet must offer us for links")
    }
    XCTAssertEqual(failures.count, 1)
    let failure = try XCTUnwrap(failures.first)
    XCTAssertEqual(failure.line, line)
    XCTAssertTrue(failure.file.hasSuffix("XCTestAssertionTests.swift"), failure.file)
    XCTAssertTrue(
      failure.description.contains("the share sheet must offer us for links\nexpected the rule at "))
    XCTAssertTrue(failure.description.contains("to activate for firefox-url-text, but it does not"))
    XCTAssertTrue(failure.description.contains("\nexplanation:\n  "))
    XCTAssertTrue(failure.description.contains("\n  result: does not activate"))
    XCTAssertTrue(failure.description.contains("\nsmallest context on which the rule activates: "))
  }

  func testFailingNonActivationNamesTheActivatingPart() throws {
    let share = try RuleUnderTest(contentsOf: "../../Examples/SampleApp/ShareExtension/Info.plist")
    let failures = failures { XCTAssertDoesNotActivate(share, for: .safariPage) }
    XCTAssertEqual(failures.count, 1)
    XCTAssertTrue(
      failures.first?.description.contains(
        "smallest part of safari-page on which the rule still activates: [[public.url]]") == true)
  }

  func testPassingAssertionsReportNothing() throws {
    let share = try RuleUnderTest(contentsOf: "../../Examples/SampleApp/ShareExtension/Info.plist")
    let failures = failures {
      XCTAssertActivates(share, for: .safariPage)
      XCTAssertDoesNotActivate(share, for: .photos(count: 6))
    }
    XCTAssertEqual(failures.count, 0)
  }
}
