import Foundation
import Testing

@testable import XcodeProjects

/// NetNewsWire's xcconfig files include each other as `#include "./common/…"` and, from `common/`,
/// `#include "./NetNewsWire_ios_target_common.xcconfig"`: a location names the file as a reader would
/// write it (`xcconfig/common/…`), not as the directives spell the way there (`xcconfig/./common/./…`).
@Suite("A setting from an #include \"./…\" is located at the file's plain path")
struct XCConfigIncludeLocationTests {
  @Test("no ./ components in the locations of NetNewsWire's included settings")
  func netNewsWire() throws {
    let project = try XcodeProject(
      path: RealProjectsTests.root.appendingPathComponent("netnewswire/NetNewsWire.xcodeproj").path)
    let target = try #require(project.target(named: "NetNewsWire iOS Share Extension"))
    let settings = try project.buildSettings(target: target, configuration: "Debug")
    let hardened = try #require(settings.assignment(for: "ENABLE_HARDENED_RUNTIME"))
    #expect(
      hardened.location.file
        == project.sourceRoot + "/xcconfig/common/NetNewsWire_iOSextension_common.xcconfig")
    for level in settings.levels {
      for assignment in level.assignments {
        #expect(!assignment.location.file.contains("/./"), "\(assignment.name): \(assignment.location)")
      }
    }
  }

  /// `#include "/tmp"` (a crash hunt's mutation): the error named /tmp alone, without the line that
  /// includes it, which is what to change.
  @Test("an #include of a folder: the error is at the #include line")
  func includeOfAFolder() throws {
    let root = try Fixtures.folder(["Config/App.xcconfig": "A = 1\n#include \"sub\"\n", "Config/sub/x": ""])
    defer { try? FileManager.default.removeItem(at: root) }
    let path = root.appendingPathComponent("Config/App.xcconfig").path
    let error = try #require(throws: XcodeProjectError.self) { try XCConfigFile.read(path: path) }
    #expect(error.location == BuildSettingLocation(file: path, line: 2, column: 1))
    #expect(error.message.hasPrefix("#include \"sub\": "), "\(error.message)")
    #expect(error.message.contains("it is a directory"))
  }
}
