import ActivationRules
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit lint FILE…`: problems in activation rules.
struct LintCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check rules for App Store rejections, rules that never or always activate, unknown types, "
      + "redundant clauses, dictionary key problems and missing Intune twins.",
    discussion: """
      Reads the FILEs, the rule --rule or --predicate gives, or (with none of them) standard input. Exit \
      status 1 when any error or warning is found. --format xcode suits a build phase: findings and errors \
      alike are file:line:column: severity: message lines. --quiet drops the 'no problems found' line.

      Examples:
        rulekit lint Examples/SampleApp/ShareExtension/Info.plist \\
          Examples/SampleApp/ActionExtension/Info.plist
        rulekit lint --format json Examples/rules/immich-share-extension.predicate
        # exit 1: a syntax error
        rulekit lint \\
          Examples/rules-with-errors/intune-guide-2018-open-in-rule.predicate
        # exit 1: the App Store rejects a rule that activates for everything
        rulekit lint --predicate TRUEPREDICATE
      """)

  @Argument(
    help: "Predicate files, rule plists or extension Info.plists ('-' reads standard input).",
    completion: .file())
  var files: [String] = []

  @OptionGroup var input: RuleInput

  @Option(help: "text, json or xcode (file:line:column: severity: message, errors included, for Xcode).")
  var format: RulesOutputFormat = .text

  @OptionGroup var quietOption: QuietOption
  @OptionGroup var colorOption: ColorOption

  var consoleSettings: ConsoleSettings {
    ConsoleSettings(format: format, quiet: quietOption.quiet, color: colorOption.color)
  }

  func run() throws {
    let sources = try input.read(operands: files, operandSyntax: "FILE…")
    let findings = sources.flatMap { RuleLinter().lint($0.file) }
    let files = sources.map(\.displayName)
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
