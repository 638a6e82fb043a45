import ActivationRules
import ArgumentParser
import Foundation
import PredicateSyntax

/// Shared plumbing of the rule subcommands: exit codes and diagnostics as DESIGN.md's CLI contract says.
enum RulesCLI {
  /// Exit codes of the CLI contract.
  enum Exit {
    static let problemsFound = ExitCode(1)
    static let usage = ExitCode(2)
    static let invalidInput = ExitCode(65)
    static let missingInput = ExitCode(66)
    static let ioError = ExitCode(74)
  }

  /// Prints `message` as an error (text or JSON, as ``Console`` is set) and returns `code` to throw.
  static func fail(_ message: String, code: ExitCode) -> ExitCode {
    Console.error("rulekit: \(message)", message: message)
    return code
  }

  /// `file:line:column: severity: message`, then the source line and a caret under the column.
  static func diagnostic(
    file: String, position: SourcePosition, severity: String, message: String, source: String
  ) -> String {
    var lines = ["\(file):\(position.line):\(position.column): \(severity): \(message)"]
    var line = TextPositions.line(position.line, in: source)
    var column = position.column
    // A very long line is shown as 120 scalars around the column, as the predicate diagnostics do.
    let scalars = Array(line.unicodeScalars)
    if scalars.count > 400 {
      let lower = Swift.min(Swift.max(column - 1 - 60, 0), scalars.count - 120)
      let upper = lower + 120
      var shown = String.UnicodeScalarView()
      if lower > 0 { shown.append("…") }
      shown.append(contentsOf: scalars[lower..<upper])
      if upper < scalars.count { shown.append("…") }
      line = String(shown)
      column -= lower - (lower > 0 ? 1 : 0)
    }
    if !line.isEmpty {
      lines.append(line)
      let prefix = line.unicodeScalars.prefix(Swift.max(column - 1, 0)).map {
        $0 == "\t" ? "\t" : " "
      }
      lines.append(prefix.joined() + "^")
    }
    return lines.joined(separator: "\n")
  }
}
