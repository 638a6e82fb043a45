import ArgumentParser
import UniformTypes

/// `rulekit uti for-extension EXT`: the types declared for a filename extension.
struct UtiForExtensionCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "for-extension",
    abstract: "Print the types for a filename extension, preferred first (a dyn.* type if none is declared).")

  @Argument(help: "The filename extension, without the dot.") var filenameExtension: String
  @Option(help: "Only types conforming to this type.") var conformingTo: String?
  @OptionGroup var options: UtiOptions

  func run() throws {
    let lookup = UtiTagLookup(
      registry: try options.registry(), tag: filenameExtension, tagClass: .filenameExtension,
      conformingTo: conformingTo)
    try options.emit(text: lookup.text, json: lookup)
  }
}
