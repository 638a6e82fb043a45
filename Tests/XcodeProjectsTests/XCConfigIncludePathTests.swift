import Foundation
import Testing

@testable import XcodeProjects

@Suite("#include paths as Xcode reads them: literally, beside the includer, then in the project's folder")
struct XCConfigIncludePathTests {
  /// kmp-project-template's `cmp-ios/Configs` (Fixtures/xcconfig-includes), with a minimal project whose
  /// app target's `demoDebug` configuration is based on `iOSApp.xcconfig`, as the template's is.
  static func kmpProject() throws -> XcodeProject {
    let source = Fixtures.directory.appendingPathComponent("xcconfig-includes/kmp-project-template/cmp-ios")
    let root = try Fixtures.folder([
      "cmp-ios/iosApp.xcodeproj/project.pbxproj": Fixtures.projectBasedOnXCConfig(
        "Configs/iOSApp.xcconfig", target: "iosApp", configuration: "demoDebug",
        settings: "INFOPLIST_FILE = iosApp/Info.plist;")
    ])
    try FileManager.default.copyItem(
      at: source.appendingPathComponent("Configs"), to: root.appendingPathComponent("cmp-ios/Configs"))
    return try XcodeProject(path: root.appendingPathComponent("cmp-ios/iosApp.xcodeproj").path)
  }

  @Test("a real #include \"$(CONFIGURATION).xcconfig\": not expanded, so demoDebug.xcconfig is not read")
  func kmpProjectTemplate() throws {
    let project = try Self.kmpProject()
    let target = try #require(project.target(named: "iosApp"))
    let settings = try project.buildSettings(target: target, configuration: "demoDebug")
    // demoDebug.xcconfig, beside it, sets these; Xcode never reads it.
    #expect(settings["KMPF_VARIANT"] == nil)
    #expect(
      settings.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")?.location.file.hasSuffix("demoDebug.xcconfig")
        != true)
    let diagnostic = try #require(settings.diagnostics.first { $0.kind == .missingInclude })
    #expect(diagnostic.severity == .warning)
    #expect(diagnostic.location?.file.hasSuffix("Configs/iOSApp.xcconfig") == true)
    #expect(diagnostic.location?.line == 6)
    #expect(
      diagnostic.message
        == "#include \"$(CONFIGURATION).xcconfig\" in the target base configuration: Xcode does not expand build "
        + "settings in an #include path: it looks for \"$(CONFIGURATION).xcconfig\" literally, which does not "
        + "exist, so the build stops with \"could not find included file\"")
    #expect(diagnostic.hint?.hasPrefix("base each configuration on an xcconfig of its own") == true)
  }

  /// GitJournal's ios/Flutter/Debug.xcconfig includes "Pods/Target Support Files/…" before `pod install`:
  /// the warning named ios/Flutter/Pods/…, the first place looked in, where `pod install` does not write.
  @Test("a missing #include names its path as written and every folder looked in")
  func missingIncludeNamesThePlacesLookedIn() throws {
    let root = try Fixtures.folder([
      "ios/Runner.xcodeproj/project.pbxproj": Fixtures.projectBasedOnXCConfig(
        "Flutter/Debug.xcconfig", target: "Runner", configuration: "Debug",
        settings: "INFOPLIST_FILE = Runner/Info.plist;"),
      "ios/Flutter/Debug.xcconfig":
        "#include \"Pods/Target Support Files/Pods-Runner/Pods-Runner.debug.xcconfig\"\n",
    ])
    let project = try XcodeProject(path: root.appendingPathComponent("ios/Runner.xcodeproj").path)
    let target = try #require(project.target(named: "Runner"))
    let settings = try project.buildSettings(target: target, configuration: "Debug")
    let diagnostic = try #require(settings.diagnostics.first { $0.kind == .missingInclude })
    let ios = root.appendingPathComponent("ios").path
    #expect(
      diagnostic.message.hasPrefix(
        "#include \"Pods/Target Support Files/Pods-Runner/Pods-Runner.debug.xcconfig\" (looked for in "
          + "\(ios)/Flutter and \(ios)) in the target base configuration: no such file"))
    #expect(diagnostic.hint?.hasPrefix("run pod install") == true)
  }

  @Test(
    "#include? with a build setting is listed (skipped in every configuration); a plain missing one is not")
  func optionalInclude() throws {
    let root = try Fixtures.folder([
      "a.xcconfig": "#include? \"${CONFIGURATION}-local.xcconfig\"\n#include? \"Local.xcconfig\"\nA = 1\n",
      "Debug-local.xcconfig": "A = 2\n",
    ])
    let file = try XCConfigFile.read(path: root.appendingPathComponent("a.xcconfig").path)
    #expect(file.assignments.map(\.value) == ["1"])
    #expect(file.missingIncludes.map(\.written) == ["${CONFIGURATION}-local.xcconfig"])
    let missing = try #require(file.missingIncludes.first)
    #expect(missing.isOptional && missing.namesBuildSetting)
    #expect(
      missing.problem.hasSuffix(
        "so this #include? is skipped in every configuration and its settings never apply"))
  }

  @Test("a required #include with a build setting is an error that says Xcode reads it literally")
  func requiredIncludeError() throws {
    let root = try Fixtures.folder([
      "a.xcconfig": "#include \"$(CONFIGURATION).xcconfig\"\n", "Debug.xcconfig": "A = 1\n",
    ])
    let error = try #require(throws: XcodeProjectError.self) {
      try XCConfigFile.read(path: root.appendingPathComponent("a.xcconfig").path)
    }
    #expect(error.kind == .includeNotFound)
    #expect(error.message.contains("Xcode does not expand build settings in an #include path"))
  }

  @Test("a file literally named with $(…) is included, as Xcode would")
  func literalName() throws {
    let root = try Fixtures.folder([
      "a.xcconfig": "#include \"$(CONFIGURATION).xcconfig\"\n", "$(CONFIGURATION).xcconfig": "A = literal\n",
    ])
    let file = try XCConfigFile.read(path: root.appendingPathComponent("a.xcconfig").path)
    #expect(file.assignments.map(\.value) == ["literal"])
    #expect(file.missingIncludes.isEmpty)
  }

  @Test(
    "a relative #include not beside the includer is looked for in the search paths; .xcconfig is optional")
  func searchPathsAndExtension() throws {
    let root = try Fixtures.folder([
      "Config/Targets/App.xcconfig": "#include \"Shared/Base\"\n#include \"Config/Common.xcconfig\"\n",
      "Config/Targets/Shared/Base.xcconfig": "A = base\n",
      "Config/Common.xcconfig": "B = common\n",
    ])
    let path = root.appendingPathComponent("Config/Targets/App.xcconfig").path
    // Without the project's folder to search, Config/Common.xcconfig is not found.
    #expect(throws: XcodeProjectError.self) { try XCConfigFile.read(path: path) }
    let file = try XCConfigFile.read(path: path, searchPaths: [root.path])
    #expect(file.assignments.map(\.value) == ["base", "common"])
    #expect(
      file.includedFiles.map { URL(fileURLWithPath: $0).lastPathComponent } == [
        "Base.xcconfig", "Common.xcconfig",
      ])
  }
}
