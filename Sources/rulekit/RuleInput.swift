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
    switch InputFile.read(path) {
    case .success(let data):
      return RuleSource(
        bytes: Array(data), displayName: InputFile.isStandardInput(path) ? "<stdin>" : path,
        fileURL: InputFile.isStandardInput(path) ? nil : url)
    case .failure(.missing):
      CommandOutput.error("\(path): no such file")
      throw ExitCode(66)
    case .failure(.unreadable(let reason)):
      CommandOutput.error("\(path): cannot read: \(reason)")
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
    CommandOutput.report(diagnostics, source: source.text, fileName: source.displayName)
  }
}

/// Errors of the predicate subcommands (`format`, `parse`, `eval`), written through ``Console``.
enum CommandOutput {
  static func error(_ message: String) {
    Console.error("rulekit: error: \(message)", message: message)
  }

  /// Predicate diagnostics: compiler-style in text mode, records in JSON mode.
  static func report(_ diagnostics: [PredicateDiagnostic], source text: String, fileName: String) {
    guard !diagnostics.isEmpty else { return }
    Console.diagnostic(
      diagnostics.map { $0.rendered(source: text, fileName: fileName) }.joined(separator: "\n"),
      records: diagnostics.compactMap {
        try? Console.jsonObject($0.record(fileName: fileName)) as? [String: Any]
      }
    )
  }
}
