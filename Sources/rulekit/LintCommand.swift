import ActivationRules
import ArgumentParser
import Foundation

/// `rulekit lint FILE…`: problems in activation rules.
struct LintCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "lint",
    abstract: "Check rules for App Store rejections, rules that never or always activate, unknown types, "
      + "redundant clauses, dictionary key problems and missing Intune twins.",
    discussion: "Exit status 1 when any error or warning is found. --format xcode suits a build phase.")

  @Argument(help: "Predicate files, rule plists or extension Info.plists.")
  var files: [String]

  @Option(help: "text, json or xcode.") var format: RulesOutputFormat = .text

  func run() throws {
    guard !files.isEmpty else { throw RulesCLI.fail("give at least one file", code: RulesCLI.Exit.usage) }
    var findings: [LintFinding] = []
    for path in files {
      let file = try RulesCLI.readRuleFile(path)
      findings += RuleLinter().lint(file)
    }
    switch format {
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      print(String(decoding: try encoder.encode(findings), as: UTF8.self))
    case .xcode:
      for finding in findings {
        let severity = finding.severity == .note ? "note" : finding.severity.rawValue
        print(
          "\(finding.file):\(finding.line):\(finding.column): \(severity): \(finding.message) [\(finding.id)]"
        )
      }
    case .text:
      for finding in findings {
        print(
          "\(finding.file):\(finding.line):\(finding.column): \(finding.severity.rawValue): \(finding.message) "
            + "[\(finding.id) \(finding.check)]")
        if let fix = finding.fix { print("  fix: \(fix)") }
      }
      if findings.isEmpty { print("no problems found in \(files.count) file\(files.count == 1 ? "" : "s")") }
    }
    if findings.contains(where: { $0.severity >= .warning }) { throw RulesCLI.Exit.problemsFound }
  }
}
