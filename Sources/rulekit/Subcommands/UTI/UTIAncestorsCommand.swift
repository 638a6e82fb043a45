import ArgumentParser
import UniformTypes

/// `rulekit uti ancestors A`: every type A conforms to, itself first, one per line.
struct UTIAncestorsCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "ancestors", abstract: "Print every type A conforms to, itself included, one per line.",
    discussion: """
      Examples:
        rulekit uti ancestors public.file-url
        rulekit uti ancestors public.heic --format json
      """)

  @Argument(help: "The type identifier.") var type: String
  @OptionGroup var options: UTIOptions

  var consoleSettings: ConsoleSettings { options.consoleSettings }

  func run() throws {
    let registry = try options.registry()
    options.noteUndeclared([type], in: registry)
    let ancestors = registry.ancestors(of: type)
    options.emit(text: ancestors.joined(separator: "\n"), fields: ["type": type, "ancestors": ancestors])
  }
}
