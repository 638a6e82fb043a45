import ArgumentParser
import UniformTypes

/// `rulekit uti descendants A`: every known type that conforms to A, itself first, one per line.
struct UtiDescendantsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "descendants", abstract: "Print every known type that conforms to A, itself included.")

  @Argument(help: "The type identifier.") var type: String
  @OptionGroup var options: UtiOptions

  func run() throws {
    let descendants = try options.registry().descendants(of: type)
    try options.emit(text: descendants.joined(separator: "\n"), json: descendants)
  }
}
