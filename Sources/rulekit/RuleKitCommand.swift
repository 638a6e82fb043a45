import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

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
      UTICommand.self,
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
      BuildSettingsCommand.self,
      OpenInIconsCommand.self,
      AuditCommand.self,
    ]
  )

  /// Runs the command line with docs/design.md's exit codes: swift-argument-parser reports a usage error as 64
  /// (EX_USAGE); the contract says 2, like most Unix tools. The parsed subcommand's output settings go to
  /// ``Console`` before it runs, and JSON diagnostics are written once, however the command ends. Under the
  /// closed tool's name the process is ``IntuneMAMConfiguratorCommand``.
  static func main() {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if IntuneMAMConfiguratorCommand.isInvoked(as: CommandLine.arguments.first) {
      runReportingErrors(IntuneMAMConfiguratorCommand.self, arguments: arguments) {
        switch IntuneMAMConfiguratorCommand.invocation(
          arguments, environment: EnvironmentVariables.values(of: ConfigureRun.environmentVariables))
        {
        case .run(let configure):
          Console.configure(configure.consoleSettings)
          try configure.execute()
        case .openInIcons(let run):
          Console.configure(run.consoleSettings)
          try run.execute()
        case .unsupported(let message):
          throw RulesCLI.fail(message, code: RulesCLI.Exit.usage)
        case .parse:
          try run(IntuneMAMConfiguratorCommand.parseAsRoot(arguments))
        }
      }
      return
    }
    // IntuneMAMConfigurator's -generateOpenInIcons line also works under rulekit's own name.
    if arguments.first == "-generateOpenInIcons" || arguments.first == "-o",
      arguments.contains("-generateOpenInIcons")
    {
      runReportingErrors(RuleKitCommand.self, arguments: arguments) {
        switch IntuneMAMConfiguratorCommand.OpenInIconsRun.parse(arguments) {
        case .success(let run):
          Console.configure(run.consoleSettings)
          try run.execute()
        case .failure(let message):
          throw RulesCLI.fail(message.text, code: RulesCLI.Exit.usage)
        }
      }
      return
    }
    // Build scripts ask `rulekit --version` to check the tool; swift-argument-parser would build every
    // subcommand's arguments first (twice the instructions of a whole `configure` run).
    if arguments == ["--version"] {
      Console.writeUnbuffered(RuleKitVersion.current + "\n", to: STDOUT_FILENO)
      return
    }
    if reportedUnknownSubcommand(in: arguments) { exitProcess(2) }
    runReportingErrors(RuleKitCommand.self, arguments: arguments) {
      if let configure = ConfigureRun.parse(
        arguments, environment: EnvironmentVariables.values(of: ConfigureRun.environmentVariables))
      {
        Console.configure(configure.consoleSettings)
        try configure.execute()
      } else {
        try run(DirectDispatch.parse(arguments) ?? parseAsRoot(arguments))
      }
    }
  }

  /// Hands a parsed command's output settings to ``Console`` and runs it.
  static func run(_ parsed: any ParsableCommand) throws {
    var command = parsed
    if let configurable = command as? any ConsoleConfigurable {
      Console.configure(configurable.consoleSettings)
    }
    try command.run()
  }

  /// Runs `body`, then ends the process as the contract says for whatever it threw; `root` words the usage
  /// errors (its name is the one in their usage lines).
  static func runReportingErrors<Root: ParsableCommand>(
    _ root: Root.Type, arguments: [String], _ body: () throws -> Void
  ) {
    // The process ends after the `catch` block, once the error and the message are released: `exit` never
    // returns, so whatever is alive at the call stays allocated, which LeakSanitizer reports as a leak in
    // the optimized build (scripts/sanitizers).
    do {
      try body()
      Console.finish()
      return
    } catch {
      let code = root.exitCode(for: error)
      guard code == .validationFailure else {
        Console.finish()
        root.exit(withError: error)
      }
      if Console.argumentsRequestJSON(arguments) {
        Console.configure(ConsoleSettings(json: true))
        Console.error("", message: root.message(for: error))
        Console.finish()
      } else {
        let text = Console.usageError(root.fullMessage(for: error), arguments: arguments)
        Console.writeUnbuffered(text + "\n", to: STDERR_FILENO)
      }
    }
    exitProcess(2)
  }
}

extension RuleKitCommand {
  /// swift-argument-parser answers `rulekit NAME --help` (and `rulekit help NAME`) with the root's help when
  /// NAME is no subcommand, exit status 0: a mistyped name, or a binary older than the subcommand, then looks
  /// like the subcommand's help printing the wrong page. This names the unknown subcommand instead.
  ///
  /// Writes the error and returns `true` when NAME is no subcommand: the caller then exits, after the
  /// message is released (see ``runReportingErrors(_:arguments:_:)``).
  static func reportedUnknownSubcommand(in arguments: [String]) -> Bool {
    guard let message = unknownSubcommand(in: arguments) else { return false }
    Console.writeUnbuffered(message + "\n", to: STDERR_FILENO)
    return true
  }

  /// The error for `rulekit NAME --help` when NAME is no subcommand; `nil` otherwise.
  static func unknownSubcommand(in arguments: [String]) -> String? {
    guard arguments.contains(where: { $0 == "--help" || $0 == "-h" }) || arguments.first == "help" else {
      return nil  // Without a help request the parser reports the unexpected argument itself.
    }
    var command: any ParsableCommand.Type = RuleKitCommand.self
    var path = ["rulekit"]
    for argument in arguments.drop(while: { $0 == "help" }) {
      guard !argument.hasPrefix("-") else { continue }
      let subcommands = command.configuration.subcommands
      guard !subcommands.isEmpty else { return nil }
      // Every rulekit command names itself in its configuration.
      let names = subcommands.map { $0.configuration.commandName ?? "" }
      guard let index = names.firstIndex(of: argument) else {
        return "Error: '\(argument)' is not a subcommand of \(path.joined(separator: " ")); "
          + "one of: \(names.joined(separator: ", ")).\n"
          + "  See '\(path.joined(separator: " ")) --help' for more information."
      }
      command = subcommands[index]
      path.append(argument)
    }
    return nil
  }
}

/// The single source of truth for the version `rulekit --version` prints.
enum RuleKitVersion {
  static let current = "0.1.0"
}

/// `exit(3)`, which inside a command type would name ParsableCommand's `exit(withError:)`.
private func exitProcess(_ status: Int32) -> Never {
  #if canImport(Glibc)
    Glibc.exit(status)
  #elseif canImport(Musl)
    Musl.exit(status)
  #else
    Darwin.exit(status)
  #endif
}
