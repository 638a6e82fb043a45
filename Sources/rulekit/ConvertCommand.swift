import ActivationRules
import ArgumentParser
import PredicateSyntax

/// `rulekit convert`: a dictionary rule as a predicate.
struct ConvertCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Convert a dictionary rule (NSExtensionActivationSupports… keys) to a predicate.",
    discussion: """
      --style intune gives IntuneMAMConfigurator's shape with Intune twins; --style apple gives RuleKit's \
      model of Apple's strict/fuzzy matching, without twins. A predicate rule is printed unchanged.
      """)

  @OptionGroup var source: RuleInputOptions

  @Option(help: "intune or apple.")
  var style: DictionaryConversionStyle = .intune

  @Flag(help: "Print on one line instead of the Intune guide's layout.")
  var singleLine = false

  @Flag(help: "Replace the rule in the file (a dictionary becomes a string).")
  var inPlace = false

  func run() throws {
    let (file, rule) = try source.load()
    let text: String
    switch rule {
    case .predicate(_, let original): text = original
    case .dictionary(let dictionary):
      let tree = DictionaryConverter.predicate(for: dictionary, style: style)
      text = singleLine ? PredicatePrinter.canonical(tree) : PredicatePrinter.pretty(tree)
    }
    guard inPlace else {
      print(text)
      return
    }
    guard let path = source.rule, let contents = file.contents(replacingRuleWith: text) else {
      throw RulesCLI.fail(
        "--in-place needs --rule with an XML plist or predicate file", code: RulesCLI.Exit.usage)
    }
    try RulesCLI.write(contents, to: path)
  }
}
