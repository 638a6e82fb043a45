import ActivationRules
import ArgumentParser
import Foundation
import UniformTypes

/// `rulekit diff A B`: where two rules' outcomes differ.
struct DiffCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare what two rules accept over every small extension context.",
    discussion: """
      Contexts hold 1…--max-items extension items and 0…--max-attachments attachments, each attachment \
      registering one type from either rule's types, their Intune twins, public.data, public.url, \
      public.plain-text and a dyn. type. Dictionary rules are compared through --style.
      """)

  @Argument(help: "The first rule file.") var first: String
  @Argument(help: "The second rule file.") var second: String

  @Flag(help: "Exit 1 when the rules disagree.")
  var check = false

  @Option(help: "Most attachments per context.") var maxAttachments = 3
  @Option(help: "Most extension items per context.") var maxItems = 2
  @Option(help: "How many disagreeing contexts to print.") var show = 5
  @Option(help: "How dictionary rules are read: apple or intune.")
  var style: DictionaryConversionStyle = .apple
  @Option(help: "text or json.") var format: RulesOutputFormat = .text

  @Option(help: "How Intune twins conform: literal (as iOS: a twin conforms only to itself) or mirrored.")
  var twinPolicy: UtiTwinPolicyArgument = .literal

  func run() throws {
    let (fileA, a) = try load(first)
    let (fileB, b) = try load(second)
    // Both rules are evaluated with the types either Info.plist declares.
    let registry = fileB.registry(extending: fileA.registry(extending: .system)).withTwinPolicy(
      twinPolicy.policy)
    let report: SemanticDiff.Report
    do {
      report = try SemanticDiff.compare(
        a.predicate(style: style), b.predicate(style: style),
        bounds: .init(maximumAttachments: maxAttachments, maximumItems: maxItems), registry: registry,
        keep: show)
    } catch {
      throw RulesCLI.fail(
        "error: \(error.description) (--max-attachments, --max-items)", code: RulesCLI.Exit.usage)
    }
    switch format {
    case .json:
      let payload: [String: Any] = [
        "contextsChecked": report.contextsChecked, "disagreements": report.disagreementCount,
        "smallest": report.smallestDisagreements.map {
          ["context": $0.context.summary, "first": $0.acceptedByFirst, "second": $0.acceptedBySecond]
            as [String: Any]
        },
      ]
      let data = try JSONSerialization.data(withJSONObject: payload, options: [.prettyPrinted, .sortedKeys])
      print(String(decoding: data, as: UTF8.self))
    case .text, .xcode:
      if report.rulesAgree {
        print("the rules agree on all \(report.contextsChecked) contexts")
      } else {
        print(
          "the rules disagree on \(report.disagreementCount) of \(report.contextsChecked) contexts; smallest:"
        )
        for disagreement in report.smallestDisagreements {
          let verdict = { (accepted: Bool) in accepted ? "activates" : "does not" }
          print(
            "  \(disagreement.context.summary): \(first) \(verdict(disagreement.acceptedByFirst)), "
              + "\(second) \(verdict(disagreement.acceptedBySecond))")
        }
      }
    }
    if check, !report.rulesAgree { throw RulesCLI.Exit.problemsFound }
  }

  private func load(_ path: String) throws -> (RuleFile, ActivationRule) {
    let file = try RulesCLI.readRuleFile(path)
    do {
      return (file, try ActivationRule(file: file))
    } catch {
      throw RulesCLI.report(error, file: file)
    }
  }
}
