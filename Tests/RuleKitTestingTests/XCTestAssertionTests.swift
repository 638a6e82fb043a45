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
