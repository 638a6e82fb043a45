import ArgumentParser
import UniformTypes

/// `rulekit uti for-extension EXT`: the types declared for a filename extension.
struct UTIForExtensionCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "for-extension",
    abstract: "Print the types for a filename extension, preferred first (a dyn.* type if none is declared).",
    discussion: """
      Examples:
        rulekit uti for-extension gpx
        rulekit uti for-extension jpg --conforming-to public.image --format json
      """)

  @Argument(help: "The filename extension, without the dot.") var filenameExtension: String
  @Option(help: "Only types conforming to this type.") var conformingTo: String?
  @OptionGroup var options: UTIOptions

  var consoleSettings: ConsoleSettings { options.consoleSettings }

  func run() throws {
    let lookup = UTITagLookup(
      registry: try options.registry(), tag: filenameExtension, tagClass: .filenameExtension,
      conformingTo: conformingTo)
    try options.emit(text: lookup.text, json: lookup)
  }
}
