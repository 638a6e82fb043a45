/// A position in predicate source text.
///
/// `line` and `column` are 1-based and meant for people: `column` counts Unicode scalars from the start
/// of the line, so a caret lines up under non-ASCII text. `offset` is the 0-based UTF-8 byte offset from
/// the start of the text, meant for programs that edit the text.
public struct SourcePosition: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  /// The 1-based line.
  public var line: Int
  /// The 1-based column, counted in Unicode scalars from the start of the line.
  public var column: Int
  /// The 0-based UTF-8 byte offset from the start of the text.
  public var offset: Int

  /// A position; the three values must describe the same place in the text.
  public init(line: Int, column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.offset = offset
  }

  /// Orders positions by where they are in the text.
  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }

  /// `line:column`, as diagnostics print it.
  public var description: String { "\(line):\(column)" }
}

/// A half-open range of predicate source text: `start` is the first character, `end` is just past the last.
public struct SourceRange: Sendable, Hashable, Codable, CustomStringConvertible {
  /// The position of the first character in the range.
  public var start: SourcePosition
  /// The position just past the last character; equal to `start` for an empty range.
  public var end: SourcePosition

  /// The range from `start` up to, not including, `end`.
  public init(start: SourcePosition, end: SourcePosition) {
    self.start = start
    self.end = end
  }

  /// The range covering both `self` and `other`.
  public func union(_ other: SourceRange) -> SourceRange {
    SourceRange(start: Swift.min(start, other.start), end: Swift.max(end, other.end))
  }

  /// The UTF-8 byte offsets of this range.
  public var byteRange: Range<Int> { start.offset..<end.offset }

  /// `line:column-line:column`, for debugging.
  public var description: String { "\(start)-\(end)" }

  /// A range for nodes made by code rather than read from text.
  public static let synthesized = SourceRange(
    start: SourcePosition(line: 0, column: 0, offset: 0),
    end: SourcePosition(line: 0, column: 0, offset: 0)
  )
}
