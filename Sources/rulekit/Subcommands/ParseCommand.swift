import ArgumentParser
import PredicateSyntax

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit parse`: checks a rule's syntax, and with `--dump` prints its syntax tree as JSON.
struct ParseCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "parse",
    abstract:
      "Check a predicate rule's syntax; with --dump print its syntax tree as JSON with source ranges.",
    discussion: """
      Prints nothing when the syntax is valid (exit 0), compiler-style diagnostics when not (exit 65). With \
      --format json the answer is {"schemaVersion": 1, "valid": true} on standard output and the \
      diagnostics a JSON document on standard error; --dump adds "tree".

      Examples:
        rulekit parse --rule Examples/IntuneGuide/rule-C.predicate
        rulekit parse --dump --predicate \\
          'ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url"'
        # exit 65: a typographic quote
        rulekit parse --rule \\
          Examples/rules-with-errors/intune-guide-2018-open-in-rule.predicate
      """)

  @OptionGroup var input: RuleInput
  @OptionGroup var parsing: ParsingOptions

  @Flag(help: "Print the syntax tree as JSON, with the source range of every node.")
  var dump = false

  @OptionGroup var outputOptions: ResultOutputOptions<DiagnosticFormat>

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

  func run() throws {
    let tree = try parsing.parse(try input.read())
    var document: [String: Any] = [:]
    if dump {
      document["tree"] = try JSONTree(json: Data(SyntaxTreeJSON.string(for: tree).utf8)).anyValue
    }
    if outputOptions.format == .json { document["valid"] = true }
    if !document.isEmpty { Console.json(document) }
  }
}
