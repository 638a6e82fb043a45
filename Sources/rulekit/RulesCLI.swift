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
    let line = TextPositions.line(position.line, in: source)
    if !line.isEmpty {
      lines.append(line)
      let prefix = line.unicodeScalars.prefix(Swift.max(position.column - 1, 0)).map {
        $0 == "\t" ? "\t" : " "
      }
      lines.append(prefix.joined() + "^")
    }
    return lines.joined(separator: "\n")
  }
}
