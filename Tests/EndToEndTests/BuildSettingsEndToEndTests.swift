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
}
