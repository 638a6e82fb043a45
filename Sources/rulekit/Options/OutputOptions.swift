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
typealias OutputOptions<Format: OutputFormatChoice> = OutputOptionGroup<Format, QuietOption>

/// `--format` and `--color` without `-q`: the output options of the subcommands that print only their result
/// and diagnostics (`parse`, `eval`), so nothing for `-q` to drop.
typealias ResultOutputOptions<Format: OutputFormatChoice> = OutputOptionGroup<Format, NoQuietOption>

/// The one group behind ``OutputOptions`` and ``ResultOutputOptions``: `--format`, then `-q`/`--quiet` when
/// `Quiet` is ``QuietOption``, then `--color`.
struct OutputOptionGroup<Format: OutputFormatChoice, Quiet: QuietChoice>: ParsableArguments {
  @Option(help: ArgumentHelp(Format.help))
  var format: Format = .text

  @OptionGroup var quietOption: Quiet
  @OptionGroup var colorOption: ColorOption

  /// `-q`: only errors and the result (always `false` without `-q`).
  var quiet: Bool { quietOption.quiet }

  /// What ``Console`` needs to know before the subcommand runs.
  var consoleSettings: ConsoleSettings {
    ConsoleSettings(json: format.isJSON, quiet: quiet, color: colorOption.color, xcode: format.isXcode)
  }
}

/// Whether a subcommand takes `-q`: ``QuietOption`` or ``NoQuietOption``.
protocol QuietChoice: ParsableArguments {
  var quiet: Bool { get }
}

extension QuietOption: QuietChoice {}

/// No `-q`: adds no option.
struct NoQuietOption: QuietChoice {
  var quiet: Bool { false }
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

/// `--format` of the subcommands that parse a predicate (`format`, `parse`, `eval`): text or JSON, with the help
/// they have always had, which names the diagnostics (a syntax error is these subcommands' usual output).
enum DiagnosticFormat: String, OutputFormatChoice {
  case text, json

  static let help = "How to write diagnostics: text or json."
  var isJSON: Bool { self == .json }
  var isXcode: Bool { false }
}
