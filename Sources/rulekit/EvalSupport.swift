import ArgumentParser
import Foundation
import PredicateSyntax

/// The predicate text `eval` reads, and the name its diagnostics use.
struct RuleSource {
  var text: String
  var name: String

  /// From --predicate, --rule FILE, or standard input, in that order of preference.
  static func read(predicate: String?, rule: String?) throws -> RuleSource {
    if let predicate { return RuleSource(text: predicate, name: "<predicate>") }
    if let rule { return RuleSource(text: try readFile(rule), name: rule) }
    let data = FileHandle.standardInput.readDataToEndOfFile()
    guard let text = String(data: data, encoding: .utf8) else {
      throw CommandDiagnostic.plain("<stdin>: error: standard input is not UTF-8 text", exitCode: 65)
    }
    return RuleSource(text: text, name: "<stdin>")
  }

  /// A UTF-8 text file; 66 when it does not exist, 74 when it cannot be read.
  static func readFile(_ path: String) throws -> String {
    guard FileManager.default.fileExists(atPath: path) else {
      throw CommandDiagnostic.plain("\(path): error: no such file", exitCode: 66)
    }
    let data: Data
    do {
      data = try Data(contentsOf: URL(fileURLWithPath: path))
    } catch {
      throw CommandDiagnostic.plain(
        "\(path): error: cannot read the file: \(error.localizedDescription)", exitCode: 74)
    }
    guard let text = String(data: data, encoding: .utf8) else {
      throw CommandDiagnostic.plain("\(path): error: the file is not UTF-8 text", exitCode: 65)
    }
    return text
  }
}

/// Prints a diagnostic to standard error and ends the command with an exit code.
enum CommandDiagnostic {
  static func plain(_ message: String, exitCode: Int32) -> ExitCode {
    FileHandle.standardError.write(Data((message + "\n").utf8))
    return ExitCode(exitCode)
  }

  /// `file:line:column: error: message`, the source line, and a caret line under the range, as
  /// `PredicateDiagnostic.rendered(source:fileName:)` prints them; with `json`, the same diagnostic as a
  /// `{"diagnostics": [...]}` document.
  static func report(
    file: String, text: String, diagnostic: PredicateDiagnostic, exitCode: Int32, json: Bool = false
  ) -> ExitCode {
    let message =
      json
      ? PredicateDiagnosticRecord.json([diagnostic.record(fileName: file)])
      : diagnostic.rendered(source: text, fileName: file)
    return plain(message, exitCode: exitCode)
  }

  static func report(
    file: String, text: String, range: SourceRange, message: String, exitCode: Int32, json: Bool = false
  ) -> ExitCode {
    report(
      file: file, text: text,
      diagnostic: PredicateDiagnostic(severity: .error, message: message, range: range),
      exitCode: exitCode, json: json)
  }
}
