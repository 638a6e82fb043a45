import ActivationRules
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Where an extension context comes from: `--input`, `--attachment` (repeatable) or `--preset`.
struct ContextInputOptions: ParsableArguments {
  @Option(
    help: "A JSON file: {\"extensionItems\":[{\"attachments\":[{\"registeredTypeIdentifiers\":[…]}]}]}.")
  var input: String?

  @Option(
    name: .customLong("attachment"),
    help: "One attachment's types, comma-separated (repeatable; all in one extension item).")
  var attachments: [String] = []

  @Option(help: "A host preset by name (see 'rulekit presets').")
  var preset: String?

  func load() throws -> ExtensionContext {
    let given = [input != nil, !attachments.isEmpty, preset != nil].filter { $0 }.count
    guard given == 1 else {
      throw RulesCLI.fail("give exactly one of --input, --attachment, --preset", code: RulesCLI.Exit.usage)
    }
    if let input {
      let data = try RulesCLI.read(input)
      do {
        return try ExtensionContext(json: data)
      } catch {
        throw RulesCLI.report(error, path: RulesCLI.displayName(input), data: data)
      }
    }
    if let preset {
      guard let found = HostPreset.named(preset) else {
        throw RulesCLI.fail(
          "no preset named \(preset); run 'rulekit presets' for the list", code: RulesCLI.Exit.usage)
      }
      return found.context
    }
    return ExtensionContext(attachments: attachments.map(ExtensionContext.attachmentTypes(fromShorthand:)))
  }
}

/// Dictionary conversion styles on the command line.
extension DictionaryConversionStyle: ExpressibleByArgument {}
