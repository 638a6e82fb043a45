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

extension Token {
  /// What a name, variable, collection operator, format specifier or string token stands for: its bytes
  /// without the sigil or the quotes, or a string literal's decoded value (see `Token.Kind`), as a byte
  /// range of the input or the number of a decoded string.
  var textSpan: TextSpan {
    let bytes = range.byteRange
    switch kind {
    case .escapedIdentifier, .variable, .collectionOperator, .formatSpecifier:
      return .input((bytes.lowerBound + 1)..<bytes.upperBound)
    case .plainString:
      return .input((bytes.lowerBound + 1)..<(bytes.upperBound - 1))
    case .decodedString(let number):
      return .decoded(number)
    default:
      return .input(bytes)
    }
  }
}

/// Where a token's text is: bytes of the input, or a string the lexer decoded.
enum TextSpan {
  case input(Range<Int>)
  case decoded(Int)
}
