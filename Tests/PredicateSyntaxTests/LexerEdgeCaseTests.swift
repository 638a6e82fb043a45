import Testing

@testable import PredicateSyntax

/// The lexer's word-at-a-time and table-driven paths (issue 18, part 12) against what each token must be, at
/// every distance from the end of the input: the fast paths need 8 or 16 bytes after the token's start and
/// fall back to byte-by-byte code near the end, so every case runs with and without a long tail.
@Suite struct LexerEdgeCaseTests {
  /// Appended after the token under test: nothing, a separator, and a tail long enough for the word paths.
  static let tails = ["", " ", "\n", ")", " == 1" + String(repeating: " ", count: 24) + "AND b == 2"]

  private func tokens(_ text: String) throws -> [Token] {
    let bytes = Array(text.utf8)
    return try bytes.withUnsafeBufferPointer { buffer in
      var lexer = Lexer(bytes: buffer, lenient: false)
      return try lexer.tokenize()
    }
  }

  /// Upper, lower and alternating case of `word`.
  static func spellings(_ word: String) -> [String] {
    let alternating = String(
      word.enumerated().map { $0.offset % 2 == 0 ? Character($0.element.lowercased()) : $0.element })
    return [word.uppercased(), word.lowercased(), alternating]
  }

  @Test(arguments: Keyword.allCases)
  func keywordsAreFoundInAnyCaseAtAnyDistanceFromTheEnd(keyword: Keyword) throws {
    for spelling in Self.spellings(keyword.rawValue) {
      for tail in Self.tails {
        let first = try #require(try tokens(spelling + tail).first)
        #expect(first.kind == .keyword(keyword), "\(spelling + tail)")
        #expect(first.range.byteRange == 0..<spelling.utf8.count)
        #expect(first.range.end.column == spelling.utf8.count + 1)
        // One more name character makes it an identifier (`UTI-…` then ends at `UTI`).
        let longer = try #require(try tokens(spelling + "x" + tail).first)
        #expect(longer.kind == .identifier, "\(spelling)x\(tail)")
        let expectedLength = keyword.rawValue.hasPrefix("UTI-") ? 3 : spelling.utf8.count + 1
        #expect(longer.range.byteRange == 0..<expectedLength, "\(spelling)x\(tail)")
      }
    }
  }

  @Test(arguments: ["UTI-CONFORMS", "UTI-CONFORMS-T", "UTI-EQUAL", "UTI-", "UTI--EQUALS", "UTI-EQUALS_"])
  func partialUTIOperatorsStopAtUTI(text: String) throws {
    for tail in Self.tails {
      let first = try #require(try tokens(text + tail).first)
      #expect(first.kind == .identifier, "\(text + tail)")
      #expect(first.range.byteRange == 0..<3)
    }
  }

  /// Names of every length up to 40, including those that start like keywords, end where the name does.
  @Test(arguments: [
    "a", "_", "Z9", "ANDX", "ORDER", "SUBQUERYS", "TRUEPREDICATEX", "FALSEPREDICATE_", "UTIX", "x1234567",
  ])
  func namesOfEveryLengthEndWhereTheyEnd(prefix: String) throws {
    for length in prefix.utf8.count...40 {
      let name = prefix + String(repeating: "k", count: length - prefix.utf8.count)
      for tail in Self.tails + [".b", "\"é\"", "-c"] {
        let first = try #require(try tokens(name + tail).first)
        #expect(first.kind == .identifier, "\(name + tail)")
        #expect(first.range.byteRange == 0..<length, "\(name + tail)")
      }
    }
  }

  /// String literals of up to 24 bytes with one special byte sequence at every position: the eight-byte scan
  /// must stop at it and the slow path decode it.
  @Test(arguments: [
    ("\\n", "\n"), ("\\\\", "\\"), ("\\\"", "\""), ("\\'", "'"), ("\\u00e9", "é"), ("\\x41", "A"),
    ("\\101", "A"), ("\\ud83d\\ude00", "\u{1F600}"), ("é", "é"), ("日", "日"), ("\t", "\t"), ("\u{1}", "\u{1}"),
    ("'", "'"), ("", ""),
  ])
  func stringLiteralsDecodeWithTheSpecialByteAnywhere(written: String, value: String) throws {
    for length in 0...24 {
      for position in 0...length {
        let before = String(repeating: "a", count: position)
        let after = String(repeating: "b", count: length - position)
        for tail in ["", " AND b == 1" + String(repeating: " ", count: 16)] {
          let text = "x == \"\(before)\(written)\(after)\"" + tail
          let tree = try PredicateParser.parse(text)
          let comparison = try #require(Self.firstComparison(tree), "\(text)")
          #expect(comparison.rhs.kind == .constant(.string(before + value + after)), "\(text)")
          #expect(comparison.rhs.range.byteRange == 5..<(text.utf8.count - tail.utf8.count), "\(text)")
        }
      }
    }
  }

  @Test(arguments: ["\"abc", "'abc\"", "\"ab\ncd", "\"" + String(repeating: "x", count: 30)])
  func unterminatedStringsAreReportedAtTheirOpeningQuote(literal: String) {
    do {
      _ = try PredicateParser.parse("a == " + literal)
      Issue.record("\(literal) parsed")
    } catch {
      #expect(error.kind == .unterminatedString)
      #expect(error.diagnostic.range.start.offset == 5)
    }
  }

  @Test(arguments: [
    ("0x1F", Constant.integer(31)), ("0X1f", .integer(31)), ("0o17", .integer(15)), ("0O17", .integer(15)),
    ("0b101", .integer(5)), ("0B101", .integer(5)), ("007", .integer(7)), ("0", .integer(0)),
    ("1e5", .double(1e5)), ("1E-5", .double(1e-5)), ("1.5e+3", .double(1500)), ("2.25", .double(2.25)),
    ("9223372036854775807", .integer(Int.max)), ("18446744073709551616", .double(18_446_744_073_709_551_616)),
    ("0xFFFFFFFFFFFFFFFFF", .double(295_147_905_179_352_825_855)),
  ])
  func numbersInEveryForm(written: String, value: Constant) throws {
    for tail in ["", " AND b == 1" + String(repeating: " ", count: 16)] {
      let text = "a == " + written + tail
      let comparison = try #require(Self.firstComparison(try PredicateParser.parse(text)))
      #expect(comparison.rhs.kind == .constant(value), "\(text)")
      #expect(comparison.rhs.range.byteRange == 5..<(5 + written.utf8.count))
    }
  }

  @Test(arguments: [
    ("0x", "expected base-16 digits after '0x'", 5..<7), ("0b2", "expected base-2 digits after '0b'", 5..<8),
    ("12abc", "invalid number '12abc'", 5..<10), ("1.2.3", "", 0..<0),
    ("0o8", "expected base-8 digits after '0o'", 5..<8),
  ])
  func malformedNumbersKeepTheirMessagesAndRanges(written: String, message: String, range: Range<Int>) {
    do {
      _ = try PredicateParser.parse("a == " + written)
      Issue.record("\(written) parsed")
    } catch {
      // `1.2.3` reads `1.2`, then `.3` is an unexpected key: not a number error.
      if message.isEmpty { return }
      #expect(error.kind == .invalidNumber, "\(written)")
      #expect(error.diagnostic.message == message)
      #expect(error.diagnostic.range.byteRange == range)
    }
  }

  @Test(arguments: [
    ("$x", ExpressionNode.Kind.variable("x")), ("$_long_variable_name_1", .variable("_long_variable_name_1")),
    ("@count", .keyPath(base: nil, components: [.collectionOperator("count")])),
    ("#size", .keyPath(base: nil, components: [.key("size")])),
    ("#AND", .keyPath(base: nil, components: [.key("AND")])),
    ("#uti", .keyPath(base: nil, components: [.key("uti")])),
  ])
  func sigilsBeforeNames(written: String, kind: ExpressionNode.Kind) throws {
    for tail in ["", " AND b == 1" + String(repeating: " ", count: 16)] {
      let text = written + " == 1" + tail
      let comparison = try #require(Self.firstComparison(try PredicateParser.parse(text)))
      #expect(comparison.lhs.kind == kind, "\(text)")
      #expect(comparison.lhs.range.byteRange == 0..<written.utf8.count)
    }
  }

  @Test(arguments: [
    ("$ == 1", "expected a variable name after '$'"),
    ("@1 == 1", "expected a collection operator name after '@'"),
    ("# == 1", "expected an identifier after '#'"), ("a == $", "expected a variable name after '$'"),
    ("a == #", "expected an identifier after '#'"), ("a == 1 ~", "unexpected character '~'"),
    ("a == 1 &", "unexpected character '&' (did you mean '&&'?)"),
    ("a | b", "unexpected character '|' (did you mean '||'?)"),
    ("a == 1 ?", "unexpected character '?' ('?' is only a wildcard inside LIKE patterns)"),
    ("名前 == 1", "unexpected character '名' (U+540D)"), ("a == 1 \u{7F}", "unexpected character U+007F"),
    ("a : b", "unexpected character ':'"), (#"a \ b"#, #"unexpected character '\'"#),
    (
      #"ANY a UTI-CONFORMS-TO \"public.image\""#,
      #"unexpected character '\' (a backslash escapes a quote only inside a string; remove it: \" is Swift, "#
        + "JSON or shell quoting, not part of the rule)"
    ),
  ])
  func unexpectedCharactersKeepTheirMessages(text: String, message: String) {
    for tail in ["", String(repeating: " ", count: 20)] {
      do {
        _ = try PredicateParser.parse(text + tail)
        Issue.record("\(text) parsed")
      } catch {
        #expect(error.kind == .unexpectedCharacter, "\(text)")
        #expect(error.diagnostic.message == message, "\(text)")
      }
    }
  }

  /// Indentation of every width up to 20, with tabs, CRLF and lone CR line breaks: lines and columns after it.
  @Test(arguments: ["\n", "\r\n", "\r", "\n\t"])
  func positionsAfterIndentation(lineBreak: String) throws {
    for width in 0...20 {
      let indent = String(repeating: " ", count: width)
      let text = "a == 1" + lineBreak + indent + "OR b == 2"
      guard case .or(_, let right) = try PredicateParser.parse(text).kind else {
        Issue.record("\(text) is not an OR")
        continue
      }
      let tabs = lineBreak.hasSuffix("\t") ? 1 : 0
      #expect(right.range.start.line == 2, "\(width)")
      #expect(right.range.start.column == width + tabs + 4, "\(width)")
      #expect(right.range.start.offset == 6 + lineBreak.utf8.count + width + 3)
    }
  }

  static func firstComparison(_ node: PredicateNode) -> Comparison? {
    switch node.kind {
    case .comparison(let comparison): comparison
    case .and(let left, _), .or(let left, _): firstComparison(left)
    case .not(let inner): firstComparison(inner)
    default: nil
    }
  }
}
