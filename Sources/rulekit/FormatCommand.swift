import ArgumentParser
import Foundation
import PredicateSyntax

/// `rulekit format`: prints a rule in the canonical one-line form or the Intune guide's layout.
struct FormatCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "format",
    abstract: "Print a predicate rule in canonical form, or with --pretty in the Intune guide's layout.")

  @OptionGroup var input: RuleInput
  @OptionGroup var parsing: ParsingOptions

  @Flag(help: "Use the multi-line layout of the Intune App SDK guide.")
  var pretty = false

  @Flag(help: "Spell logical operators AND / OR instead of && / ||.")
  var words = false

  @Flag(help: "Rewrite the --rule file instead of printing.")
  var inPlace = false

  func validate() throws {
    if inPlace && input.rule == nil { throw ValidationError("--in-place needs --rule FILE.") }
  }

  func run() throws {
    let source = try input.read()
    let tree = try parsing.parse(source)
    let printer = PredicatePrinter(
      layout: pretty ? .pretty : .singleLine, logicalOperators: words ? .words : .symbols)
    let formatted = printer.string(for: tree) + "\n"
    guard inPlace, let url = source.fileURL else {
      print(formatted, terminator: "")
      return
    }
    guard let ruleFile = source.ruleFile else {
      try RulesCLI.write(formatted, to: url.path)
      return
    }
    // In a plist only the rule's string changes; a dictionary rule is not a predicate to format.
    guard case .predicate = ruleFile.value else {
      throw RulesCLI.fail(
        "\(source.displayName): the rule is a dictionary; 'rulekit convert --in-place' turns it into a predicate",
        code: RulesCLI.Exit.invalidInput)
    }
    guard let contents = ruleFile.contents(replacingRuleWith: printer.string(for: tree)) else {
      throw RulesCLI.fail(
        "\(source.displayName): cannot edit the rule in place in this plist (binary or OpenStep); "
          + "convert it to XML with 'plutil -convert xml1' first", code: RulesCLI.Exit.invalidInput)
    }
    try RulesCLI.write(contents, to: url.path)
  }
}
