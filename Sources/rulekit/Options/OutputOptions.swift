import ArgumentParser

/// A `--format` value: `text` and `json`, and for some subcommands `xcode`.
protocol OutputFormatChoice: ExpressibleByArgument, CaseIterable, Sendable, Equatable {
  /// Plain text, the default.
  static var text: Self { get }
  /// The help of `--format`.
  static var help: String { get }
  /// Whether the result is one JSON document.
  var isJSON: Bool { get }
  /// Whether errors are `file:line:column: error: message` lines for Xcode's issue navigator.
  var isXcode: Bool { get }
}

/// `--format`, `-q`/`--quiet` and `--color`: the output options of every subcommand that prints progress or
/// a summary besides its result, in one group so they read and behave the same everywhere.
struct OutputOptions<Format: OutputFormatChoice>: ParsableArguments {
  @Option(help: ArgumentHelp(Format.help))
  var format: Format = .text

  @OptionGroup var quietOption: QuietOption
  @OptionGroup var colorOption: ColorOption

  /// `-q`: only errors and the result.
  var quiet: Bool { quietOption.quiet }

  /// What ``Console`` needs to know before the subcommand runs.
  var consoleSettings: ConsoleSettings {
    ConsoleSettings(json: format.isJSON, quiet: quiet, color: colorOption.color, xcode: format.isXcode)
  }
}

/// `--format` of the subcommands that print either text or one JSON document.
enum OutputFormat: String, OutputFormatChoice {
  case text, json

  static let help = "text or json."
  var isJSON: Bool { self == .json }
  var isXcode: Bool { false }
}

/// `--format` of the subcommands whose errors and findings Xcode can file as issues.
enum RulesOutputFormat: String, OutputFormatChoice {
  case text, json, xcode

  static let help =
    "text, json or xcode (file:line:column: severity: message lines, for Xcode's issue navigator)."
  var isJSON: Bool { self == .json }
  var isXcode: Bool { self == .xcode }
}
