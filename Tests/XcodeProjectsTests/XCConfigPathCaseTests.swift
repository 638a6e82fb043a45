import Foundation
import Testing

@testable import XcodeProjects

/// Xcode runs on macOS, whose volumes are case-insensitive by default, so an `#include` or a base
/// configuration spelt in another letter case than the file is read there. Simplenote's and WooCommerce's
/// `config/Simplenote.debug.xcconfig` / `Common.xcconfig` `#include "Version.public.xcconfig"` beside
/// `Version.Public.xcconfig` (both GPL-2.0, so the shape is written by hand here).
@Suite("xcconfig files spelt in another letter case are read as on macOS, with a warning")
struct XCConfigPathCaseTests {
  static func project(base: String, files: [String: String]) throws -> XcodeProject {
    var all = files
    all["App.xcodeproj/project.pbxproj"] = Fixtures.projectBasedOnXCConfig(base)
    let root = try Fixtures.folder(all)
    return try XcodeProject(path: root.appendingPathComponent("App.xcodeproj").path)
  }

  /// Whether the temporary folder's volume tells letter cases apart (Linux; not macOS's default).
  static func caseSensitive(_ project: XcodeProject, _ spelt: String) -> Bool {
    !FileManager.default.fileExists(atPath: project.sourceRoot + "/" + spelt)
  }

  @Test("#include \"Version.public.xcconfig\" reads Version.Public.xcconfig")
  func include() throws {
    let project = try Self.project(
      base: "config/App.debug.xcconfig",
      files: [
        "config/App.debug.xcconfig": "#include \"Version.public.xcconfig\"\nOTHER = 1\n",
        "config/Version.Public.xcconfig": "MARKETING_VERSION = 4.53\n",
      ])
    let settings = try project.buildSettings(target: try #require(project.target(named: "App")))
    #expect(settings["MARKETING_VERSION"] == "4.53")
    #expect(!settings.diagnostics.contains { $0.kind == .missingInclude })
    let mismatches = settings.diagnostics.filter { $0.kind == .pathCaseMismatch }
    guard Self.caseSensitive(project, "config/Version.public.xcconfig") else {
      #expect(mismatches.isEmpty)
      return
    }
    let warning = try #require(mismatches.first)
    #expect(mismatches.count == 1)
    #expect(warning.severity == .warning)
    #expect(warning.location?.file == project.sourceRoot + "/config/App.debug.xcconfig")
    #expect(warning.location?.line == 1)
    #expect(
      warning.message
        == "#include \"Version.public.xcconfig\" in the target base configuration names "
        + "\(project.sourceRoot)/config/Version.public.xcconfig, which exists only as "
        + "\(project.sourceRoot)/config/Version.Public.xcconfig: Xcode finds it on a case-insensitive volume "
        + "(macOS's default) and fails on a case-sensitive one; it is read here")
    #expect(
      warning.hint == "spell the #include as the file is named (Version.Public.xcconfig), or rename the file")
  }

  @Test("a base configuration whose folder is spelt in another case is read, not missing")
  func baseConfiguration() throws {
    let project = try Self.project(
      base: "Config/App.xcconfig", files: ["config/App.xcconfig": "PRODUCT_BUNDLE_IDENTIFIER = com.example\n"]
    )
    let settings = try project.buildSettings(target: try #require(project.target(named: "App")))
    #expect(settings["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example")
    #expect(!settings.diagnostics.contains { $0.kind == .missingBaseConfiguration })
    let mismatches = settings.diagnostics.filter { $0.kind == .pathCaseMismatch }
    #expect(mismatches.count == (Self.caseSensitive(project, "Config/App.xcconfig") ? 1 : 0))
    #expect(mismatches.first?.message.hasPrefix("the target configuration Debug is based on ") != false)
  }

  @Test("two files differing only in case: neither is the one, the include stays missing")
  func ambiguous() throws {
    let project = try Self.project(
      base: "config/App.xcconfig",
      files: [
        "config/App.xcconfig": "#include? \"version.xcconfig\"\n", "config/Version.xcconfig": "A = 1\n",
        "config/VERSION.xcconfig": "A = 2\n",
      ])
    let settings = try project.buildSettings(target: try #require(project.target(named: "App")))
    guard Self.caseSensitive(project, "config/version.xcconfig") else { return }
    #expect(settings["A"] == nil)
    #expect(!settings.diagnostics.contains { $0.kind == .pathCaseMismatch })
  }
}
