import ActivationRules
import ArgumentParser
import PredicateSyntax
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit explain`: why a rule does or does not activate for a context.
struct ExplainCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "explain",
    abstract: "Show, clause by clause and attachment by attachment, why a rule activates or not.",
    discussion: """
      The context comes from --preset (see 'rulekit presets'), --attachment or --input.

      Examples:
        rulekit explain --rule Examples/SampleApp/ShareExtension/Info.plist \\
          --preset firefox-url-text
        rulekit explain --rule Examples/SampleApp/ShareExtension/Info.plist \\
          --input Examples/SampleApp/attachments/url-and-pdf.json --format json
      """)

  @OptionGroup var source: RuleInput
  @OptionGroup var context: ContextInputOptions

  @Option(help: "How a dictionary rule is read: apple or intune.")
  var style: DictionaryConversionStyle = .apple
  @Option(help: "How Intune twins conform: literal (as iOS: a twin conforms only to itself) or mirrored.")
  var twinPolicy: UTITwinPolicyArgument = .literal

  @OptionGroup var outputOptions: ResultOutputOptions<RulesOutputFormat>

  var format: RulesOutputFormat { outputOptions.format }
  var consoleSettings: ConsoleSettings { outputOptions.consoleSettings }

  func run() throws {
    if let input = context.input, InputFile.isStandardInput(input), source.readsStandardInput {
      throw RulesCLI.fail(
        "--input \(input) reads standard input, so give the rule with --rule or --predicate",
        code: RulesCLI.Exit.usage)
    }
    let ruleSource = try source.read()
    let (file, rule) = try ruleSource.parsed()
    let sharedContext = try context.load()
    let tree: PredicateNode
    let text: String
    var positions: RuleFile? = file
    switch rule {
    case .predicate(let node, let original): (tree, text) = (node, original)
    case .dictionary(let dictionary):
      // Explain the printed conversion so every clause has text to show.
      text = PredicatePrinter.pretty(DictionaryConverter.predicate(for: dictionary, style: style))
      tree = try ActivationRule.parsePredicate(text)
      positions = nil
    }
    let explanation: RuleExplanation
    do {
      explanation = try RuleExplanation(
        tree: tree, text: text, file: positions, context: sharedContext,
        registry: file.registry(extending: TypeRegistry.system.withTwinPolicy(twinPolicy.policy)))
    } catch {
      // As `eval` reports it: positioned in the file, with the source line and a caret.
      throw ruleSource.report(error)
    }
    switch format {
    case .json:
      // The explanation's own keys stay at the top level, beside schemaVersion.
      let fields = try JSONTree(json: explanation.jsonData()).anyValue as? [String: Any]
      Console.json(fields ?? [:])
    case .text, .xcode: Console.markedResult(explanation.text)
    }
  }
}
