import ActivationRules
import ArgumentParser
import IntuneConfigurator
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit lint FILE…`: problems in activation rules; `rulekit lint --project P`: in every extension's rule
/// and every target's Intune configuration of an Xcode project (``ProjectLinter``).
struct LintCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check rules for App Store rejections, rules that never or always activate, unknown types, "
      + "redundant clauses, dictionary key problems and missing Intune twins.",
    discussion: """
      Reads the FILEs, the rule --rule or --predicate gives, or (with none of them) standard input. Exit \
      status 1 when any error or warning is found. --format xcode suits a build phase: findings and errors \
      alike are file:line:column: severity: message lines. --quiet drops the 'no problems found' line.

      --project lints an Xcode project instead: for every application target (or each --target, an app \
      or an extension) and every app extension an app embeds, the activation rule of each Info.plist its \
      configurations build with (INFOPLIST_FILE, each file once), and the Intune configuration: what \
      'rulekit configure --project' would report (RK101, RK102) or change (RK100, a warning at the key). \
      Nothing is written.

      Examples:
        rulekit lint Examples/SampleApp/ShareExtension/Info.plist \\
          Examples/SampleApp/ActionExtension/Info.plist
        rulekit lint --format json Examples/rules/immich-share-extension.predicate
        # exit 1: a syntax error
        rulekit lint \\
          Examples/rules-with-errors/intune-guide-2018-open-in-rule.predicate
        # exit 1: the App Store rejects a rule that activates for everything
        rulekit lint --predicate TRUEPREDICATE
        # exit 1: the share extension is not configured for Intune yet
        rulekit lint --format xcode --target Limit \\
          --project Tests/Fixtures/xcode-projects/limit/Limit.xcodeproj
      """)

  @Argument(
    help: "Predicate files, rule plists or extension Info.plists ('-' reads standard input).",
    completion: .file())
  var files: [String] = []

  @OptionGroup var input: RuleInput

  @Option(
    help: ArgumentHelp(
      "Lint an Xcode project: every app and the extensions it embeds (no FILE, --rule or --predicate).",
      valueName: "path"),
    completion: .directory)
  var project: String?

  @Option(
    name: .customLong("target"),
    help: ArgumentHelp(
      "With --project, lint only this application (with its extensions) or extension; repeatable.",
      valueName: "name"))
  var targets: [String] = []

  @OptionGroup var outputOptions: OutputOptions<RulesOutputFormat>

  @Flag(
    help: ArgumentHelp(
      "Skip a FILE that holds no activation rule (an app's Info.plist) instead of failing: for hooks "
        + "that pass every Info.plist (.pre-commit-hooks.yaml)."))
  var skipFilesWithoutRule = false

  @Flag(
    help: ArgumentHelp(
      "Decide never/always-activates exactly however long the search takes (seconds to a minute for the "
        + "largest rules), where the default stops at about a second and says the check was bounded."))
  var exhaustive = false

  /// The rule linter the options ask for.
  var ruleLinter: RuleLinter { RuleLinter(effort: exhaustive ? .exhaustive : .standard) }

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

  /// The findings as `--format xcode` or text lines.
  private func printFindings(_ findings: [LintFinding]) {
    for finding in findings {
      if outputOptions.format == .xcode {
        // Xcode reads these lines itself: never coloured.
        Console.result(
          "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) "
            + "[\(finding.id)]")
      } else {
        var text =
          "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) "
          + "[\(finding.id) \(finding.check)]"
        if let fix = finding.fix { text += "\n  fix: \(fix)" }
        Console.diagnosticResult(text)
      }
    }
  }

  func validate() throws {
    if project != nil {
      if !files.isEmpty || input.rule != nil || input.predicate != nil {
        throw ValidationError(
          "--project lints the project's Info.plists: give no FILE, --rule or --predicate with it")
      }
    } else if !targets.isEmpty {
      throw ValidationError("--target names a target of --project; pass --project PATH too")
    }
  }

  func run() throws {
    if let project { return try lintProject(project) }
    let operands = skipFilesWithoutRule ? files.filter(Self.holdsRule) : files
    if operands.isEmpty && !files.isEmpty && input.rule == nil && input.predicate == nil {
      if outputOptions.format == .json { Console.json(["files": [String](), "findings": [Any]()]) }
      if outputOptions.format == .text && !outputOptions.quiet {
        Console.result("no activation rule in the files given")
      }
      return
    }
    let sources = try input.read(operands: operands, operandSyntax: "FILE…")
    let linter = ruleLinter
    let findings = sources.flatMap { linter.lint($0.file) }
    let files = sources.map(\.displayName)
    switch outputOptions.format {
    case .json:
      Console.json(["files": files, "findings": try Console.jsonObject(findings)])
    case .xcode, .text:
      printFindings(findings)
      if outputOptions.format == .text, findings.isEmpty, !outputOptions.quiet {
        Console.result("no problems found in \(files.count) file\(files.count == 1 ? "" : "s")")
      }
    }
    if findings.contains(where: { $0.severity >= .warning }) { throw RulesCLI.Exit.problemsFound }
  }
}

extension LintCommand {
  /// Whether `path` holds a rule; any other failure keeps the file, so reading it reports the failure.
  static func holdsRule(_ path: String) -> Bool {
    guard !InputFile.isStandardInput(path), let data = FileManager.default.contents(atPath: path) else {
      return true
    }
    do {
      _ = try RuleFile(path: path, data: data)
      return true
    } catch {
      return error.kind != .ruleNotFound
    }
  }

  /// `--project`: ``ProjectLinter`` does the work; this prints its report as `lint FILE…` prints findings.
  func lintProject(_ path: String) throws {
    let xcodeProject: XcodeProject
    do {
      xcodeProject = try XcodeProject(path: path)
    } catch {
      throw BuildSettingsCommand.fail(error)
    }
    let report: ProjectLintReport
    do {
      report = try ProjectLinter(ruleLinter: ruleLinter).lint(
        xcodeProject, targets: targets, displayPath: ConfigureRun.displayPath)
    } catch {
      throw ConfigureRun.fail(error)
    }
    let findings = report.findings.map(\.finding)
    switch outputOptions.format {
    case .json:
      var records: [[String: Any]] = []
      for item in report.findings {
        var record = try Console.jsonObject(item.finding) as? [String: Any] ?? [:]
        record["target"] = item.target
        records.append(record)
      }
      let targets: [[String: Any]] = report.targets.map { target in
        var record: [String: Any] = [
          "name": target.name, "kind": target.isExtension ? "extension" : "app",
          "configurations": target.configurations, "infoPlists": target.infoPlists,
        ]
        record["productType"] = target.productType
        if target.isExtension { record["embeddedIn"] = target.embeddedIn }
        return record
      }
      Console.json([
        "project": path, "targets": targets, "files": report.ruleFiles, "findings": records,
      ])
    case .xcode, .text:
      printFindings(findings)
      if findings.isEmpty, outputOptions.format == .text, !outputOptions.quiet {
        Console.result(
          "no problems found in \(report.targets.count) target\(report.targets.count == 1 ? "" : "s") of \(path)"
        )
      }
    }
    if report.hasProblems { throw RulesCLI.Exit.problemsFound }
  }
}
