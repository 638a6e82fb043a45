import ActivationRules
import ArgumentParser
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit diff A B`: where two rules' outcomes differ.
struct DiffCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "diff",
    abstract: "Compare what two rules accept over every small extension context.",
    discussion: """
      Contexts hold 1…--max-items extension items and 0…--max-attachments attachments, each attachment \
      registering one type from either rule's types, their Intune twins, public.data, public.url, \
      public.plain-text and a dyn. type. Dictionary rules are compared through --style. With --quiet \
      nothing is printed when the rules agree.

      Examples:
        rulekit diff Examples/IntuneGuide/rule-B.predicate \\
          Examples/rules/intune-guide-share-rule.predicate
        # exit 1: they disagree
        rulekit diff --check Examples/IntuneGuide/rule-B.predicate \\
          Examples/IntuneGuide/rule-C.predicate
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

  @Option(help: "How Intune twins conform: literal (as iOS: a twin conforms only to itself) or mirrored.")
  var twinPolicy: UtiTwinPolicyArgument = .literal

  @OptionGroup var outputOptions: OutputOptions<RulesOutputFormat>

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

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
        "\(error.description) (--max-attachments, --max-items)", code: RulesCLI.Exit.usage)
    }
    switch outputOptions.format {
    case .json:
      Console.json([
        "first": first, "second": second, "rulesAgree": report.rulesAgree,
        "contextsChecked": report.contextsChecked, "disagreements": report.disagreementCount,
        "smallest": report.smallestDisagreements.map {
          ["context": $0.context.summary, "first": $0.acceptedByFirst, "second": $0.acceptedBySecond]
            as [String: Any]
        },
      ])
    case .text, .xcode:
      if report.rulesAgree {
        // The agreement is the answer, but with --quiet the exit status (with --check) says it.
        if !outputOptions.quiet {
          Console.result("the rules agree on all \(report.contextsChecked) contexts")
        }
      } else {
        Console.result(
          "the rules disagree on \(report.disagreementCount) of \(report.contextsChecked) contexts; smallest:"
        )
        for disagreement in report.smallestDisagreements {
          let verdict = { (accepted: Bool) in accepted ? "activates" : "does not" }
          Console.result(
            "  \(disagreement.context.summary): \(first) \(verdict(disagreement.acceptedByFirst)), "
              + "\(second) \(verdict(disagreement.acceptedBySecond))")
        }
      }
    }
    if check, !report.rulesAgree { throw RulesCLI.Exit.problemsFound }
  }

  private func load(_ path: String) throws -> (RuleFile, ActivationRule) {
    try RuleSource.read(path).parsed()
  }
}
