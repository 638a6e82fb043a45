import CLITestSupport
import Foundation
import Testing

/// `rulekit lint` reads the command lines of build phases and hooks without swift-argument-parser
/// (`LintCommand.direct`); every line here must behave exactly as with the full parser
/// (`RULEKIT_FULL_PARSER=1`): same exit status and output. The lines the direct reader passes on are here
/// too, so a change that starts taking one of them is held to the same answer.
@Suite("lint's direct argument reading behaves like swift-argument-parser")
struct LintFastPathTests {
  static let share = "Examples/SampleApp/ShareExtension/Info.plist"
  static let action = "Examples/SampleApp/ActionExtension/Info.plist"
  static let app = "Examples/SampleApp/App/Info.plist"

  static let lines: [[String]] = [
    [share],
    [share, action],
    ["--skip-files-without-rule", "--format", "xcode", share, app],
    [app, "--skip-files-without-rule", "--format=xcode"],
    ["--format", "json", share, action],
    ["--format=text", "-q", share],
    ["--quiet", "--color", "never", share],
    ["--color=always", share],
    ["--skip-files-without-rule", app],
    ["--skip-files-without-rule", "--format", "json", app],
    ["Examples/rules-with-errors/intune-guide-2018-open-in-rule.predicate", "--format", "xcode"],
    ["Missing.plist"],
    ["-"],
    // Passed on to the full parser: errors, repeats, other options.
    [],
    [app],
    ["--format", "yaml", share],
    ["--format"],
    ["--format", "--quiet", share],
    ["--color", "sometimes", share],
    ["-q", "-q", share],
    ["--format", "json", "--format", "text", share],
    ["--quiet=yes", share],
    ["--unknown", share],
    ["--", share],
    ["--predicate", "TRUEPREDICATE"],
    ["--rule", share, "--format", "xcode"],
    ["--project", "Tests/Fixtures/xcode-projects/limit/Limit.xcodeproj", "--format", "xcode"],
    ["--help"],
  ]

  @Test(arguments: lines)
  func sameOutcome(_ line: [String]) throws {
    let standardInput = "SUBQUERY(extensionItems, $e, $e.attachments.@count > 0).@count > 0"
    let direct = try RuleKitBinary.run(["lint"] + line, standardInput: standardInput)
    let full = try RuleKitBinary.run(
      ["lint"] + line, standardInput: standardInput, environment: ["RULEKIT_FULL_PARSER": "1"])
    #expect(direct.status == full.status)
    #expect(direct.standardOutput == full.standardOutput)
    #expect(direct.standardError == full.standardError)
  }

  /// An extension whose rule is one level off is broken, not rule-less: hooks must not pass over it.
  @Test("--skip-files-without-rule reports a misplaced rule, exit 65")
  func misplacedRuleIsNotSkipped() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rk-misplaced-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let file = folder.appendingPathComponent("Info.plist")
    try Data(
      ("<plist version=\"1.0\">\n<dict><key>NSExtension</key><dict><key>NSExtensionActivationRule</key>"
        + "<string>TRUEPREDICATE</string></dict></dict>\n</plist>\n").utf8
    ).write(to: file)
    let result = try RuleKitBinary.run(["lint", "--skip-files-without-rule", file.path])
    #expect(result.status == 65)
    #expect(result.standardError.contains("NSExtensionActivationRule is directly in NSExtension"))
  }
}
