import ActivationRules
import ArgumentParser
import PredicateSyntax

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit format`: prints a rule in the canonical one-line form or the Intune guide's layout.
struct FormatCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "format",
    abstract: "Print a predicate rule in canonical form, or with --pretty in the Intune guide's layout.",
    discussion: """
      --in-place says which file it wrote on standard error, unless --quiet. With --format json the result \
      and the diagnostics are JSON documents (docs/json-output.md).

      Examples:
        rulekit format --pretty --rule \\
          Examples/rules/immich-share-extension.predicate
        rulekit format --words --predicate 'a = 1 and not b <> 2'
        rulekit format --format json --rule Examples/IntuneGuide/rule-C.predicate
      """)

  @OptionGroup var input: RuleInput
  @OptionGroup var parsing: ParsingOptions

  @Flag(help: "Use the multi-line layout of the Intune App SDK guide.")
  var pretty = false

  @Flag(help: "Spell logical operators AND / OR instead of && / ||.")
  var words = false

  @Flag(help: "Rewrite the --rule file instead of printing.")
  var inPlace = false

  @OptionGroup var outputOptions: OutputOptions<DiagnosticFormat>

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

  func validate() throws {
    if inPlace && input.editablePath == nil {
      throw ValidationError("--in-place needs --rule FILE.")
    }
  }

  func run() throws {
    let source = try input.read()
    let tree = try parsing.parse(source)
    let printer = PredicatePrinter(
      layout: pretty ? .pretty : .singleLine, logicalOperators: words ? .words : .symbols)
    let formatted = printer.string(for: tree)
    var written: [String] = []
    if inPlace, let url = source.fileURL {
      try writeInPlace(formatted, source: source, to: url)
      written.append(source.displayName)
      Console.info("wrote \(source.displayName)")
    }
    switch outputOptions.format {
    case .json: Console.json(["predicate": formatted, "written": written])
    case .text: if !inPlace { Console.result(formatted) }
    }
  }

  /// Rewrites a predicate file, or only the rule's string in a plist.
  private func writeInPlace(_ formatted: String, source: RuleSource, to url: URL) throws {
    guard let ruleFile = source.ruleFile else {
      try RulesCLI.write(formatted + "\n", to: url.path)
      return
    }
    // In a plist only the rule's string changes; a dictionary rule is not a predicate to format.
    guard case .predicate = ruleFile.value else {
      throw RulesCLI.fail(
        "\(source.displayName): the rule is a dictionary; 'rulekit convert --in-place' turns it into a predicate",
        code: RulesCLI.Exit.invalidInput)
    }
    guard let contents = ruleFile.contents(replacingRuleWith: formatted) else {
      throw RulesCLI.fail(
        "\(source.displayName): cannot edit the rule in place in this plist (binary or OpenStep); "
          + "convert it to XML with 'plutil -convert xml1' first", code: RulesCLI.Exit.invalidInput)
    }
    try RulesCLI.write(contents, to: url.path)
  }
}
