// Small types the descent hands to `SyntaxTreeBuilder`.

/// The two chained predicate levels.
enum Link {
  case or, and
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
