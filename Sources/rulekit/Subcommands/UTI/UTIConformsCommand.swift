import ArgumentParser
import UniformTypes

/// `rulekit uti conforms A B`: prints `true` or `false`, exit code 0 either way.
struct UTIConformsCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "conforms", abstract: "Print whether type A conforms to type B (true or false).",
    discussion: """
      Examples:
        rulekit uti conforms public.heic public.image
        rulekit uti conforms com.microsoft.intune.mam.public.jpeg \\
          com.microsoft.intune.mam.public.image --twin-policy mirrored \\
          --format json
      """)

  @Argument(help: "The type identifier to test.") var type: String
  @Argument(help: "The type identifier it should conform to.") var supertype: String
  @OptionGroup var options: UTIOptions

  var consoleSettings: ConsoleSettings { options.consoleSettings }

  private struct Answer: Encodable {
    let type: String
    let supertype: String
    let conforms: Bool
  }

  func run() throws {
    let registry = try options.registry()
    options.noteUndeclared([type, supertype], in: registry)
    let conforms = registry.conforms(type, to: supertype)
    try options.emit(text: "\(conforms)", json: Answer(type: type, supertype: supertype, conforms: conforms))
  }
}
