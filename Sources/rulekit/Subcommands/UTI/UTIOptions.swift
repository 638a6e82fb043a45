import ArgumentParser
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The twin policy as a command-line value.
enum UTITwinPolicyArgument: String, ExpressibleByArgument, CaseIterable {
  case literal
  case mirrored

  var policy: TwinPolicy {
    switch self {
    case .literal: return .literal
    case .mirrored: return .mirrored
    }
  }
}

/// Options every `uti` subcommand takes: which registry to ask and how to print the answer.
struct UTIOptions: ParsableArguments {
  @Option(
    name: .customLong("declarations"),
    help: ArgumentHelp(
      "An Info.plist whose UTExportedTypeDeclarations and UTImportedTypeDeclarations to add.",
      valueName: "Info.plist"))
  var declarationsPath: String?

  @Option(help: "How Intune twins (com.microsoft.intune.mam.<type>) conform: literal (as iOS) or mirrored.")
  var twinPolicy: UTITwinPolicyArgument = .literal

  @OptionGroup var outputOptions: ResultOutputOptions<OutputFormat>

  var format: OutputFormat { outputOptions.format }
  var consoleSettings: ConsoleSettings { outputOptions.consoleSettings }

  /// The system registry, plus the declarations file if one was given. Declaration warnings go to stderr;
  /// errors end the command with exit code 65, a missing file with 66, an unreadable one with 74.
  func registry() throws -> TypeRegistry {
    let system = TypeRegistry.system.withTwinPolicy(twinPolicy.policy)
    guard let declarationsPath else { return system }
    // The message and exit status every subcommand gives for a missing (66) or unreadable (74) file.
    let data = try RulesCLI.read(declarationsPath)
    let declarations: AppTypeDeclarations
    do {
      declarations = try AppTypeDeclarations(propertyListData: data)
    } catch {
      UTIDiagnosticPrinter.print([error], file: declarationsPath, source: data)
      throw ExitCode(65)
    }
    let registry = TypeRegistry(declarations: declarations, twinPolicy: twinPolicy.policy)
    let located = AppTypeDeclarations.locate(registry.diagnostics, in: data)
    UTIDiagnosticPrinter.print(located, file: declarationsPath, source: data)
    if located.contains(where: { $0.severity == .error }) { throw ExitCode(65) }
    return registry
  }

  /// Says on standard error which of `identifiers` nobody declares (they conform only to themselves), with
  /// the declared type each most likely misspells; the answer itself is unchanged, for scripts.
  func noteUndeclared(_ identifiers: [String], in registry: TypeRegistry) {
    for identifier in identifiers where !registry.resolve(identifier).isKnown {
      if let base = IntuneTwin.base(ofTwin: identifier), registry.resolve(base).isKnown { continue }
      let hint = registry.closestDeclaredType(to: identifier).map { " (did you mean \($0)?)" } ?? ""
      Console.info("note: nobody declares \(identifier)\(hint); an undeclared type conforms only to itself")
    }
  }

  /// Prints `text` in the text format; in JSON, `value`'s fields beside `schemaVersion`.
  func emit(text: @autoclosure () -> String, json value: some Encodable) throws {
    switch format {
    case .text: Console.result(text())
    case .json: Console.json(try Console.jsonObject(value) as? [String: Any] ?? [:])
    }
  }

  /// Prints `text` in the text format, or the JSON document `fields`.
  func emit(text: @autoclosure () -> String, fields: @autoclosure () -> [String: Any]) {
    switch format {
    case .text: Console.result(text())
    case .json: Console.json(fields())
    }
  }
}

/// Prints declaration diagnostics to stderr, compiler-style (with the source line and a caret) or as JSON.
enum UTIDiagnosticPrinter {
  static func print(
    _ diagnostics: [TypeDeclarationDiagnostic], file: String, source: Data?
  ) {
    guard !diagnostics.isEmpty else { return }
    // File order reads best; diagnostics without a position keep their place at the front.
    let diagnostics = diagnostics.enumerated().sorted { lhs, rhs in
      let left = lhs.element.position ?? DeclarationPosition(line: 0, column: 0)
      let right = rhs.element.position ?? DeclarationPosition(line: 0, column: 0)
      return left == right ? lhs.offset < rhs.offset : left < right
    }.map(\.element)
    var output = ""
    let lines = source.map {
      String(decoding: $0, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
    }
    for diagnostic in diagnostics {
      output += diagnostic.formatted(file: file) + "\n"
      if let position = diagnostic.position, let lines, position.line <= lines.count {
        let line = lines[position.line - 1]
        // The column counts UTF-8 bytes; keep tabs so the caret lines up under the same characters.
        let before = String(decoding: line.utf8.prefix(max(0, position.column - 1)), as: UTF8.self)
        output += line + "\n" + String(before.map { $0 == "\t" ? "\t" : " " }) + "^\n"
      }
    }
    Console.diagnostic(
      String(output.dropLast()),
      records: diagnostics.map { diagnostic -> [String: Any] in
        var record: [String: Any] = [
          "file": file, "severity": diagnostic.severity.rawValue, "keyPath": diagnostic.keyPath,
          "message": diagnostic.message,
        ]
        if let position = diagnostic.position {
          record["line"] = position.line
          record["column"] = position.column
        }
        return record
      })
  }
}
