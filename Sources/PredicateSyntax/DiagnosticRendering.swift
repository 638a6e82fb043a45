#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PredicateDiagnostic {
  /// The diagnostic as a compiler prints it:
  ///
  /// ```
  /// FILE:LINE:COLUMN: error: MESSAGE
  /// the source line
  ///           ^~~~~
  ///           FIX
  /// ```
  ///
  /// The caret line copies the source line's tabs so it lines up in a terminal; `~` covers the rest of the
  /// range on that line. When there is a fix, its replacement text is printed under the text it replaces
  /// (the way clang shows fix-its).
  ///
  /// - Parameters:
  ///   - source: the text the diagnostic's positions refer to.
  ///   - fileName: what to print before the position (`<stdin>` for standard input, for example).
  public func rendered(source: String, fileName: String) -> String {
    let position = range.start
    var lines = ["\(fileName):\(position.line):\(position.column): \(severity.rawValue): \(message)"]
    guard position.line >= 1, let sourceLine = SourceLines(source).line(position.line) else {
      return lines.joined(separator: "\n")
    }
    let fullScalars = Array(sourceLine.unicodeScalars)
    // A very long line (a minified rule, a megabyte on one line) is shown as a window around the column.
    let window = Self.window(lineLength: fullScalars.count, column: position.column)
    let marker: [Unicode.Scalar] = ["…"]
    let scalars =
      (window.lowerBound > 0 ? marker : []) + fullScalars[window]
      + (window.upperBound < fullScalars.count ? marker : [])
    let shift = window.lowerBound - (window.lowerBound > 0 ? 1 : 0)
    var shown = String.UnicodeScalarView()
    shown.append(contentsOf: scalars)
    lines.append(String(shown))
    let startIndex = Swift.max(position.column - 1 - shift, 0)
    let endColumn = range.end.line == position.line ? range.end.column : fullScalars.count + 1
    let length = Swift.min(
      Swift.max(endColumn - position.column, 1), Swift.max(scalars.count - startIndex, 1))
    let lead = indentation(matching: scalars, upTo: startIndex)
    lines.append(lead + "^" + String(repeating: "~", count: length - 1))
    if let fix, !fix.replacement.isEmpty, fix.range.start.line == position.line,
      !fix.replacement.contains(where: \.isNewline), fix.range.start.column - 1 >= shift
    {
      lines.append(
        indentation(matching: scalars, upTo: Swift.max(fix.range.start.column - 1 - shift, 0))
          + fix.replacement)
    }
    return lines.joined(separator: "\n")
  }

  /// Lines up to this many scalars are shown whole; longer ones as a window of this size.
  static let longLineLimit = 400

  /// The scalar indexes of a line to show: all of a short line, else 120 scalars around `column`.
  static func window(lineLength: Int, column: Int) -> Range<Int> {
    guard lineLength > longLineLimit else { return 0..<lineLength }
    let lower = Swift.min(Swift.max(column - 1 - 60, 0), Swift.max(lineLength - 120, 0))
    return lower..<Swift.min(lower + 120, lineLength)
  }

  /// Spaces (and the source's own tabs) that reach `column` of a line.
  private func indentation(matching scalars: [Unicode.Scalar], upTo count: Int) -> String {
    var result = ""
    for index in 0..<count {
      result += index < scalars.count && scalars[index] == "\t" ? "\t" : " "
    }
    return result
  }

  /// The machine-readable form of `rendered(source:fileName:)`.
  public func record(fileName: String) -> PredicateDiagnosticRecord {
    PredicateDiagnosticRecord(
      file: fileName, line: range.start.line, column: range.start.column, severity: severity,
      message: message,
      range: range, fix: fix)
  }
}

/// A diagnostic with its file name, as written in JSON output.
public struct PredicateDiagnosticRecord: Sendable, Hashable, Codable {
  /// The rule file the diagnostic is about, as given on the command line.
  public var file: String
  /// The 1-based line in `file` (the rule's own line offset already added).
  public var line: Int
  /// The 1-based column in `file`, in Unicode scalars.
  public var column: Int
  /// Whether it stops the rule from being read (error) or only deserves attention (warning).
  public var severity: DiagnosticSeverity
  /// What is wrong, in one sentence.
  public var message: String
  /// The predicate text it points at, relative to the rule text.
  public var range: SourceRange
  /// The edit that repairs it, when one is known.
  public var fix: PredicateFix?

  /// Records as a JSON document `{"diagnostics": [...]}` with sorted keys.
  public static func json(_ records: [PredicateDiagnosticRecord]) -> String {
    struct Document: Encodable { var diagnostics: [PredicateDiagnosticRecord] }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(Document(diagnostics: records)) else {
      return "{\"diagnostics\":[]}"
    }
    return String(decoding: data, as: UTF8.self)
  }
}

/// Finds lines by number; `\n`, `\r\n` and a lone `\r` all end a line, as in the lexer.
struct SourceLines {
  private let text: String

  init(_ text: String) { self.text = text }

  func line(_ number: Int) -> String? {
    var current = 1
    var line = ""
    var previousWasCarriageReturn = false
    for scalar in text.unicodeScalars {
      if scalar == "\n" && previousWasCarriageReturn {
        previousWasCarriageReturn = false
        continue
      }
      previousWasCarriageReturn = scalar == "\r"
      if scalar == "\n" || scalar == "\r" {
        if current == number { return line }
        current += 1
        if current > number { return nil }
        continue
      }
      if current == number { line.unicodeScalars.append(scalar) }
    }
    return current == number ? line : nil
  }
}
