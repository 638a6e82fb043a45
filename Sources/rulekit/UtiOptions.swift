import ArgumentParser
import Foundation
import UniformTypes

/// The output format of the `uti` subcommands.
enum UtiOutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text
  case json
}

/// The twin policy as a command-line value.
enum UtiTwinPolicyArgument: String, ExpressibleByArgument, CaseIterable {
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
struct UtiOptions: ParsableArguments {
  @Option(
    name: .customLong("declarations"),
    help: ArgumentHelp(
      "An Info.plist whose UTExportedTypeDeclarations and UTImportedTypeDeclarations to add.",
      valueName: "Info.plist"))
  var declarationsPath: String?

  @Option(help: "How Intune twins (com.microsoft.intune.mam.<type>) conform: literal (as iOS) or mirrored.")
  var twinPolicy: UtiTwinPolicyArgument = .literal

  @Option(help: "Output format.")
  var format: UtiOutputFormat = .text

  /// The system registry, plus the declarations file if one was given. Declaration warnings go to stderr;
  /// errors end the command with exit code 65, a missing file with 66, an unreadable one with 74.
  func registry() throws -> TypeRegistry {
    let system = TypeRegistry.system.withTwinPolicy(twinPolicy.policy)
    guard let declarationsPath else { return system }
    guard FileManager.default.fileExists(atPath: declarationsPath) else {
      UtiDiagnosticPrinter.printError(file: declarationsPath, "no such file", format: format)
      throw ExitCode(66)
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: declarationsPath))
    } catch {
      UtiDiagnosticPrinter.printError(
        file: declarationsPath, "cannot read the file: \(error)", format: format)
      throw ExitCode(74)
    }
    let declarations: AppTypeDeclarations
    do {
      declarations = try AppTypeDeclarations(propertyListData: data)
    } catch {
      UtiDiagnosticPrinter.print([error], file: declarationsPath, source: data, format: format)
      throw ExitCode(65)
    }
    let registry = TypeRegistry(declarations: declarations, twinPolicy: twinPolicy.policy)
    let located = AppTypeDeclarations.locate(registry.diagnostics, in: data)
    UtiDiagnosticPrinter.print(located, file: declarationsPath, source: data, format: format)
    if located.contains(where: { $0.severity == .error }) { throw ExitCode(65) }
    return registry
  }

  /// Prints `value` as pretty JSON with sorted keys, or `text` in the text format.
  func emit(text: @autoclosure () -> String, json value: some Encodable) throws {
    switch format {
    case .text:
      Swift.print(text())
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      let data = try encoder.encode(value)
      Swift.print(String(decoding: data, as: UTF8.self))
    }
  }
}

/// Prints declaration diagnostics to stderr, compiler-style (with the source line and a caret) or as JSON.
enum UtiDiagnosticPrinter {
  private struct JSONDiagnostic: Encodable {
    let file: String
    let line: Int?
    let column: Int?
    let severity: String
    let keyPath: String
    let message: String
  }

  static func printError(file: String, _ message: String, format: UtiOutputFormat) {
    print([TypeDeclarationDiagnostic(.error, at: "", message)], file: file, source: nil, format: format)
  }

  static func print(
    _ diagnostics: [TypeDeclarationDiagnostic], file: String, source: Data?, format: UtiOutputFormat
  ) {
    guard !diagnostics.isEmpty else { return }
    // File order reads best; diagnostics without a position keep their place at the front.
    let diagnostics = diagnostics.enumerated().sorted { lhs, rhs in
      let left = lhs.element.position ?? DeclarationPosition(line: 0, column: 0)
      let right = rhs.element.position ?? DeclarationPosition(line: 0, column: 0)
      return left == right ? lhs.offset < rhs.offset : left < right
    }.map(\.element)
    var output = ""
    switch format {
    case .text:
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
    case .json:
      let entries = diagnostics.map {
        JSONDiagnostic(
          file: file, line: $0.position?.line, column: $0.position?.column, severity: $0.severity.rawValue,
          keyPath: $0.keyPath, message: $0.message)
      }
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
      if let data = try? encoder.encode(["diagnostics": entries]) {
        output = String(decoding: data, as: UTF8.self) + "\n"
      }
    }
    FileHandle.standardError.write(Data(output.utf8))
  }
}
