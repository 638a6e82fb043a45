import ArgumentParser
import Foundation
import PredicateSyntax

/// The options every subcommand that reads one rule shares: `--rule FILE`, `--predicate TEXT`, or standard
/// input when neither is given.
struct RuleInput: ParsableArguments {
  @Option(name: .long, help: "A file holding the rule: predicate text.", completion: .file())
  var rule: String?

  @Option(name: .long, help: "The predicate text itself.")
  var predicate: String?

  func validate() throws {
    if rule != nil && predicate != nil {
      throw ValidationError("Give either --rule or --predicate, not both.")
    }
  }

  /// Reads the rule's text from wherever it was given.
  func read() throws -> RuleSource {
    if let predicate {
      return RuleSource(bytes: Array(predicate.utf8), displayName: "<predicate>", fileURL: nil)
    }
    guard let rule else {
      let data = FileHandle.standardInput.readDataToEndOfFile()
      return RuleSource(bytes: Array(data), displayName: "<stdin>", fileURL: nil)
    }
    return try Self.load(path: rule)
  }

  /// Reads `--rule FILE`. A plain predicate file is its own rule; this is the one place that learns to find
  /// the rule inside a plist.
  static func load(path: String) throws -> RuleSource {
    let url = URL(fileURLWithPath: path)
    var isDirectory: ObjCBool = false
    guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
      CommandOutput.error("\(path): no such file")
      throw ExitCode(66)
    }
    if isDirectory.boolValue {
      CommandOutput.error("\(path): cannot read: it is a directory; pass the file inside it")
      throw ExitCode(74)
    }
    do {
      let data = try Data(contentsOf: url)
      return RuleSource(bytes: Array(data), displayName: path, fileURL: url)
    } catch {
      CommandOutput.error("\(path): cannot read: \(error.localizedDescription)")
      throw ExitCode(74)
    }
  }
}

/// Rule text and where it came from.
struct RuleSource {
  var bytes: [UInt8]
  /// The name diagnostics print: the path, `<stdin>` or `<predicate>`.
  var displayName: String
  /// The file, when the rule came from one (`--in-place` writes it back).
  var fileURL: URL?

  var text: String { String(decoding: bytes, as: UTF8.self) }
}

/// How diagnostics are written to standard error.
enum DiagnosticFormat: String, ExpressibleByArgument, CaseIterable {
  case text
  case json
}

/// Options for reading predicate text, shared by the subcommands that parse.
struct ParsingOptions: ParsableArguments {
  @Flag(help: "Accept typographic quotes (“ ” ‘ ’) as string delimiters, with a warning.")
  var lenient = false

  @Option(help: "How to write diagnostics: text or json.")
  var format: DiagnosticFormat = .text

  /// Parses the rule, printing warnings and errors the chosen way; a syntax error exits with 65.
  func parse(_ source: RuleSource) throws -> PredicateNode {
    let options = PredicateParser.Options(lenient: lenient)
    do {
      let result = try PredicateParser.parse(utf8: source.bytes, options: options)
      report(result.warnings, source: source)
      return result.predicate
    } catch {
      report(error.warnings + [error.diagnostic], source: source)
      throw ExitCode(65)
    }
  }

  private func report(_ diagnostics: [PredicateDiagnostic], source: RuleSource) {
    guard !diagnostics.isEmpty else { return }
    switch format {
    case .text:
      for diagnostic in diagnostics {
        CommandOutput.standardError(diagnostic.rendered(source: source.text, fileName: source.displayName))
      }
    case .json:
      CommandOutput.standardError(
        PredicateDiagnosticRecord.json(diagnostics.map { $0.record(fileName: source.displayName) }))
    }
  }
}

/// Writing to the standard streams.
enum CommandOutput {
  static func standardError(_ text: String) {
    FileHandle.standardError.write(Data((text + "\n").utf8))
  }

  static func error(_ message: String) {
    standardError("rulekit: error: \(message)")
  }
}
