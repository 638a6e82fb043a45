/// A place in a property list file.
///
/// `line` and `column` are 1-based and meant for people: `column` counts Unicode scalars from the start of
/// the line, as the PredicateSyntax diagnostics do. `offset` is the 0-based UTF-8 byte offset in the file.
public struct PropertyListPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// 1-based line.
  public var line: Int
  /// 1-based column, in Unicode scalars.
  public var column: Int
  /// 0-based UTF-8 byte offset from the start of the file.
  public var offset: Int

  /// A position; the three values must describe the same place in the file.
  public init(line: Int, column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.offset = offset
  }

  /// Orders positions by where they are in the file.
  public static func < (lhs: PropertyListPosition, rhs: PropertyListPosition) -> Bool {
    lhs.offset < rhs.offset
  }

  /// `line:column`, as diagnostics print it.
  public var description: String { "\(line):\(column)" }
}

/// Why reading, editing or writing a property list failed.
///
/// Every error names the file (when there is one), the position (when the problem is inside the text), a
/// message, and where one exists a hint at the fix. ``description`` is the compiler-style one-liner
/// `file:line:column: error: message`.
public struct PropertyListError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The class of problem; callers map it to an exit status. The raw values are stable codes.
  public enum Kind: String, Sendable, Hashable {
    /// The XML is not well formed or not a property list.
    case malformed
    /// The file is not valid UTF-8.
    case invalidEncoding = "invalid-encoding"
    /// A DOCTYPE internal subset or an entity declaration, refused so nothing is fetched or expanded.
    case forbiddenDeclaration = "forbidden-declaration"
    /// A key appears twice in one dictionary; ``PropertyListError/relatedPosition`` is the first one.
    case duplicateKey = "duplicate-key"
    /// An element's text is not a valid value of its type (an integer, real, date or base64 data).
    case invalidValue = "invalid-value"
    /// An edit cannot be applied: its path does not exist or points at the wrong kind of value.
    case invalidEdit = "invalid-edit"
    /// The value cannot be written in the requested format.
    case unsupportedValue = "unsupported-value"
    /// The input is larger or deeper than a bound of ``PropertyListLimits``.
    case limitExceeded = "limit-exceeded"
    /// The input file does not exist.
    case fileNotFound = "file-not-found"
    /// Reading or writing the file failed.
    case io
  }

  /// The class of problem.
  public var kind: Kind
  /// The file the problem is in, when there is one.
  public var path: String?
  /// Where in the file, when the problem is inside the text.
  public var position: PropertyListPosition?
  /// A second position the message refers to (the first occurrence of a duplicate key).
  public var relatedPosition: PropertyListPosition?
  /// What is wrong, in one line.
  public var message: String
  /// How to fix it, when there is an obvious way.
  public var hint: String?

  /// Whether the file has C preprocessor lines (`#if`, `#include` …) and was read without
  /// ``PropertyListPreprocessing``: read with the target's macros, it may well be valid, as Xcode reads it.
  public var needsPreprocessing: Bool { kind == .malformed && hint == XMLPlistParser.preprocessHint }

  /// An error of `kind` saying `message`, in the file at `path` and at `position` when known.
  public init(
    _ kind: Kind,
    _ message: String,
    path: String? = nil,
    position: PropertyListPosition? = nil,
    relatedPosition: PropertyListPosition? = nil,
    hint: String? = nil
  ) {
    self.kind = kind
    self.message = message
    self.path = path
    self.position = position
    self.relatedPosition = relatedPosition
    self.hint = hint
  }

  /// `file:line:column: error: message`, with the parts that are known.
  public var description: String {
    var location = path ?? ""
    if let position {
      location += location.isEmpty ? "\(position)" : ":\(position)"
    }
    let prefix = location.isEmpty ? "error: " : "\(location): error: "
    return prefix + message
  }

  /// The compiler-style diagnostic: ``description``, then the source line and a caret under the column
  /// when the error has a position inside `source` (the file's bytes), then the hint.
  public func rendered(source: [UInt8]) -> String {
    var output = description
    if let position {
      let table = LineTable(source)
      let lineIndex = position.line - 1
      if table.starts.indices.contains(lineIndex) {
        let start = table.starts[lineIndex]
        var end = lineIndex + 1 < table.starts.count ? table.starts[lineIndex + 1] : source.count
        while end > start, source[end - 1] == 10 || source[end - 1] == 13 { end -= 1 }
        var line = String(decoding: source[start..<end], as: UTF8.self)
        var column = position.column
        // A very long line (a minified plist) is shown as 120 scalars around the column.
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
        // Keep tabs in the caret line so the caret lines up under tab-indented text.
        let padding = line.unicodeScalars.prefix(column - 1).map { $0 == "\t" ? "\t" : " " }.joined()
        output += "\n" + line + "\n" + padding + "^"
      }
    }
    if let hint { output += "\nhint: " + hint }
    return output
  }

  /// This error attributed to `path`.
  func inFile(_ path: String?) -> PropertyListError {
    var copy = self
    copy.path = path
    return copy
  }
}
