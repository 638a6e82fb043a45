import ArgumentParser
import UniformTypes

/// `rulekit uti conforms A B`: prints `true` or `false`, exit code 0 either way.
struct UtiConformsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "conforms", abstract: "Print whether type A conforms to type B (true or false).")

  @Argument(help: "The type identifier to test.") var type: String
  @Argument(help: "The type identifier it should conform to.") var supertype: String
  @OptionGroup var options: UtiOptions

  private struct Answer: Encodable {
    let type: String
    let supertype: String
    let conforms: Bool
  }

  func run() throws {
    let registry = try options.registry()
    let conforms = registry.conforms(type, to: supertype)
    try options.emit(text: "\(conforms)", json: Answer(type: type, supertype: supertype, conforms: conforms))
  }
}
