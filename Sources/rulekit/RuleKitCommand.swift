import ArgumentParser

/// The `rulekit` command. Subcommands stay thin: parse arguments, call a library, print.
@main
struct RuleKitCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "rulekit",
    abstract: "Parse, evaluate and configure iOS extension activation rules and Uniform Type Identifiers.",
    version: RuleKitVersion.current,
    subcommands: [
      // One line per subcommand keeps merges trivial.
      PresetsCommand.self,
      ConvertCommand.self,
      InjectCommand.self,
      DiffCommand.self,
      LintCommand.self,
      ExplainCommand.self,
      TestCommand.self,
      UtiCommand.self,
      EvalCommand.self,
      FormatCommand.self,
      ParseCommand.self,
    ]
  )
}

/// The single source of truth for the version `rulekit --version` prints.
enum RuleKitVersion {
  static let current = "0.1.0"
}
