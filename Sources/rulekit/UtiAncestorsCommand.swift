import ArgumentParser
import UniformTypes

/// `rulekit uti ancestors A`: every type A conforms to, itself first, one per line.
struct UtiAncestorsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "ancestors", abstract: "Print every type A conforms to, itself included, one per line.")

  @Argument(help: "The type identifier.") var type: String
  @OptionGroup var options: UtiOptions

  func run() throws {
    let ancestors = try options.registry().ancestors(of: type)
    try options.emit(text: ancestors.joined(separator: "\n"), json: ancestors)
  }
}
