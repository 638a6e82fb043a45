import CLITestSupport
import Foundation
import Testing

/// `rulekit configure` reads common command lines without swift-argument-parser (`ConfigureRun.parse`);
/// every line here must behave exactly as with the full parser (`RULEKIT_FULL_PARSER=1`): same exit
/// status, output and written files.
@Suite("configure's direct argument reading behaves like swift-argument-parser")
struct ConfigureFastPathTests {
  static let lines: [[String]] = [
    ["-i", "App/Info.plist", "-e", "App/App.entitlements"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--dry-run", "--diff"],
    ["--dry-run", "-e", "App/App.entitlements", "-i", "App/Info.plist", "--format", "json"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--format=json", "--dry-run"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--fix-entitlements", "-q"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--sdk-version", "2017", "--ios-sdk", "27"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "-o", "Out.plist", "--color", "never"],
    ["-i", "ShareExtension/Info.plist", "-e", "App/App.entitlements", "--containing-app", "com.example"],
    [
      "-i", "OpenInExtension/Info.plist", "-e", "App/App.entitlements", "--containing-app-plist",
      "App/Info.plist", "--quiet",
    ],
    [
      "-i", "App/Info.plist", "-e", "App/App.entitlements", "--dry-run", "--known-managed-scheme", "msauthv2",
      "--known-managed-scheme=msauthv3-intunemam", "--known-managed-scheme", "nosuchapp",
    ],
    // Errors: the run fails the same way (the direct reader passes these on, or the run itself fails).
    ["-i", "App/Info.plist", "-e", ""],
    ["-i", "App/Info.plist", "-e", " "],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "-o", ""],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "-o", "nodir/Out.plist"],
    ["-i", "Missing.plist", "-e", "App/App.entitlements"],
    ["-i", "App/Info.plist"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--format", "yaml"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--sdk-version", "2019"],
    ["-i", "App/Info.plist", "-i", "ShareExtension/Info.plist", "-e", "App/App.entitlements"],
    ["-i", "-e", "App/App.entitlements"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--dry-run=yes"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--unknown"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--help"],
  ]

  struct Result: Equatable {
    var status: Int32
    var standardOutput: String
    var standardError: String
    var files: [String: Data]
  }

  /// `rulekit configure LINE` on a copy of the sample app, or `IntuneMAMConfigurator LINE` with
  /// `closedToolName`.
  static func run(_ line: [String], fullParser: Bool, closedToolName: Bool = false) throws -> Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-fast-\(UUID())")
    try FileManager.default.copyItem(at: ConfiguredSampleApp.example, to: folder)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outcome = try RuleKitBinary.run(
      closedToolName ? line : ["configure"] + line, currentDirectory: folder,
      environment: fullParser ? ["RULEKIT_FULL_PARSER": "1"] : [:],
      executable: closedToolName ? try ClosedToolBinary.get() : nil)
    var files: [String: Data] = [:]
    for name in ConfiguredSampleApp.files + ["Out.plist"] {
      files[name] = try? Data(contentsOf: folder.appendingPathComponent(name))
    }
    return Result(
      status: outcome.status, standardOutput: outcome.standardOutput, standardError: outcome.standardError,
      files: files)
  }

  /// The two readers' runs ended alike: exit status, both streams, and every file.
  static func expectSameOutcome(
    _ direct: Result, _ full: Result, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    #expect(direct.status == full.status, sourceLocation: sourceLocation)
    #expect(direct.standardOutput == full.standardOutput, sourceLocation: sourceLocation)
    #expect(direct.standardError == full.standardError, sourceLocation: sourceLocation)
    #expect(direct.files == full.files, sourceLocation: sourceLocation)
  }

  @Test(arguments: lines)
  func sameOutcome(_ line: [String]) throws {
    let direct = try Self.run(line, fullParser: false)
    let full = try Self.run(line, fullParser: true)
    ConfigureFastPathTests.expectSameOutcome(direct, full)
  }

  /// The same property under the closed tool's name, where the lines go to the same two readers.
  @Test(arguments: lines)
  func sameOutcomeUnderTheClosedToolsName(_ line: [String]) throws {
    let direct = try Self.run(line, fullParser: false, closedToolName: true)
    let full = try Self.run(line, fullParser: true, closedToolName: true)
    ConfigureFastPathTests.expectSameOutcome(direct, full)
  }
}

/// The same property for `configure --project`, which the direct reader takes too (the command Xcode build
/// phases and CI run on a whole project), on a copy of a real project.
@Suite("configure --project's direct argument reading behaves like swift-argument-parser")
struct ConfigureProjectFastPathTests {
  static let project = "Limit.xcodeproj"

  static let lines: [[String]] = [
    ["--project", project, "--dry-run"],
    ["--project", project, "--target", "Limit", "--dry-run", "--diff"],
    ["--project=\(project)", "--target=Limit", "--format", "json", "--dry-run"],
    ["--dry-run", "--project", project, "--sdk", "iphonesimulator", "-q"],
    ["--project", project, "--fix-entitlements", "--sdk-version", "2023", "--color", "never"],
    ["--project", project],
    // The share extension's dictionary rule, written with its own meaning (written to the copy).
    ["--project", project, "--dictionary-style", "apple"],
    ["--project", project, "--dictionary-style=apple", "--dry-run", "--diff"],
    // Errors, and lines the direct reader passes on.
    ["--project", project, "--dictionary-style", "strict", "--dry-run"],
    ["--project", project, "--target", "NoSuchTarget", "--dry-run"],
    ["--project", "Missing.xcodeproj", "--dry-run"],
    ["--project", project, "-i", "Limit/Info.plist", "--dry-run"],
    ["--project", project, "--containing-app", "com.example", "--dry-run"],
    ["--target", "Limit", "--dry-run"],
    ["--project", project, "--project", project, "--dry-run"],
    ["--project", "--dry-run"],
  ]

  @Test(arguments: lines)
  func sameOutcome(_ line: [String]) throws {
    let direct = try Self.run(line, fullParser: false)
    let full = try Self.run(line, fullParser: true)
    ConfigureFastPathTests.expectSameOutcome(direct, full)
  }

  /// `rulekit configure LINE` in a copy of the `limit` project, and every file of the copy afterwards.
  static func run(_ line: [String], fullParser: Bool) throws -> ConfigureFastPathTests.Result {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-fast-\(UUID())")
    try FileManager.default.copyItem(
      at: RuleKitBinary.packageRoot.appendingPathComponent("Tests/Fixtures/xcode-projects/limit"), to: folder)
    defer { try? FileManager.default.removeItem(at: folder) }
    let outcome = try RuleKitBinary.run(
      ["configure"] + line, currentDirectory: folder,
      environment: fullParser ? ["RULEKIT_FULL_PARSER": "1"] : [:])
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(atPath: folder.path)
    while let name = enumerator?.nextObject() as? String {
      files[name] = try? Data(contentsOf: folder.appendingPathComponent(name))
    }
    // The copy's folder name differs run to run; the output names it.
    func normalized(_ text: String) -> String { text.replacing(folder.path, with: "PROJECT") }
    return ConfigureFastPathTests.Result(
      status: outcome.status, standardOutput: normalized(outcome.standardOutput),
      standardError: normalized(outcome.standardError), files: files)
  }
}
