import ActivationRules
import ArgumentParser
import Foundation
import PredicateSyntax

/// The options every subcommand that reads one rule shares: `--rule FILE`, `--predicate TEXT`, or standard
/// input when neither is given.
struct RuleInput: ParsableArguments {
  @Option(
    name: .long, help: "A predicate file, a rule plist, or an extension Info.plist.", completion: .file())
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
    return try Self.loadRule(path: rule)
  }

  /// Reads `--rule FILE`: predicate text as it is; from a plist, the rule at `NSExtension ›
  /// NSExtensionAttributes › NSExtensionActivationRule` (or a rule plist), a dictionary rule as the
  /// predicate Apple evaluates for it. Diagnostics then point into the plist.
  static func loadRule(path: String) throws -> RuleSource {
    var source = try load(path: path)
    let file: RuleFile
    do {
      file = try RuleFile(path: path, data: Data(source.bytes))
    } catch {
      throw RulesCLI.report(error, file: nil, path: path)
    }
    guard file.form != .predicateFile else { return source }
    source.ruleFile = file
    switch file.value {
    case .predicate(let text):
      source.bytes = Array(text.utf8)
    case .dictionary(let dictionary):
      let predicate = DictionaryConverter.predicate(for: dictionary, style: .apple)
      source.bytes = Array(PredicatePrinter.pretty(predicate).utf8)
    }
    return source
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
  /// The plist the rule was found in; `nil` for predicate text.
  var ruleFile: RuleFile?

  /// The predicate text.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The text diagnostics quote: the whole plist when the rule came from one.
  var quotedText: String { ruleFile?.contents ?? text }

  /// `diagnostic` with its positions in the file the user gave (the plist, not the decoded predicate).
  func located(_ diagnostic: PredicateDiagnostic) -> PredicateDiagnostic {
    guard let ruleFile else { return diagnostic }
    var located = diagnostic
    located.range = fileRange(diagnostic.range, in: ruleFile)
    if var fix = located.fix {
      fix.range = fileRange(fix.range, in: ruleFile)
      located.fix = fix
    }
    return located
  }

  private func fileRange(_ range: SourceRange, in file: RuleFile) -> SourceRange {
    guard case .predicate = file.value else {
      return SourceRange(start: file.rulePosition, end: file.rulePosition)
    }
    return SourceRange(
      start: file.filePosition(ofPredicateOffset: range.start.offset),
      end: file.filePosition(ofPredicateOffset: range.end.offset))
  }
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
    CommandOutput.report(
      diagnostics.map(source.located), source: source.quotedText, fileName: source.displayName)
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
