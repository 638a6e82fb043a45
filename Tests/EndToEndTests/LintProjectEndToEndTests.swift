import CLITestSupport
import Foundation
import Testing

/// `rulekit lint --project`: real projects from Tests/Fixtures/xcode-projects, linted read-only.
@Suite("rulekit lint --project (end to end)")
struct LintProjectEndToEndTests {
  static let fixtures = "Tests/Fixtures/xcode-projects"
  static let limit = "\(fixtures)/limit/Limit.xcodeproj"
  static let duckDuckGo = "\(fixtures)/duckduckgo/DuckDuckGo-iOS.xcodeproj"
  static let golden = RuleKitBinary.testDirectory.appendingPathComponent("Golden/lint-project")

  /// Every file under `folder` (relative to the package root), by path, with its bytes.
  static func snapshot(_ folder: String) throws -> [String: Data] {
    let root = RuleKitBinary.packageRoot.appendingPathComponent(folder)
    var files: [String: Data] = [:]
    let enumerator = FileManager.default.enumerator(at: root, includingPropertiesForKeys: [.isRegularFileKey])
    while let url = enumerator?.nextObject() as? URL {
      guard try url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile == true else { continue }
      files[url.path] = try Data(contentsOf: url)
    }
    return files
  }

  /// Runs `lint` with `arguments` and checks that nothing in the project's folder changed.
  static func lint(_ arguments: [String], folder: String) throws -> RuleKitBinary.Outcome {
    let before = try snapshot(folder)
    #expect(!before.isEmpty)
    let result = try RuleKitBinary.run(["lint"] + arguments)
    #expect(try snapshot(folder) == before, "lint --project wrote a file")
    return result
  }

  static func json(_ text: String) throws -> [String: Any] {
    try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
  }

  @Test("--format xcode: the golden issue lines for Limit and its share extension, nothing written")
  func xcodeGolden() throws {
    let result = try Self.lint(
      ["--format", "xcode", "--target", "Limit", "--project", Self.limit], folder: "\(Self.fixtures)/limit")
    #expect(result.status == 1)
    #expect(result.standardError.isEmpty)
    let expected = try String(
      contentsOf: Self.golden.appendingPathComponent("limit-xcode.txt"), encoding: .utf8)
    #expect(result.standardOutput == expected)
    // Every line is an issue Xcode files: FILE:LINE:COLUMN: severity: message.
    let issue = /^[^:]+:\d+:\d+: (warning|error|note): .+$/
    for line in result.standardOutput.split(separator: "\n") {
      #expect(line.wholeMatch(of: issue) != nil, "\(line)")
    }
  }

  @Test("text: rule findings, Intune findings and changes, each at its file, line and column")
  func text() throws {
    let result = try Self.lint(
      ["--target", "DuckDuckGo", "--project", Self.duckDuckGo], folder: "\(Self.fixtures)/duckduckgo")
    #expect(result.status == 1)
    let output = result.standardOutput
    // The Safari action extension's dictionary rule, linted from the Info.plist INFOPLIST_FILE names.
    #expect(
      output.contains(
        "\(Self.fixtures)/duckduckgo/OpenAction/Info.plist:33:5: note: NSExtensionActivationSupportsWebPage"
          + "WithMaxCount is set but NSExtensionJavaScriptPreprocessingFile is not"))
    #expect(output.contains("[RK009 web-page-without-preprocessing]"))
    // A change configure would make, at the key it would change, with the command that makes it.
    #expect(
      output.contains(
        "\(Self.fixtures)/duckduckgo/ShareExtension/Info.plist:4:1: warning: not configured for Intune: set to "
      ))
    #expect(output.contains("[RK100 containing-app-bundle-id]"))
    #expect(
      output.contains(
        "  fix: rulekit configure --project \(Self.duckDuckGo) --target DuckDuckGo makes this change"))
    // The configurator's own finding: the Info.plist's repeated key.
    #expect(
      output.contains(
        "\(Self.fixtures)/duckduckgo/DuckDuckGo/Info.plist:90:4: warning: AppIcon-green appears twice"))
    #expect(output.contains("[RK101 duplicate-key]"))
    // Said once, although four configurations build with the same files.
    let lines = output.split(separator: "\n").filter { !$0.hasPrefix("  ") }
    #expect(Set(lines).count == lines.count)
  }

  @Test("json: the lint document with project, targets and each finding's target")
  func json() throws {
    let result = try Self.lint(
      ["--format", "json", "--project", Self.duckDuckGo], folder: "\(Self.fixtures)/duckduckgo")
    #expect(result.status == 1)
    #expect(result.standardError.isEmpty)
    let document = try Self.json(result.standardOutput)
    #expect(document["schemaVersion"] as? Int == 1)
    #expect(document["project"] as? String == Self.duckDuckGo)
    // Each distinct Info.plist with a rule once, though four configurations use each.
    #expect(
      document["files"] as? [String] == [
        "\(Self.fixtures)/duckduckgo/OpenAction/Info.plist",
        "\(Self.fixtures)/duckduckgo/ShareExtension/Info.plist",
      ])
    let targets = try #require(document["targets"] as? [[String: Any]])
    // The app and the extensions it embeds, then PacketTunnelProvider, which no app embeds in this project
    // (it is linted too, with a note that says so).
    #expect(
      targets.compactMap { $0["name"] as? String } == [
        "DuckDuckGo", "AutofillCredentialProvider", "OpenAction", "WidgetsExtension", "ShareExtension",
        "PacketTunnelProvider",
      ])
    #expect(targets.first?["kind"] as? String == "app")
    #expect(targets.last?["embeddedIn"] as? [String] == [])
    let share = try #require(targets.first { $0["name"] as? String == "ShareExtension" })
    #expect(share["kind"] as? String == "extension")
    #expect(share["embeddedIn"] as? [String] == ["DuckDuckGo"])
    #expect(share["infoPlists"] as? [String] == ["\(Self.fixtures)/duckduckgo/ShareExtension/Info.plist"])
    #expect(share["configurations"] as? [String] == ["Debug", "Alpha Debug", "Alpha", "Release"])
    let findings = try #require(document["findings"] as? [[String: Any]])
    let ids = Set(findings.compactMap { $0["id"] as? String })
    #expect(ids.isSuperset(of: ["RK009", "RK100", "RK101"]))
    for finding in findings {
      #expect(finding["file"] is String && finding["line"] is Int && finding["column"] is Int)
      #expect(["note", "warning", "error"].contains(finding["severity"] as? String))
    }
    let rule = try #require(findings.first { $0["id"] as? String == "RK009" })
    #expect(rule["target"] as? String == "OpenAction")
    #expect(rule["check"] as? String == "web-page-without-preprocessing")
  }

  /// PrivyGallery's app generates its Info.plist and names none: findings about the file configure would
  /// create were placed at that file's path, line 1 (Bitwarden's watch project likewise), which Xcode
  /// cannot open. They sit at the target in the project file, as the changes to it do.
  @Test("findings about an Info.plist the target does not have yet sit at the target")
  func findingsAboutANewInfoPlist() throws {
    let folder = "\(Self.fixtures)/privygallery"
    let result = try Self.lint(
      ["--project", "\(folder)/SecurityFolder.xcodeproj", "--format", "xcode"], folder: folder)
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    let newFile = lines.filter { $0.contains("[RK101]") && $0.contains("(in a new ") }
    #expect(newFile.count >= 2, "\(lines)")
    #expect(newFile.allSatisfy { $0.hasPrefix("\(folder)/SecurityFolder.xcodeproj/project.pbxproj:") })
    #expect(!lines.contains { $0.hasPrefix("\(folder)/SecurityFolder-Info.plist") })
  }

  @Test("--target: only the named extension, checked through the app that embeds it; repeatable")
  func targetFiltering() throws {
    let result = try Self.lint(
      ["--format", "json", "--target", "ShareExtension", "--project", Self.duckDuckGo],
      folder: "\(Self.fixtures)/duckduckgo")
    #expect(result.status == 1)
    let document = try Self.json(result.standardOutput)
    let targets = try #require(document["targets"] as? [[String: Any]])
    #expect(targets.compactMap { $0["name"] as? String } == ["ShareExtension"])
    #expect(document["files"] as? [String] == ["\(Self.fixtures)/duckduckgo/ShareExtension/Info.plist"])
    let findings = try #require(document["findings"] as? [[String: Any]])
    #expect(!findings.isEmpty)
    // Project-wide findings have no target; every other one is about the extension.
    #expect(findings.allSatisfy { $0["target"] == nil || $0["target"] as? String == "ShareExtension" })
    #expect(findings.contains { $0["check"] as? String == "containing-app-bundle-id" })

    let two = try Self.lint(
      [
        "--format", "json", "--target", "OpenAction", "--target", "ShareExtension", "--project",
        Self.duckDuckGo,
      ],
      folder: "\(Self.fixtures)/duckduckgo")
    let names = try #require(try Self.json(two.standardOutput)["targets"] as? [[String: Any]])
    #expect(names.compactMap { $0["name"] as? String } == ["OpenAction", "ShareExtension"])
  }

  @Test("a project that does not exist: exit 66, naming the file")
  func missingProject() throws {
    let result = try RuleKitBinary.run(["lint", "--project", "no-such/App.xcodeproj"])
    #expect(result.status == 66)
    #expect(result.standardOutput.isEmpty)
    #expect(
      result.standardError.hasPrefix(
        "rulekit: error: no-such/App.xcodeproj: no such file or folder"))
    let xcode = try RuleKitBinary.run(["lint", "--format", "xcode", "--project", "no-such/App.xcodeproj"])
    #expect(xcode.status == 66)
    #expect(
      xcode.standardError.hasPrefix("no-such/App.xcodeproj:1:1: error: no such file or folder"))
  }

  @Test("an unknown target, or one that is not an app or extension: exit 2, listing the targets")
  func unknownTarget() throws {
    let unknown = try RuleKitBinary.run(["lint", "--project", Self.limit, "--target", "Nope"])
    #expect(unknown.status == 2)
    #expect(
      unknown.standardError.hasPrefix(
        "rulekit: error: \(Self.limit)/project.pbxproj: the project has no target named \"Nope\"\n"
          + "hint: its applications and app extensions: Limit, ShareExtension"))
    let framework = try RuleKitBinary.run(["lint", "--project", Self.duckDuckGo, "--target", "Core"])
    #expect(framework.status == 2)
    #expect(
      framework.standardError.hasPrefix(
        "\(Self.duckDuckGo)/project.pbxproj:7649:3: error: target \"Core\" is neither an application nor an "
          + "app extension"))
  }

  @Test("a malformed project file: exit 65 at the file")
  func malformedProject() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-lint-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    let project = folder.appendingPathComponent("App.xcodeproj")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    try Data("// !$*UTF8*$!\n{ archiveVersion = 1; objects = {\n".utf8)
      .write(to: project.appendingPathComponent("project.pbxproj"))
    let result = try RuleKitBinary.run(["lint", "--project", "App.xcodeproj"], currentDirectory: folder)
    #expect(result.status == 65)
    #expect(result.standardOutput.isEmpty)
    #expect(result.standardError.hasPrefix("App.xcodeproj/project.pbxproj:"), "\(result.standardError)")
    #expect(result.standardError.contains(": error: "))
  }

  @Test(
    "an Info.plist INFOPLIST_FILE names that is missing: an error finding, the other targets still linted")
  func missingInfoPlist() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-lint-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(
      at: RuleKitBinary.packageRoot.appendingPathComponent("\(Self.fixtures)/limit"), to: folder)
    try FileManager.default.removeItem(at: folder.appendingPathComponent("ShareExtension/Info.plist"))
    let issue =
      "Limit.xcodeproj/project.pbxproj:339:5: error: INFOPLIST_FILE of ShareExtension (Debug, Release) "
      + "names ShareExtension/Info.plist, which does not exist (also set at line 367); its Info.plist is not "
      + "checked [RK102]"
    let result = try RuleKitBinary.run(
      ["lint", "--format", "xcode", "--project", "Limit.xcodeproj"], currentDirectory: folder)
    #expect(result.status == 1)
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    let lines = result.standardOutput.split(separator: "\n").map(String.init)
    #expect(lines.filter { $0.contains("does not exist") } == [issue])
    // The app's own Intune settings are still checked.
    #expect(lines.contains { $0.hasPrefix("Limit/Info.plist:") && $0.contains("[RK100]") }, "\(lines)")
    // --target naming the broken target reports the same, and a missing entitlements file beside it, as
    // configure does: every missing file, exit 1, each path as the rest of the output writes paths.
    try FileManager.default.removeItem(
      at: folder.appendingPathComponent("ShareExtension/ShareExtensionDebug.entitlements"))
    let entitlementsIssue =
      "Limit.xcodeproj/project.pbxproj:333:5: error: CODE_SIGN_ENTITLEMENTS of ShareExtension names "
      + "ShareExtension/ShareExtensionDebug.entitlements, which does not exist [RK102]"
    for arguments in [["--target", "ShareExtension"], []] {
      let named = try RuleKitBinary.run(
        ["lint", "--format", "xcode"] + arguments + ["--project", "Limit.xcodeproj"], currentDirectory: folder
      )
      #expect(named.status == 1)
      let missing = named.standardOutput.split(separator: "\n").map(String.init).filter {
        $0.contains("does not exist")
      }
      #expect(missing == [issue, entitlementsIssue], "\(arguments)")
    }
    let configure = try RuleKitBinary.run(
      ["configure", "--project", "Limit.xcodeproj", "--dry-run"], currentDirectory: folder)
    #expect(configure.status == 1)
    #expect(
      configure.standardError.contains(
        "CODE_SIGN_ENTITLEMENTS of ShareExtension names ShareExtension/ShareExtensionDebug.entitlements, "
          + "which does not exist"))
  }

  @Test("a corpus project whose watch app was not vendored: the watch app is one finding, the rest is linted")
  func corpusWatchAppMissing() throws {
    let project = "\(Self.fixtures)/pocket-casts/podcasts.xcodeproj"
    let result = try Self.lint(
      ["--format", "json", "--project", project], folder: "\(Self.fixtures)/pocket-casts")
    #expect(result.status == 1)
    #expect(result.standardError.isEmpty, "\(result.standardError)")
    let document = try Self.json(result.standardOutput)
    let findings = try #require(document["findings"] as? [[String: Any]])
    let missing = findings.filter { ($0["check"] as? String) == "file-not-found" }
    #expect(missing.count == 1)
    #expect(missing.first?["severity"] as? String == "error")
    #expect(missing.first?["line"] as? Int == 12231)
    #expect(
      (missing.first?["message"] as? String)?.hasPrefix("INFOPLIST_FILE of Pocket Casts Watch App") == true)
    // The share extension's rule and the app's Intune settings were still checked.
    #expect(findings.contains { ($0["id"] as? String) == "RK100" })
    let targets = try #require(document["targets"] as? [[String: Any]])
    #expect(targets.contains { ($0["name"] as? String) == "Share Extension" })
  }

  @Test(
    "--project with FILE, --rule or --predicate, and --target without --project, are usage errors",
    arguments: [
      ["--project", limit, "Examples/SampleApp/ShareExtension/Info.plist"],
      ["--project", limit, "--rule", "Examples/SampleApp/ShareExtension/Info.plist"],
      ["--project", limit, "--predicate", "TRUEPREDICATE"],
      ["--target", "Limit", "Examples/SampleApp/ShareExtension/Info.plist"],
    ])
  func usageErrors(_ arguments: [String]) throws {
    let result = try RuleKitBinary.run(["lint"] + arguments)
    #expect(result.status == 2)
    #expect(result.standardOutput.isEmpty)
    #expect(
      result.standardError.hasPrefix(
        arguments.first == "--target"
          ? "Error: --target names a target of --project; pass --project PATH too"
          : "Error: --project lints the project's Info.plists: give no FILE, --rule or --predicate with it"))
  }
}

/// `rulekit lint FILE` on an Info.plist Xcode preprocesses: read with the macros of the project beside it.
@Suite("rulekit lint FILE of an INFOPLIST_PREPROCESS Info.plist (end to end)")
struct LintPreprocessedFileEndToEndTests {
  @Test(
    "read with its target's macros, found through the project beside it; alone, an error naming --project")
  func lintsThroughTheProjectBesideIt() throws {
    // cow-dance sets INFOPLIST_PREPROCESS = YES; directive lines are added above its share extension's rule.
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rk-preprocess-\(UUID())")
    defer { try? FileManager.default.removeItem(at: scratch) }
    let folder = scratch.appendingPathComponent("cow-dance")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    try FileManager.default.copyItem(
      at: RuleKitBinary.packageRoot.appendingPathComponent("\(LintProjectEndToEndTests.fixtures)/cow-dance"),
      to: folder)
    let info = folder.appendingPathComponent("ShareExtension/Info.plist")
    let text = try String(contentsOf: info, encoding: .utf8).replacing(
      "<dict>\n",
      with: "<dict>\n#include \"Shared.h\"\n#ifdef DEBUG\n\t<key>DebugOnly</key>\n\t<true/>\n#endif\n",
      maxReplacements: 1)
    try text.write(to: info, atomically: true, encoding: .utf8)

    let result = try RuleKitBinary.run(["lint", "ShareExtension/Info.plist"], currentDirectory: folder)
    // Its rule is TRUEPREDICATE: a finding (exit 1), not a parse error (65).
    #expect(result.status == 1, "\(result.standardError)")
    #expect(result.standardOutput.contains("[RK001 true-predicate]"), "\(result.standardOutput)")

    // The same file with no project beside it: the directive is an error that says what to do.
    let alone = scratch.appendingPathComponent("Info.plist")
    try FileManager.default.copyItem(at: info, to: alone)
    let refused = try RuleKitBinary.run(["lint", "Info.plist"], currentDirectory: scratch)
    #expect(refused.status == 65)
    #expect(refused.standardError.contains("preprocessor directive #include"), "\(refused.standardError)")
    #expect(refused.standardError.contains("--project"), "\(refused.standardError)")
  }
}
