/// A position in predicate source text.
///
/// `line` and `column` are 1-based and meant for people: `column` counts Unicode scalars from the start
/// of the line, so a caret lines up under non-ASCII text. `offset` is the 0-based UTF-8 byte offset from
/// the start of the text, meant for programs that edit the text.
public struct SourcePosition: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
  public var line: Int
  public var column: Int
  public var offset: Int

  public init(line: Int, column: Int, offset: Int) {
    self.line = line
    self.column = column
    self.offset = offset
  }

  public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool { lhs.offset < rhs.offset }

  public var description: String { "\(line):\(column)" }
}

/// A half-open range of predicate source text: `start` is the first character, `end` is just past the last.
public struct SourceRange: Sendable, Hashable, Codable, CustomStringConvertible {
  public var start: SourcePosition
  public var end: SourcePosition

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

  public var description: String { "\(start)-\(end)" }

  /// A range for nodes made by code rather than read from text.
  public static let synthesized = SourceRange(
    start: SourcePosition(line: 0, column: 0, offset: 0),
    end: SourcePosition(line: 0, column: 0, offset: 0)
  )
}
