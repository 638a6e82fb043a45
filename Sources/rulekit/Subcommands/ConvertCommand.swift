import ActivationRules
import ArgumentParser
import PredicateSyntax

/// `rulekit convert`: a dictionary rule as a predicate.
struct ConvertCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "convert",
    abstract: "Convert a dictionary rule (NSExtensionActivationSupports… keys) to a predicate.",
    discussion: """
      --style intune gives IntuneMAMConfigurator's shape with Intune twins; --style apple gives RuleKit's \
      model of Apple's strict/fuzzy matching, without twins. Where the intune style accepts other shares \
      than the dictionary (twins aside), standard error names the smallest each way. A dictionary that \
      accepts nothing (<dict/>) becomes FALSEPREDICATE, with a warning saying why. A predicate rule is \
      printed unchanged. --in-place says which file it wrote on standard error, unless --quiet.

      Examples:
        rulekit convert --rule Examples/SampleApp/ActionExtension/Info.plist \\
          --style apple
        rulekit convert --rule Examples/SampleApp/ActionExtension/Info.plist \\
          --single-line --format json
      """)

  @OptionGroup var source: RuleInput

  @Option(help: "intune or apple.")
  var style: DictionaryConversionStyle = .intune

  @Flag(help: "Print on one line instead of the Intune guide's layout.")
  var singleLine = false

  @Flag(help: "Replace the rule in the file (a dictionary becomes a string).")
  var inPlace = false

  @OptionGroup var outputOptions: OutputOptions<OutputFormat>

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

  func run() throws {
    let (file, rule) = try source.read().parsed()
    let text: String
    var isDictionary = false
    var meaningChange: DictionaryMeaningChange?
    switch rule {
    case .predicate(_, let original): text = original
    case .dictionary(let dictionary):
      RulesCLI.noteLeftOutKeys(of: dictionary)
      RulesCLI.warnIfAcceptsNothing(dictionary, in: file)
      isDictionary = true
      if style == .intune { meaningChange = RulesCLI.noteMeaningChange(of: dictionary) }
      let tree = DictionaryConverter.predicate(for: dictionary, style: style)
      text = singleLine ? PredicatePrinter.canonical(tree) : PredicatePrinter.pretty(tree)
    }
    var written: [String] = []
    if inPlace {
      guard let path = source.editablePath, let contents = file.contents(replacingRuleWith: text)
      else {
        throw RulesCLI.notEditableInPlace(source.editablePath)
      }
      try RulesCLI.write(contents, to: path)
      written.append(path)
      Console.info("wrote \(path)")
    }
    switch outputOptions.format {
    case .json:
      var document: [String: Any] = [
        "predicate": text, "converted": isDictionary, "style": style.rawValue, "written": written,
        "differsFromDictionary": JSONTree.null,
      ]
      if let meaningChange {
        var difference: [String: Any] = [
          "acceptedOnlyByPredicate": meaningChange.acceptedOnlyByIntuneForm?.summary ?? JSONTree.null,
          "acceptedOnlyByDictionary": meaningChange.acceptedOnlyByDictionary?.summary ?? JSONTree.null,
          "exact": meaningChange.exactness.isExact,
        ]
        if case .bounded(let reason) = meaningChange.exactness { difference["reason"] = reason }
        document["differsFromDictionary"] = difference
      }
      Console.json(document)
    case .text:
      if !inPlace { Console.result(text) }
    }
  }
}
