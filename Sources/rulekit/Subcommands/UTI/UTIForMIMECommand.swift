import ArgumentParser
import UniformTypes

/// `rulekit uti for-mime TYPE`: the types declared for a MIME type.
struct UTIForMIMECommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "for-mime",
    abstract: "Print the types for a MIME type, preferred first (a dyn.* type if none is declared).",
    discussion: """
      Examples:
        rulekit uti for-mime image/heic
        rulekit uti for-mime application/pdf --format json
      """)

  @Argument(help: "The MIME type, e.g. image/jpeg.") var mimeType: String
  @Option(help: "Only types conforming to this type.") var conformingTo: String?
  @OptionGroup var options: UTIOptions

  var consoleSettings: ConsoleSettings { options.consoleSettings }

  func run() throws {
    let lookup = UTITagLookup(
      registry: try options.registry(), tag: mimeType, tagClass: .mimeType, conformingTo: conformingTo)
    try options.emit(text: lookup.text, json: lookup)
  }
}
