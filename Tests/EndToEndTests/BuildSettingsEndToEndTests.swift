import CLITestSupport
import Foundation
import Testing

@Suite("rulekit build-settings (end to end)")
struct BuildSettingsEndToEndTests {
  static let project = "Tests/Fixtures/share-app/ShareApp.xcodeproj"
  static let golden = RuleKitBinary.testDirectory.appendingPathComponent("Golden/build-settings")

  static func expected(_ name: String) throws -> String {
    try String(contentsOf: golden.appendingPathComponent(name), encoding: .utf8)
  }

  @Test(
    "text and JSON output match the golden files",
    arguments: [
      (["--target", "ShareApp", "--configuration", "Debug"], "shareapp-debug.txt"),
      (
        ["--target", "ShareApp", "--configuration", "Debug", "--sdk", "iphonesimulator"],
        "shareapp-debug-sim.txt"
      ),
      (["--list"], "list.txt"),
      (["--list", "--format", "json"], "list.json"),
    ])
  func golden(arguments: [String], file: String) throws {
    let result = try RuleKitBinary.run(["build-settings", "--project", Self.project] + arguments)
    #expect(result.status == 0)
    #expect(result.standardError.isEmpty)
    // SRCROOT and PROJECT_DIR are absolute, as in Xcode: compared relative to the package root.
    let output = result.standardOutput.replacing(RuleKitBinary.packageRoot.path + "/", with: "")
    #expect(output == (try Self.expected(file)))
  }

  @Test("given the folder holding the project, --list names the project it read")
  func folderNamesTheProjectRead() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-bs-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      at: RuleKitBinary.packageRoot.appendingPathComponent(Self.project),
      to: folder.appendingPathComponent("ShareApp.xcodeproj"))
    let result = try RuleKitBinary.run(["build-settings", "--project", folder.path, "--list"])
    #expect(result.status == 0, "\(result.standardError)")
    #expect(result.standardOutput.hasPrefix("Targets of ShareApp (\(folder.path)/ShareApp.xcodeproj):\n"))
  }

  /// ownCloud's "ownCloud Share Extension" typed in lower case: the names are quoted as the configure and
  /// lint hints quote them, and the one that differs only in case is suggested.
  @Test("an unknown target: quoted names, and the one differing only in letter case suggested")
  func unknownTargetSuggestsTheCaseVariant() throws {
    let limit = "Tests/Fixtures/xcode-projects/limit/Limit.xcodeproj"
    let result = try RuleKitBinary.run(["build-settings", "--project", limit, "--target", "share extension"])
    #expect(result.status == 2)
    // The same error configure and lint give, at the project file.
    #expect(
      result.standardError.hasPrefix(
        "rulekit: error: \(limit)/project.pbxproj: the project has no target named \"share extension\"\n"
          + "hint: its targets: "))
    let close = try RuleKitBinary.run(["build-settings", "--project", limit, "--target", "shareextension"])
    #expect(close.standardError.contains("hint: did you mean \"ShareExtension\"? its targets: "))
    // A configuration differing only in letter case is suggested too.
    let configuration = try RuleKitBinary.run([
      "build-settings", "--project", limit, "--target", "Limit", "--configuration", "debug",
    ])
    #expect(configuration.status == 2)
    #expect(configuration.standardError.contains("hint: did you mean \"Debug\"? use one of: "))
    let configure = try RuleKitBinary.run([
      "configure", "--project", limit, "--target", "limit", "--dry-run",
    ])
    #expect(configure.standardError.contains("hint: did you mean \"Limit\"? its application targets: Limit"))
  }

  @Test("JSON: the resolved settings, and the missing Pods xcconfig as a diagnostic")
  func json() throws {
    let result = try RuleKitBinary.run([
      "build-settings", "--project", Self.project, "--target", "Share", "--format", "json",
    ])
    #expect(result.status == 0)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
    #expect(document["schemaVersion"] as? Int == 1)
    #expect(document["configuration"] as? String == "Release")
    #expect(document["sdk"] as? String == "iphoneos")
    let settings = try #require(document["buildSettings"] as? [String: String])
    #expect(settings["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.shareapp.share")
    #expect(settings["INFOPLIST_FILE"] == "Share/Info.plist")
    #expect(settings["GENERATE_INFOPLIST_FILE"] == "YES")
    let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.first?["kind"] as? String == "missing-base-configuration")
    #expect(diagnostics.first?["affectedSettings"] as? [String] == ["OTHER_LDFLAGS"])
  }

  @Test("a missing base configuration is a warning on stderr; the settings still print")
  func warning() throws {
    let result = try RuleKitBinary.run(["build-settings", "--project", Self.project, "--target", "Share"])
    #expect(result.status == 0)
    #expect(result.standardError.contains("project.pbxproj:207:3: warning: the target configuration Release"))
    #expect(result.standardOutput.hasPrefix("Build settings for target Share, configuration Release:\n"))
  }

  @Test("an #include cycle is a warning at the #include line in build-settings and lint --project")
  func includeCycle() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-cycle-\(UUID())")
    defer { try? FileManager.default.removeItem(at: folder) }
    // An app target whose Debug configuration is based on Config/App.xcconfig, which includes Shared.xcconfig,
    // which includes App.xcconfig again.
    let project = """
      // !$*UTF8*$!
      {
        archiveVersion = 1; classes = {}; objectVersion = 56;
        objects = {
          F1 = {isa = PBXFileReference; path = Config/App.xcconfig; sourceTree = SOURCE_ROOT; };
          G1 = {isa = PBXGroup; children = (F1); sourceTree = "<group>"; };
          T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App;
            productType = "com.apple.product-type.application"; };
          C1 = {isa = XCBuildConfiguration; buildSettings = {}; name = Debug; };
          C2 = {isa = XCBuildConfiguration; baseConfigurationReference = F1;
            buildSettings = { INFOPLIST_FILE = Info.plist; }; name = Debug; };
          L1 = {isa = XCConfigurationList; buildConfigurations = (C1); defaultConfigurationName = Debug; };
          L2 = {isa = XCConfigurationList; buildConfigurations = (C2); defaultConfigurationName = Debug; };
          P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (T1); };
        };
        rootObject = P1;
      }
      """
    let files = [
      "App.xcodeproj/project.pbxproj": project,
      "Config/App.xcconfig": "#include \"Shared.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = $(BASE).app\n",
      "Config/Shared.xcconfig": "BASE = com.example\n#include \"App.xcconfig\"\nAFTER = $(BASE)-after\n",
      "Info.plist": "<plist version=\"1.0\"><dict/></plist>\n",
    ]
    for (path, text) in files {
      let url = folder.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try text.write(to: url, atomically: true, encoding: .utf8)
    }
    let settings = try RuleKitBinary.run(
      ["build-settings", "--project", "App.xcodeproj", "--target", "App", "--format", "json"],
      currentDirectory: folder)
    #expect(settings.status == 0, "\(settings.standardError)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(settings.standardOutput.utf8)) as? [String: Any])
    #expect((document["buildSettings"] as? [String: String])?["AFTER"] == "com.example-after")
    let diagnostic = try #require((document["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["kind"] as? String == "include-cycle")
    #expect(diagnostic["severity"] as? String == "warning")
    #expect(diagnostic["file"] as? String == "Config/Shared.xcconfig")
    #expect(diagnostic["line"] as? Int == 2)

    let lint = try RuleKitBinary.run(
      ["lint", "--format", "xcode", "--project", "App.xcodeproj"], currentDirectory: folder)
    #expect(lint.status == 1, "\(lint.standardError)")
    #expect(
      lint.standardOutput.contains(
        "Config/Shared.xcconfig:2:1: warning: #include \"App.xcconfig\" in the target base configuration is "
          + "skipped: it would read App.xcconfig again"), "\(lint.standardOutput)")
  }
}
