import ArgumentParser
import UniformTypes

/// `rulekit uti descendants A`: every known type that conforms to A, itself first, one per line.
struct UTIDescendantsCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "descendants", abstract: "Print every known type that conforms to A, itself included.",
    discussion: """
      Examples:
        rulekit uti descendants public.heif-standard
        rulekit uti descendants public.movie --format json
      """)

  @Argument(help: "The type identifier.") var type: String
  @OptionGroup var options: UTIOptions

  var consoleSettings: ConsoleSettings { options.consoleSettings }

  func run() throws {
    let registry = try options.registry()
    options.noteUndeclared([type], in: registry)
    let descendants = registry.descendants(of: type)
    options.emit(
      text: descendants.joined(separator: "\n"), fields: ["type": type, "descendants": descendants])
  }
}
