import ActivationRules
import ArgumentParser
import Foundation
import PredicateSyntax
import PropertyLists

/// `--rule FILE` | `--predicate TEXT` | standard input, as every single-rule subcommand takes them.
struct RuleInputOptions: ParsableArguments {
  @Option(help: "A predicate file, a rule plist, or an extension Info.plist.")
  var rule: String?

  @Option(help: "The predicate text itself.")
  var predicate: String?

  /// Reads and parses the rule, printing diagnostics and stopping with the contract's exit code on failure.
  func load() throws -> (file: RuleFile, rule: ActivationRule) {
    if rule != nil, predicate != nil {
      throw RulesCLI.fail("give --rule or --predicate, not both", code: RulesCLI.Exit.usage)
    }
    let file: RuleFile
    if let path = rule {
      file = try RulesCLI.readRuleFile(path)
    } else if let predicate {
      file = RuleFile(path: "<predicate>", predicate: predicate)
    } else {
      let data = FileHandle.standardInput.readDataToEndOfFile()
      do {
        file = try RuleFile(path: "<stdin>", data: data)
      } catch {
        throw RulesCLI.report(error, file: nil)
      }
    }
    do {
      return (file, try ActivationRule(file: file))
    } catch {
      throw RulesCLI.report(error, file: file)
    }
  }
}

extension RulesCLI {
  /// Reads a rule file from disk, mapping failures to exit codes.
  static func readRuleFile(_ path: String) throws -> RuleFile {
    let data: Data
    switch InputFile.read(path) {
    case .success(let contents): data = contents
    case .failure(.missing): throw fail("no such file: \(path)", code: Exit.missingInput)
    case .failure(.unreadable(let reason)): throw fail("cannot read \(path): \(reason)", code: Exit.ioError)
    }
    do {
      return try RuleFile(path: path, data: data)
    } catch {
      throw report(error, file: nil, path: path, source: data)
    }
  }

  /// Prints an error as a diagnostic and returns the exit code it maps to.
  static func report(_ error: ActivationRuleError, file: RuleFile?, path: String? = nil, source: Data? = nil)
    -> ExitCode
  {
    switch error {
    case .propertyList(let plistError):
      // The source line and caret, when the file's bytes are at hand.
      let bytes =
        source.map { [UInt8]($0) } ?? path.flatMap { FileManager.default.contents(atPath: $0) }.map {
          [UInt8]($0)
        } ?? []
      var record: [String: Any] = [
        "file": path ?? file?.path ?? "", "severity": "error", "message": plistError.message,
      ]
      if let position = plistError.position {
        record["line"] = position.line
        record["column"] = position.column
      }
      Console.diagnostic(
        plistError.rendered(source: plistError.position == nil ? [] : bytes), records: [record])
      switch plistError.kind {
      case .fileNotFound: return Exit.missingInput
      case .io: return Exit.ioError
      default: return Exit.invalidInput
      }
    case .jsonSyntax(let message, let position):
      let text =
        path.flatMap { FileManager.default.contents(atPath: $0) }.map { String(decoding: $0, as: UTF8.self) }
        ?? ""
      Console.diagnostic(
        diagnostic(
          file: path ?? "<json>", position: position, severity: "error", message: message, source: text),
        records: [
          [
            "file": path ?? "<json>", "line": position.line, "column": position.column, "severity": "error",
            "message": message,
          ]
        ])
      return Exit.invalidInput
    default: break
    }
    if let file, let position = error.position {
      let filePosition = file.filePosition(ofPredicateOffset: position.offset)
      Console.diagnostic(
        diagnostic(
          file: file.path, position: filePosition, severity: "error", message: error.description,
          source: file.contents),
        records: [
          [
            "file": file.path, "line": filePosition.line, "column": filePosition.column, "severity": "error",
            "message": error.description,
          ]
        ])
      return Exit.invalidInput
    }
    let prefix = (file?.path ?? path).map { "\($0): " } ?? ""
    switch error {
    case .missingFile: return fail(prefix + error.description, code: Exit.missingInput)
    case .inputOutput: return fail(prefix + error.description, code: Exit.ioError)
    default: return fail(prefix + error.description, code: Exit.invalidInput)
    }
  }

  /// Writes `text` to `path` atomically, keeping the file's permissions and following symbolic links;
  /// failures map to exit code 74 and leave the file as it was.
  static func write(_ text: String, to path: String) throws {
    do {
      try AtomicFileWriter.write(Data(text.utf8), to: path)
    } catch {
      throw fail("cannot write \(path): \(error.description)", code: Exit.ioError)
    }
  }
}

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
      let data: Data
      switch InputFile.read(input) {
      case .success(let contents): data = contents
      case .failure(.missing): throw RulesCLI.report(.missingFile(input), file: nil, path: input)
      case .failure(.unreadable(let reason)):
        throw RulesCLI.report(.inputOutput(path: input, message: reason), file: nil, path: input)
      }
      do {
        return try ExtensionContext(json: data)
      } catch {
        throw RulesCLI.report(error, file: nil, path: input)
      }
    }
    if let preset {
      guard let found = HostPreset.named(preset) else {
        throw RulesCLI.fail("no preset named \(preset); run 'rulekit presets'", code: RulesCLI.Exit.usage)
      }
      return found.context
    }
    return ExtensionContext(attachments: attachments.map(ExtensionContext.attachmentTypes(fromShorthand:)))
  }
}

/// Dictionary conversion styles on the command line.
extension DictionaryConversionStyle: ExpressibleByArgument {}
