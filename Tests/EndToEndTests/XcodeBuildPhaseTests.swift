import CLITestSupport
import Foundation
import Testing

/// Runs Examples/Xcode/rulekit-build-phase.sh with the environment an Xcode Run Script phase gets, on a
/// scratch copy of Examples/SampleApp, using the `rulekit` built with the tests (``RuleKitBinary``).
@Suite("Xcode build phase script")
struct XcodeBuildPhaseTests {
  static let packageRoot = RuleKitBinary.packageRoot

  struct Run {
    let status: Int32
    let output: String
  }

  /// A scratch project: the sample app's targets and a resolved lint file list naming the extensions.
  struct Project {
    let root: URL

    /// `extraRule` is written to `broken.predicate` and listed; `listed` (paths relative to the project) are
    /// listed as they are, whether they exist or not.
    init(extraRule: String? = nil, listed: [String] = []) throws {
      root = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-xcode-\(UUID())")
      try FileManager.default.copyItem(
        at: XcodeBuildPhaseTests.packageRoot.appendingPathComponent("Examples/SampleApp"), to: root)
      var plists = ["ShareExtension", "ActionExtension", "OpenInExtension"].map {
        root.appendingPathComponent("\($0)/Info.plist").path
      }
      if let extraRule {
        let path = root.appendingPathComponent("broken.predicate")
        try Data(extraRule.utf8).write(to: path)
        plists.append(path.path)
      }
      plists += listed.map { root.appendingPathComponent($0).path }
      // Xcode hands the script the list with build settings already expanded.
      try Data(("# resolved\n" + plists.joined(separator: "\n") + "\n").utf8)
        .write(to: root.appendingPathComponent("lint-resolved.xcfilelist"))
    }

    var stamp: URL { root.appendingPathComponent("DerivedSources/rulekit-build-phase.stamp") }
    var appInfo: URL { root.appendingPathComponent("App/Info.plist") }

    func run(_ extra: [String: String] = [:], rulekit: String? = nil) throws -> Run {
      let process = Process()
      process.executableURL = URL(fileURLWithPath: "/bin/sh")
      process.arguments = [
        XcodeBuildPhaseTests.packageRoot.appendingPathComponent("Examples/Xcode/rulekit-build-phase.sh").path
      ]
      process.environment =
        [
          "PATH": "/usr/bin:/bin", "SRCROOT": root.path, "INFOPLIST_FILE": "App/Info.plist",
          "CODE_SIGN_ENTITLEMENTS": "App/App.entitlements",
          "SCRIPT_INPUT_FILE_LIST_0": root.appendingPathComponent("lint-resolved.xcfilelist").path,
          "SCRIPT_OUTPUT_FILE_0": stamp.path, "RULEKIT": try rulekit ?? RuleKitBinary.locate().path,
        ].merging(extra) { $1 }
      let pipe = Pipe()
      process.standardOutput = pipe
      process.standardError = pipe
      try process.run()
      let output = pipe.fileHandleForReading.readDataToEndOfFile()
      process.waitUntilExit()
      return Run(status: process.terminationStatus, output: String(decoding: output, as: UTF8.self))
    }

    func remove() { try? FileManager.default.removeItem(at: root) }
  }

  @Test("clean rules pass, the app is configured once, and the stamp is written")
  func configuresOnce() throws {
    let project = try Project()
    defer { project.remove() }
    let before = try Data(contentsOf: project.appInfo)
    let first = try project.run()
    #expect(first.status == 0, "\(first.output)")
    #expect(!first.output.contains("error:"))
    let configured = try Data(contentsOf: project.appInfo)
    #expect(configured != before)
    #expect(FileManager.default.fileExists(atPath: project.stamp.path))
    let second = try project.run()
    #expect(second.status == 0)
    #expect(try Data(contentsOf: project.appInfo) == configured)
    #expect(second.output.contains("already configured for Intune; nothing to change"))
  }

  @Test("check mode reports an unconfigured Info.plist as a warning and writes nothing")
  func checkMode() throws {
    let project = try Project()
    defer { project.remove() }
    let before = try Data(contentsOf: project.appInfo)
    let run = try project.run(["RULEKIT_CONFIGURE": "check"])
    #expect(run.status == 0)
    #expect(
      run.output.contains(
        "\(project.appInfo.path):1:1: warning: not configured for Intune; run: rulekit configure"))
    #expect(try Data(contentsOf: project.appInfo) == before)
  }

  @Test(
    "a lint error shows in Xcode's format and fails the phase without a stamp; RULEKIT_LINT=skip skips it")
  func lintError() throws {
    let project = try Project(extraRule: "TRUEPREDICATE")
    defer { project.remove() }
    let run = try project.run(["RULEKIT_CONFIGURE": "skip"])
    #expect(run.status == 1)
    #expect(run.output.contains("broken.predicate:1:1: error: TRUEPREDICATE activates for everything"))
    #expect(!FileManager.default.fileExists(atPath: project.stamp.path))
    let skipped = try project.run(["RULEKIT_CONFIGURE": "skip", "RULEKIT_LINT": "skip"])
    #expect(skipped.status == 0)
    #expect(!skipped.output.contains("error:"))
    #expect(FileManager.default.fileExists(atPath: project.stamp.path))
  }

  @Test(
    "a rule file lint cannot read fails the phase with rulekit's own message, in Xcode's form",
    arguments: [
      ("App/Info.plist", "App/Info.plist:4:1: error: no NSExtension › NSExtensionAttributes"),
      ("Missing/Info.plist", "Missing/Info.plist:1:1: error: no such file; check the path"),
    ])
  func unreadableRule(_ listed: String, _ message: String) throws {
    let project = try Project(listed: [listed])
    defer { project.remove() }
    let run = try project.run(["RULEKIT_CONFIGURE": "skip"])
    #expect(run.status == 1)
    let lines = run.output.split(separator: "\n").map(String.init)
    #expect(lines.contains { $0.hasPrefix(project.root.path + "/" + message) }, "\(run.output)")
    // Nothing generic papers over it.
    #expect(lines.filter { $0.contains("error: ") }.count == 1, "\(run.output)")
    #expect(!FileManager.default.fileExists(atPath: project.stamp.path))
  }

  @Test("check mode shows why configure cannot plan, and fails the phase")
  func checkModeFailure() throws {
    let project = try Project()
    defer { project.remove() }
    let run = try project.run([
      "RULEKIT_CONFIGURE": "check", "RULEKIT_LINT": "skip",
      "CODE_SIGN_ENTITLEMENTS": "App/Missing.entitlements",
    ])
    #expect(run.status == 1)
    // configure's own message is an Xcode issue (`rulekit: error: …`), so the phase adds no second one; its
    // fallback line is for a configure that fails without saying `error:`.
    #expect(run.output.hasPrefix("rulekit: error: "), "\(run.output)")
    #expect(run.output.contains("App/Missing.entitlements: no such file (the entitlements file)"))
    #expect(!run.output.contains("rulekit configure cannot plan the changes"))
  }

  @Test("without rulekit the phase warns and lets the build go on")
  func missingBinary() throws {
    let project = try Project()
    defer { project.remove() }
    let run = try project.run(rulekit: "/nonexistent/rulekit")
    #expect(run.status == 0)
    #expect(run.output.hasPrefix("warning: rulekit not found (looked for /nonexistent/rulekit)"))
  }
}
