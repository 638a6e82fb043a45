// Small types the descent hands to `SyntaxTreeBuilder`.

/// The two chained predicate levels.
enum Link {
  case or, and
}

/// The tokens a node was read from, first and last (inclusive): its range is the first's start to the last's
/// end. A node made by code, not read (inside a format argument's value), spans no tokens (-1).
struct TokenSpan: Sendable {
  var first: Int32
  var last: Int32

  static let none = TokenSpan(first: -1, last: -1)

  /// From the start of `self` to the end of `other`.
  @inline(__always)
  func through(_ other: TokenSpan) -> TokenSpan { TokenSpan(first: first, last: other.last) }

  /// The source range, read from `tokens`.
  func range(in tokens: UnsafeBufferPointer<Token>) -> SourceRange {
    guard first >= 0 else { return .synthesized }
    return SourceRange(start: tokens[Int(first)].range.start, end: tokens[Int(last)].range.end)
  }
}

/// What follows `[` in `collection[…]`; `expression` holds the index expression's record.
enum IndexOperand {
  case first, last, size
  case expression(Int32)
}
