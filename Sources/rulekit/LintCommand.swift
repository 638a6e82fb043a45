import ActivationRules
import ArgumentParser
import Foundation

/// `rulekit lint FILE…`: problems in activation rules.
struct LintCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check rules for App Store rejections, rules that never or always activate, unknown types, "
      + "redundant clauses, dictionary key problems and missing Intune twins.",
    discussion: """
      Exit status 1 when any error or warning is found. --format xcode suits a build phase; --quiet drops the \
      'no problems found' line.

      Examples:
        rulekit lint Examples/SampleApp/ShareExtension/Info.plist \\
          Examples/SampleApp/ActionExtension/Info.plist
        rulekit lint --format json Examples/rules/immich-share-extension.predicate
        # exit 1: a syntax error
        rulekit lint \\
          Examples/rules-with-errors/intune-guide-2018-open-in-rule.predicate
      """)

  @Argument(help: "Predicate files, rule plists or extension Info.plists.")
  var files: [String]

  @Option(help: "text, json or xcode.") var format: RulesOutputFormat = .text

  @OptionGroup var quietOption: QuietOption
  @OptionGroup var colorOption: ColorOption

  var consoleSettings: ConsoleSettings {
    ConsoleSettings(json: format == .json, quiet: quietOption.quiet, color: colorOption.color)
  }

  func run() throws {
    guard !files.isEmpty else { throw RulesCLI.fail("give at least one file", code: RulesCLI.Exit.usage) }
    var findings: [LintFinding] = []
    for path in files {
      let file = try RulesCLI.readRuleFile(path)
      findings += RuleLinter().lint(file)
    }
    switch format {
    case .json:
      Console.json(["files": files, "findings": try Console.jsonObject(findings)])
    case .xcode:
      // Xcode reads these lines itself: never coloured.
      for finding in findings {
        let severity = finding.severity == .note ? "note" : finding.severity.rawValue
        Console.result(
          "\(finding.file):\(finding.line):\(finding.column): \(severity): \(finding.message) [\(finding.id)]"
        )
      }
    case .text:
      for finding in findings {
        var text =
          "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) "
          + "[\(finding.id) \(finding.check)]"
        if let fix = finding.fix { text += "\n  fix: \(fix)" }
        Console.diagnosticResult(text)
      }
      if findings.isEmpty, !quietOption.quiet {
        Console.result("no problems found in \(files.count) file\(files.count == 1 ? "" : "s")")
      }
    }
    if findings.contains(where: { $0.severity >= .warning }) { throw RulesCLI.Exit.problemsFound }
  }
}
