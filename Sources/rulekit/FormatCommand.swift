import ArgumentParser
import Foundation
import PredicateSyntax

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

  @OptionGroup var quietOption: QuietOption
  @OptionGroup var colorOption: ColorOption

  var consoleSettings: ConsoleSettings {
    ConsoleSettings(json: parsing.format == .json, quiet: quietOption.quiet, color: colorOption.color)
  }

  func validate() throws {
    if inPlace && (input.rule.map(InputFile.isStandardInput) ?? true) {
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
      do {
        try Data((formatted + "\n").utf8).write(to: url, options: .atomic)
      } catch {
        CommandOutput.error("\(source.displayName): cannot write: \(error.localizedDescription)")
        throw ExitCode(74)
      }
      written.append(source.displayName)
      Console.info("wrote \(source.displayName)")
    }
    switch parsing.format {
    case .json: Console.json(["predicate": formatted, "written": written])
    case .text: if !inPlace { Console.result(formatted) }
    }
  }
}
