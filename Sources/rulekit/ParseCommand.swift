import ArgumentParser
import PredicateSyntax

/// `rulekit parse`: checks a rule's syntax, and with `--dump` prints its syntax tree as JSON.
struct ParseCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "parse",
    abstract: "Check a predicate rule's syntax; with --dump print its syntax tree as JSON with source ranges."
  )

  @OptionGroup var input: RuleInput
  @OptionGroup var parsing: ParsingOptions

  @Flag(help: "Print the syntax tree as JSON, with the source range of every node.")
  var dump = false

  func run() throws {
    let tree = try parsing.parse(try input.read())
    if dump { print(SyntaxTreeJSON.string(for: tree)) }
  }
}
