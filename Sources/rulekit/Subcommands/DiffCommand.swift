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
    abstract: "Compare what two rules accept over every extension context.",
    discussion: """
      Rules of counts and type tests over extensionItems, attachments and registeredTypeIdentifiers are \
      compared exactly, over contexts of any size, and a disagreement is shown by the smallest contexts \
      (fewest items, then attachments, then types). A rule outside that fragment (MATCHES, arithmetic, \
      FUNCTION, other key paths), or --max-attachments or --max-items, compares by enumeration instead: \
      contexts of 1…--max-items items (2) and 0…--max-attachments attachments (3), each registering one \
      type from either rule's types, their Intune twins, public.data, public.url, public.plain-text, a \
      dyn. type and, as far as the enumeration limits allow, one declared direct subtype of each type a \
      rule tests (public.file-url for public.url: what tells a conformance test from an equality test); \
      the output then says "bounded" and why. So does a comparison whose exact search passes its bound \
      (about a second; no real rule but a few dictionaries' Intune forms does): --exhaustive searches on \
      however long it takes. Dictionary rules are compared through --style. \
      With --quiet nothing is printed when the rules agree.

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

  @Option(help: "Enumerate contexts of at most this many attachments instead of deciding exactly (3).")
  var maxAttachments: Int?
  @Option(help: "Enumerate contexts of at most this many extension items instead of deciding exactly (2).")
  var maxItems: Int?
  @Flag(
    help: ArgumentHelp(
      "Decide exactly however long the search takes (seconds to a minute for the largest rules), where the "
        + "default stops at about a second and falls back to enumeration, saying so."))
  var exhaustive = false
  @Option(help: "How many disagreeing contexts to print.") var show = 5
  @Option(help: "How dictionary rules are read: apple or intune.")
  var style: DictionaryConversionStyle = .apple

  @Option(help: "How Intune twins conform: literal (as iOS: a twin conforms only to itself) or mirrored.")
  var twinPolicy: UTITwinPolicyArgument = .literal

  @OptionGroup var outputOptions: OutputOptions<RulesOutputFormat>

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

  func validate() throws {
    if exhaustive, maxAttachments != nil || maxItems != nil {
      throw ValidationError(
        "--exhaustive decides exactly, --max-attachments and --max-items ask for enumeration: give one or the other"
      )
    }
  }

  func run() throws {
    let (fileA, a) = try load(first)
    let (fileB, b) = try load(second)
    // Both rules are evaluated with the types either Info.plist declares.
    let registry = fileB.registry(extending: fileA.registry(extending: .system)).withTwinPolicy(
      twinPolicy.policy)
    let decision: SemanticDiff.Decision
    let defaults = SemanticDiff.Bounds()
    let bounds =
      maxAttachments == nil && maxItems == nil
      ? nil
      : SemanticDiff.Bounds(
        maximumAttachments: maxAttachments ?? defaults.maximumAttachments,
        maximumItems: maxItems ?? defaults.maximumItems)
    do {
      decision = try SemanticDiff.decide(
        a.predicate(style: style), b.predicate(style: style), bounds: bounds, registry: registry, keep: show,
        effort: exhaustive ? .exhaustive : .standard)
    } catch {
      throw RulesCLI.fail(
        "\(error.description) (--max-attachments, --max-items)", code: RulesCLI.Exit.usage)
    }
    let report = decision.report
    var bound = ""
    if case .bounded(let reason) = decision.exactness, let bounds = decision.bounds {
      bound =
        "bounded: \(reason); checked contexts of up to \(bounds.maximumAttachments) attachments in up to "
        + "\(bounds.maximumItems) items"
        + (decision.searchLimitReached ? "; --exhaustive decides it, which can take a minute" : "")
    }
    switch outputOptions.format {
    case .json:
      var document: [String: Any] = [
        "first": first, "second": second, "rulesAgree": report.rulesAgree,
        "exact": decision.exactness.isExact,
        "contextsChecked": report.contextsChecked, "disagreements": report.disagreementCount,
        "smallest": report.smallestDisagreements.map {
          ["context": $0.context.summary, "first": $0.acceptedByFirst, "second": $0.acceptedBySecond]
            as [String: Any]
        },
      ]
      if case .bounded(let reason) = decision.exactness {
        document["reason"] = reason
        document["searchLimitReached"] = decision.searchLimitReached
      }
      Console.json(document)
    case .text, .xcode:
      if report.rulesAgree {
        // The agreement is the answer, but with --quiet the exit status (with --check) says it.
        if !outputOptions.quiet {
          Console.result(
            decision.exactness.isExact
              ? "the rules agree on every extension context (exact)"
              : "the rules agree on all \(report.contextsChecked) contexts checked (\(bound))")
        }
      } else {
        Console.result(
          decision.exactness.isExact
            ? "the rules disagree (exact); smallest:"
            : "the rules disagree on \(report.disagreementCount) of \(report.contextsChecked) contexts (\(bound)); "
              + "smallest:")
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
