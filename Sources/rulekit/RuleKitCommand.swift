import ArgumentParser
import Foundation

/// The `rulekit` command. Subcommands stay thin: parse arguments, call a library, print.
@main
struct RuleKitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rulekit",
    abstract: "Parse, evaluate and configure iOS extension activation rules and Uniform Type Identifiers.",
    discussion: """
      Results go to standard output, diagnostics and progress to standard error. Every subcommand takes \
      --color auto|always|never (NO_COLOR=1 turns colour off under auto); those that report take \
      --format json (docs/json-output.md); those that print progress or summaries take -q/--quiet.

      Examples:
        rulekit lint Examples/SampleApp/ShareExtension/Info.plist
        rulekit explain --rule Examples/SampleApp/ShareExtension/Info.plist \\
          --preset firefox-url-text
      """,
    version: RuleKitVersion.current,
    subcommands: [
      // One line per subcommand keeps merges trivial.
      UtiCommand.self,
      ConfigureCommand.self,
      PresetsCommand.self,
      ConvertCommand.self,
      InjectCommand.self,
      DiffCommand.self,
      LintCommand.self,
      ExplainCommand.self,
      TestCommand.self,
      EvalCommand.self,
      FormatCommand.self,
      ParseCommand.self,
    ]
  )

  /// Runs the command line with DESIGN.md's exit codes: swift-argument-parser reports a usage error as 64
  /// (EX_USAGE); the contract says 2, like most Unix tools. The parsed subcommand's output settings go to
  /// ``Console`` before it runs, and JSON diagnostics are written once, however the command ends.
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    do {
      var command = try parseAsRoot(arguments)
      if let configurable = command as? any ConsoleConfigurable {
        Console.configure(configurable.consoleSettings)
      }
      try command.run()
      Console.finish()
    } catch {
      let code = exitCode(for: error)
      guard code == .validationFailure else {
        Console.finish()
        exit(withError: error)
      }
      if Console.argumentsRequestJSON(arguments) {
        Console.configure(ConsoleSettings(json: true))
        Console.error("", message: message(for: error))
        Console.finish()
      } else {
        FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
      }
      Foundation.exit(2)
    }
  }
}

/// The single source of truth for the version `rulekit --version` prints.
enum RuleKitVersion {
  static let current = "0.1.0"
}
