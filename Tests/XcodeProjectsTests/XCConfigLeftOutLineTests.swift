import Foundation
import Testing

@testable import XcodeProjects

/// A base configuration's line that is not a setting or an `#include` is left out, as Xcode leaves it out
/// (reporting it as an error), and resolution says so at the line instead of dropping it silently.
@Suite struct XCConfigLeftOutLineTests {
  @Test("a line without '=' is left out with a warning at it; the settings around it resolve")
  func leftOutLine() throws {
    let root = try Fixtures.folder([
      "App.xcodeproj/project.pbxproj": XCConfigIncludeCycleTests.project,
      "Config/App.xcconfig":
        "BASE = com.example\nPRODUCT_NAME Example\nPRODUCT_BUNDLE_IDENTIFIER = $(BASE).app\n",
    ])
    let project = try XcodeProject(path: root.appendingPathComponent("App.xcodeproj").path)
    let target = try #require(project.target(named: "App"))
    let settings = try project.buildSettings(target: target)
    #expect(settings["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.app")
    let warnings = settings.diagnostics.filter { $0.kind == .xcconfigSyntax }
    let warning = try #require(warnings.first)
    #expect(warnings.count == 1)
    #expect(warning.severity == .warning)
    #expect(warning.location?.file.hasSuffix("Config/App.xcconfig") == true)
    #expect(warning.location?.line == 2)
    #expect(
      warning.message.hasPrefix(
        "a line of the target base configuration is left out: expected '=' after PRODUCT_NAME"))
    #expect(warning.message.hasSuffix("Xcode reports it as an error"))
    #expect(warning.hint?.contains("NAME = value") == true)
  }

  @Test("an xcconfig without such lines has no such warning")
  func cleanFile() throws {
    let root = try Fixtures.folder([
      "App.xcodeproj/project.pbxproj": XCConfigIncludeCycleTests.project,
      "Config/App.xcconfig": "PRODUCT_BUNDLE_IDENTIFIER = com.example.app\n",
    ])
    let project = try XcodeProject(path: root.appendingPathComponent("App.xcodeproj").path)
    let target = try #require(project.target(named: "App"))
    let settings = try project.buildSettings(target: target)
    #expect(settings.diagnostics.filter { $0.kind == .xcconfigSyntax }.isEmpty)
  }
}
