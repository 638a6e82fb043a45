import Foundation
import Testing

@testable import XcodeProjects

/// A project lint resolves every target in every configuration and SDK: brave's `Base.xcconfig` was read
/// and parsed 121 times in one `lint --project`, and a crash hunt's 4 MB xcconfig line made `configure`
/// run past 20 s. Each xcconfig is read once per project now.
@Suite("xcconfig files are read once per project")
struct XCConfigFileCacheTests {
  @Test("resolving again, in another SDK and through a copy of the project, reads the file as first read")
  func readOnce() throws {
    let root = try Fixtures.folder([
      "App.xcodeproj/project.pbxproj": Fixtures.projectBasedOnXCConfig("Config/App.xcconfig"),
      "Config/App.xcconfig": "PRODUCT_BUNDLE_IDENTIFIER = com.example.app\n",
    ])
    defer { try? FileManager.default.removeItem(at: root) }
    let project = try XcodeProject(path: root.appendingPathComponent("App.xcodeproj").path)
    let target = try #require(project.target(named: "App"))
    #expect(try project.buildSettings(target: target)["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.app")
    // Changed on disk after the first read: this project keeps what it read, as it keeps its pbxproj.
    try Data("PRODUCT_BUNDLE_IDENTIFIER = com.example.changed\n".utf8).write(
      to: root.appendingPathComponent("Config/App.xcconfig"))
    let copy = project
    #expect(
      try copy.buildSettings(target: target, sdk: "macosx")["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.app")
    // A project opened anew reads the file as it is now.
    let reopened = try XcodeProject(path: root.appendingPathComponent("App.xcodeproj").path)
    let again = try #require(reopened.target(named: "App"))
    #expect(try reopened.buildSettings(target: again)["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.changed")
  }
}
