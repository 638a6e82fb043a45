import ArgumentParser
import Foundation

/// The `rulekit` command. Subcommands stay thin: parse arguments, call a library, print.
@main
struct RuleKitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rulekit",
    abstract: "Parse, evaluate and configure iOS extension activation rules and Uniform Type Identifiers.",
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
  /// (EX_USAGE); the contract says 2, like most Unix tools.
  static func main() {
    do {
      var command = try DirectDispatch.parse(Array(CommandLine.arguments.dropFirst())) ?? parseAsRoot()
      try command.run()
    } catch {
      let code = exitCode(for: error)
      guard code == .validationFailure else { exit(withError: error) }
      FileHandle.standardError.write(Data((fullMessage(for: error) + "\n").utf8))
      Foundation.exit(2)
    }
  }
}

/// The single source of truth for the version `rulekit --version` prints.
enum RuleKitVersion {
  static let current = "0.1.0"
}
