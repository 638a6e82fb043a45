// The lexer's dispatch table and token storage: what the tokenize loop reads once per token.

/// What a token starting with a byte may be, so the tokenize loop branches once per token (a table load and
/// a jump) instead of testing the byte against each kind of token in turn.
enum ByteClass: UInt8 {
  /// Bytes `next()` reads: digits, quotes, `%`, whitespace, non-ASCII and bytes that start no token.
  case other = 0
  /// `A-Z`, `a-z`, `_`: a name or keyword.
  case nameStart
  /// `( ) { } [ ] , . + - /`: one-byte punctuation whatever follows.
  case punctuation
  /// `= ! < > & | * :`: punctuation of one or two bytes, or (`&`, `|`, `:` alone) an error.
  case punctuationOrPair
  /// `$ @ #`: a sigil before a name.
  case sigil
  /// `"` and `'`: a string literal.
  case quote
  /// `0-9`: a number.
  case digit
}

extension Lexer {
  /// `ByteClass` raw values of the 256 byte values. Made once and never freed: a static array would be
  /// checked for initialisation and bounds on every load.
  // Written once during initialisation, then only read: safe to share between threads.
  nonisolated(unsafe) static let byteClasses: UnsafePointer<UInt8> = {
    let table = UnsafeMutablePointer<UInt8>.allocate(capacity: 256)
    table.initialize(repeating: ByteClass.other.rawValue, count: 256)
    for byte in 0..<128 where isIdentifierStart(UInt8(byte)) { table[byte] = ByteClass.nameStart.rawValue }
    for byte in "(){}[],.+-/".utf8 { table[Int(byte)] = ByteClass.punctuation.rawValue }
    for byte in "=!<>&|*:".utf8 { table[Int(byte)] = ByteClass.punctuationOrPair.rawValue }
    for byte in "$@#".utf8 { table[Int(byte)] = ByteClass.sigil.rawValue }
    for byte in "\"'".utf8 { table[Int(byte)] = ByteClass.quote.rawValue }
    for byte in "0123456789".utf8 { table[Int(byte)] = ByteClass.digit.rawValue }
    return UnsafePointer(table)
  }()

  /// Eight spaces as one little-endian word.
  static let eightSpaces: UInt64 = 0x2020_2020_2020_2020

  /// A mask of the low `count` bytes of a word (`count` at most 8).
  static func keptBytes(_ count: Int) -> UInt64 {
    count >= 8 ? ~0 : (1 << UInt64(truncatingIfNeeded: count &* 8)) &- 1
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// The end of the name starting at `begin` and, when it is at most 16 bytes, its bytes packed for the
  /// keyword look-up (zero otherwise): the words the scan loads are the ones packed, so a name is read once.
  /// Packed with `Lexer.caseFolded`, which agrees with `Keyword.packed` on names of letters and `_`, the
  /// only names a keyword can be (see there).
  @inline(__always)
  func scanAndPackName(from begin: Int) -> (end: Int, low: UInt64, high: UInt64) {
    guard begin + 16 <= count else {
      let end = endOfName(from: begin)
      if end - begin > 16 { return (end, 0, 0) }
      let (low, high) = packedName(from: begin, to: end)
      return (end, low, high)
    }
    let first = word(at: begin)
    let firstNames = Lexer.nameBytes(in: first)
    if firstNames != Lexer.highBits {
      let length = (~firstNames & Lexer.highBits).trailingZeroBitCount / 8
      return (begin + length, Lexer.caseFolded(first & Lexer.keptBytes(length)), 0)
    }
    let second = word(at: begin + 8)
    let secondNames = Lexer.nameBytes(in: second)
    if secondNames != Lexer.highBits {
      let length = (~secondNames & Lexer.highBits).trailingZeroBitCount / 8
      return (
        begin + 8 + length, Lexer.caseFolded(first),
        Lexer.caseFolded(second & Lexer.keptBytes(length))
      )
    }
    // 16 bytes or more: never a keyword, so not packed.
    return (endOfName(from: begin + 16), 0, 0)
  }

  /// The end of the name starting at `begin`: `endOfName(from:)` with its first two words inlined into the
  /// tokenize loop, for the name after a sigil (`$attachment`), where a call cost more than the scan.
  @inline(__always)
  func endOfShortName(from begin: Int) -> Int {
    guard begin + 16 <= count else { return endOfName(from: begin) }
    let first = Lexer.nameBytes(in: word(at: begin))
    if first != Lexer.highBits { return begin + (~first & Lexer.highBits).trailingZeroBitCount / 8 }
    let second = Lexer.nameBytes(in: word(at: begin + 8))
    if second != Lexer.highBits { return begin + 8 + (~second & Lexer.highBits).trailingZeroBitCount / 8 }
    return endOfName(from: begin + 16)
  }

  /// Whether the bytes at `offset` are `-CONFORMS-TO` (letters in any case) ending the word, compared as
  /// two words: clearing bit 5 of a letter maps exactly its two cases onto the upper-case one.
  func isConformsToSuffix(at offset: Int) -> Bool {
    guard offset + 16 <= count else { return false }
    // "-CONFORM" and "S-TO", little-endian; the masks keep bit 5 of the hyphens.
    return word(at: offset) & 0xDFDF_DFDF_DFDF_DFFF == 0x4D52_4F46_4E4F_432D
      && word(at: offset + 8) & 0xDFDF_FFDF == 0x4F54_2D53
      && !Lexer.isIdentifierContinuation(self[offset + 12])
  }

  /// Whether the bytes at `offset` are `-EQUALS` (letters in any case) ending the word.
  func isEqualsSuffix(at offset: Int) -> Bool {
    guard offset + 8 <= count else { return false }
    // "-EQUALS" and the byte after it, which must not continue the word.
    let value = word(at: offset)
    return value & 0x00DF_DFDF_DFDF_DFFF == 0x0053_4C41_5551_452D
      && !Lexer.isIdentifierContinuation(UInt8(truncatingIfNeeded: value >> 56))
  }
}

extension UnsafeBufferPointer<UInt8> {
  /// After `UTI` (ending at `offset`), the keyword and byte count of `-CONFORMS-TO` or `-EQUALS` (any case)
  /// when one follows directly and ends the word, so the hyphens never lex as minus signs.
  @inline(__always)
  func utiOperatorSuffix(at offset: Int) -> (Keyword, Int)? {
    // Two word compares where 16 bytes remain; byte by byte near the end of the input.
    if isConformsToSuffix(at: offset) { return (.utiConformsTo, 12) }
    if isEqualsSuffix(at: offset) { return (.utiEquals, 7) }
    guard offset + 16 > count else { return nil }
    if hasWord("-CONFORMS-TO", at: offset) { return (.utiConformsTo, 12) }
    if hasWord("-EQUALS", at: offset) { return (.utiEquals, 7) }
    return nil
  }

  /// Whether the bytes at `offset` spell `spelling` (upper-case ASCII) in any letter case, and no name
  /// character follows. Compares bytes in place: no array per candidate.
  private func hasWord(_ spelling: StaticString, at offset: Int) -> Bool {
    let length = spelling.utf8CodeUnitCount
    guard offset + length <= count else { return false }
    for position in 0..<length
    where Keyword.asciiUppercased(self[offset + position]) != spelling.utf8Start[position] {
      return false
    }
    return offset + length == count || !Lexer.isIdentifierContinuation(self[offset + length])
  }

  /// After a name that the `:` at `colon` follows, the end of an Objective-C selector name, as Apple spells
  /// function expressions (`sum:`, `add:to:`): `Name ":" ( Name ":" )*`. A name after a colon joins only
  /// when a colon follows it too, so the token always ends with a colon; the parser requires `(` after it.
  /// `:=` is no part of one. The name is contiguous in the input, so the token's bytes spell it.
  func endOfSelectorName(from colon: Int) -> Int {
    var end = colon
    while end < count, self[end] == UInt8(ascii: ":"), end + 1 == count || self[end + 1] != UInt8(ascii: "=")
    {
      end += 1
      var length = 0
      while end + length < count,
        length == 0
          ? Lexer.isIdentifierStart(self[end + length]) : Lexer.isIdentifierContinuation(self[end + length])
      {
        length += 1
      }
      guard length > 0, end + length < count, self[end + length] == UInt8(ascii: ":") else { break }
      end += length
    }
    return end
  }

  /// The decimal integer at `start` (a digit) and its end, when it is digits alone that fit in 64 bits and
  /// no `.` or name character follows them: the common case of `Lexer.number()`, which reads every other.
  @inline(__always)
  func plainDecimalInteger(from start: Int) -> (value: UInt64, end: Int)? {
    var end = start
    var value: UInt64 = 0
    while end < count {
      let digit = self[end] &- UInt8(ascii: "0")
      guard digit < 10 else { break }
      let (shifted, overflow1) = value.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = shifted.addingReportingOverflow(UInt64(digit))
      if overflow1 || overflow2 { return nil }
      value = sum
      end += 1
    }
    if end < count, self[end] == UInt8(ascii: ".") || Lexer.isIdentifierContinuation(self[end]) { return nil }
    return (value, end)
  }
}

/// Tokens in a growing buffer that the parse owns and frees (`Lexer.tokenizeIntoBuffer()`). `Token` is a
/// trivial value, so moving and freeing need no per-element work.
struct TokenBuffer {
  private var base: UnsafeMutablePointer<Token>
  private var capacity: Int
  private var count = 0

  init(capacity: Int) {
    self.capacity = Swift.max(capacity, 4)
    base = PlainMemory.allocate(Token.self, capacity: self.capacity)
  }

  @inline(__always)
  mutating func append(_ token: Token) {
    if count == capacity { grow() }
    var token = token
    token.index = Int32(truncatingIfNeeded: count)
    (base + count).initialize(to: token)
    count += 1
  }

  private mutating func grow() {
    let larger = PlainMemory.allocate(Token.self, capacity: capacity * 2)
    larger.moveInitialize(from: base, count: count)
    PlainMemory.free(base)
    base = larger
    capacity *= 2
  }

  /// The tokens appended; free them with `PlainMemory.free(_:)`.
  var storage: UnsafeMutableBufferPointer<Token> { UnsafeMutableBufferPointer(start: base, count: count) }

  func deallocate() { PlainMemory.free(base) }
}
