import ArgumentParser

/// `rulekit uti …`: questions about Uniform Type Identifiers, answered by the UniformTypes registry.
struct UTICommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "uti",
    abstract: "Answer Uniform Type Identifier questions: conformance, ancestors, tags.",
    discussion: """
      Identifiers compare case-insensitively. Types come from Apple's system declarations plus, with \
      --declarations, an app's UTExportedTypeDeclarations and UTImportedTypeDeclarations.

      Examples:
        rulekit uti conforms public.heic public.image
        rulekit uti for-extension gpx
      """,
    subcommands: [
      UTIConformsCommand.self,
      UTIAncestorsCommand.self,
      UTIDescendantsCommand.self,
      UTIInfoCommand.self,
      UTIForExtensionCommand.self,
      UTIForMIMECommand.self,
    ]
  )
}
