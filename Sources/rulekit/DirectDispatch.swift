import ArgumentParser

/// Parses `rulekit SUBCOMMAND arguments…` straight into the subcommand. swift-argument-parser's
/// `parseAsRoot` builds the argument sets of every subcommand first (for completion-script requests and
/// help), which was 40% of the instructions of a whole `rulekit configure --dry-run` run. Anything that needs
/// the whole tree — help, version, completion scripts — and any parse or validation error go through
/// `parseAsRoot` as before, so behaviour and messages are unchanged.
enum DirectDispatch {
  /// Arguments only the full parser handles.
  static let treeArguments: Set<String> = [
    "-h", "--help", "-help", "help", "--version", "--experimental-dump-help",
  ]

  /// The command for `arguments` (without the program name), or `nil` to use the full parser.
  static func parse(_ arguments: [String]) -> (any ParsableCommand)? {
    guard
      !arguments.contains(where: { treeArguments.contains($0) || $0.hasPrefix("--generate-completion") })
    else { return nil }
    if let lint = LintCommand.direct(
      arguments, environment: EnvironmentVariables.values(of: ConfigureRun.environmentVariables))
    {
      return lint
    }
    var commands = RuleKitCommand.configuration.subcommands
    var remaining = arguments[...]
    while let name = remaining.first,
      let command = commands.first(where: { $0._commandName == name })
    {
      remaining = remaining.dropFirst()
      let nested = command.configuration.subcommands
      guard nested.isEmpty else {
        commands = nested
        continue
      }
      return try? command.parse(Array(remaining))
    }
    return nil
  }
}
