import Testing

@testable import PredicateSyntax

/// The lexer's eight-bytes-at-a-time scanning agrees with its byte-at-a-time definitions.
@Suite struct LexerWordTests {
  /// Every byte value, at every position of a word, is classed as `isIdentifierContinuation` classes it.
  @Test func nameBytesClassEveryByteAsTheByteTestDoes() {
    for byte in UInt8.min...UInt8.max {
      for position in 0..<8 {
        // The other bytes are a name character and a non-name one in turn, so carries would show.
        for filler in [UInt8(ascii: "a"), UInt8(ascii: " "), 0xFF, UInt8(ascii: "_")] {
          var bytes = [UInt8](repeating: filler, count: 8)
          bytes[position] = byte
          let word = bytes.enumerated().reduce(UInt64(0)) { $0 | UInt64($1.element) << UInt64($1.offset * 8) }
          let classed = (Lexer.nameBytes(in: word) >> UInt64(position * 8 + 7)) & 1 == 1
          #expect(classed == Lexer.isIdentifierContinuation(byte), "byte \(byte) at \(position)")
        }
      }
    }
  }

  /// The constants the lexer's keyword look-up relies on match the keyword table.
  @Test func keywordConstantsMatchTheSpellings() {
    #expect(Keyword.longestSpelling == Keyword.allCases.map(\.rawValue.utf8.count).max())
    #expect(Keyword.packedUTI == Keyword.packed("uti".utf8).low)
    for keyword in Keyword.allCases {
      let (low, high) = Keyword.packed(keyword.rawValue.lowercased().utf8)
      #expect(Keyword.matching(packedLow: low, high: high) == keyword)
    }
  }

  /// Keywords are found wherever they are in the input, in any case and at any length, including where the
  /// lexer packs them byte by byte near the end of the input.
  @Test func keywordsAreFoundInEveryCaseAndPosition() throws {
    for keyword in Keyword.allCases {
      for spelling in [keyword.rawValue, keyword.rawValue.lowercased()] {
        for text in ["\(spelling)", "a \(spelling) b and some more text after it", "(\(spelling))"] {
          let tokens = try tokens(text)
          #expect(tokens.contains { $0.isKeyword(keyword) }, "\(text)")
        }
      }
    }
    // A name one byte longer or shorter than a keyword, or differing in its last byte, is an identifier.
    for text in ["ANDX", "AN", "ANE", "TRUEPREDICATES and some more text", "truepredicatf", "nullx"] {
      let first = try #require(try tokens(text).first)
      #expect(first.kind == .identifier, "\(text)")
    }
  }

  /// Names of every length end where the byte test ends them, long ones included.
  @Test func namesEndWhereTheByteTestEndsThem() throws {
    for length in 1...40 {
      let name = String((0..<length).map { Character(Unicode.Scalar(UInt8(ascii: "a") + UInt8($0 % 26))) })
      for suffix in ["", " == 1", ".b", "\"é\"", "-c"] {
        let text = name + suffix
        let first = try #require(try tokens(text).first)
        #expect(first.range.byteRange == 0..<length, "\(text)")
      }
    }
  }

  private func tokens(_ text: String) throws -> [Token] {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      var lexer = Lexer(bytes: buffer, lenient: false)
      return try lexer.tokenize()
    }
  }
}
