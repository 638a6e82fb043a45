import ActivationRules
import ArgumentParser
import PredicateSyntax
import UniformTypes

/// `rulekit explain`: why a rule does or does not activate for a context.
struct ExplainCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "explain",
    abstract: "Show, clause by clause and attachment by attachment, why a rule activates or not.")

  @OptionGroup var source: RuleInputOptions
  @OptionGroup var context: ContextInputOptions

  @Option(help: "How a dictionary rule is read: apple or intune.")
  var style: DictionaryConversionStyle = .apple
  @Option(help: "text or json.") var format: RulesOutputFormat = .text

  @Option(help: "How Intune twins conform: literal (as iOS: a twin conforms only to itself) or mirrored.")
  var twinPolicy: UtiTwinPolicyArgument = .literal

  func run() throws {
    let (file, rule) = try source.load()
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
      throw RulesCLI.fail("evaluation failed: \(error)", code: RulesCLI.Exit.invalidInput)
    }
    switch format {
    case .json: print(String(decoding: explanation.jsonData(), as: UTF8.self))
    case .text, .xcode: print(explanation.text)
    }
  }
}
