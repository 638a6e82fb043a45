// The lexer's scanning eight bytes at a time: names, and the packed spelling keywords are looked up by.
//
// Each function treats a `UInt64` loaded from the input as eight bytes (little-endian: the first byte is the
// lowest) and computes, for all eight at once, a mask with the high bit of a byte set where the byte is in a
// class. For a byte below 0x80, `byte + (0x80 - bound)` has its high bit set exactly when `byte >= bound`,
// and never carries into the next byte; bytes of 0x80 and above are masked out first and never in a class.

extension Lexer {
  private static let ones: UInt64 = 0x0101_0101_0101_0101
  static let highBits: UInt64 = 0x8080_8080_8080_8080

  /// The high bit of each byte of `ascii` (bytes below 0x80) that is at least `bound`.
  private static func atLeast(_ ascii: UInt64, _ bound: UInt8) -> UInt64 {
    ascii &+ ones &* UInt64(0x80 &- bound)
  }

  /// The high bit of each byte of `ascii` (bytes below 0x80) in `lower...upper`.
  private static func within(_ ascii: UInt64, _ lower: UInt8, _ upper: UInt8) -> UInt64 {
    atLeast(ascii, lower) & ~atLeast(ascii, upper + 1) & highBits
  }

  /// The high bit of each byte of `word` that is a name character: `A-Z`, `a-z`, `0-9` or `_`.
  static func nameBytes(in word: UInt64) -> UInt64 {
    let ascii = word & ~highBits
    // Setting bit 5 maps `A-Z` onto `a-z` and moves no other byte into `a-z`.
    let letters = within(ascii | ones &* 0x20, UInt8(ascii: "a"), UInt8(ascii: "z"))
    let digits = within(ascii, UInt8(ascii: "0"), UInt8(ascii: "9"))
    let underscores = within(ascii, UInt8(ascii: "_"), UInt8(ascii: "_"))
    return (letters | digits | underscores) & ~word
  }

  /// `word`'s bytes with bit 5 cleared: on name characters, `a-z` upper-cased, `A-Z` and `_` kept, and the
  /// digits moved to 0x10-0x19, so it is one instruction where `uppercasedASCII` takes eight. For the keyword
  /// look-up only: it packs a name of letters and `_` exactly as `Keyword.packed` does, and a name with a
  /// digit to bytes no keyword's packing holds (keywords are letters and `-`), so that name still matches
  /// none.
  static func caseFolded(_ word: UInt64) -> UInt64 { word & 0xDFDF_DFDF_DFDF_DFDF }

  /// `word`'s bytes with `a-z` upper-cased (names only: every byte is below 0x80).
  static func uppercasedASCII(_ word: UInt64) -> UInt64 {
    word &- (within(word, UInt8(ascii: "a"), UInt8(ascii: "z")) >> 2)
  }

  /// The high bit of each byte of `word` equal to zero. A byte above a zero byte may be marked too (the
  /// borrow of the subtraction), so only the lowest mark is exact, which is the one the callers use.
  private static func zeroBytes(_ word: UInt64) -> UInt64 {
    (word &- ones) & ~word & highBits
  }

  /// Marks (high bits, the lowest exact) at the bytes of `word` where a plain string literal's content stops:
  /// `delimiter`, a backslash, a control byte (below 0x20) or a non-ASCII byte.
  static func stringStops(in word: UInt64, delimiter: UInt8) -> UInt64 {
    let delimiters = zeroBytes(word ^ (ones &* UInt64(delimiter)))
    let backslashes = zeroBytes(word ^ (ones &* UInt64(UInt8(ascii: "\\"))))
    // Below 0x20: subtracting 0x20 borrows; a byte of 0x80 or more is marked by its own high bit.
    let controls = (word &- ones &* 0x20) & ~word & highBits
    return delimiters | backslashes | controls | (word & highBits)
  }
}

// The input's scanning helpers live on the buffer rather than on `Lexer`: a method of the lexer called from its
// mutating tokenize loop gets a copy of the lexer (about 20 moves per call), a method of the buffer does not.
extension UnsafeBufferPointer<UInt8> {
  /// The eight bytes at `offset`, which must all be in the buffer.
  func word(at offset: Int) -> UInt64 {
    // A loaded UInt64 is in the machine's byte order; little-endian puts the first byte lowest.
    let bytes = UnsafeRawBufferPointer(self)
    return UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
  }

  /// The end of the run of name characters starting at `begin`, eight bytes at a time while eight remain.
  func endOfName(from begin: Int) -> Int {
    var end = begin
    while end + 8 <= count {
      let names = Lexer.nameBytes(in: word(at: end))
      guard names == Lexer.highBits else {
        return end + (~names & Lexer.highBits).trailingZeroBitCount / 8
      }
      end += 8
    }
    while end < count, Lexer.isIdentifierContinuation(self[end]) { end += 1 }
    return end
  }

  /// The name from `begin` up to `end` (at most 16 bytes) packed as `Keyword.packed` packs it.
  func packedName(from begin: Int, to end: Int) -> (low: UInt64, high: UInt64) {
    let length = end - begin
    guard begin + 16 <= count else {
      // Near the end of the input: byte by byte.
      var low: UInt64 = 0
      var high: UInt64 = 0
      for offset in begin..<end {
        let shift = UInt64(truncatingIfNeeded: offset - begin) &* 8
        let value = UInt64(Keyword.asciiUppercased(self[offset]))
        if shift < 64 { low |= value << shift } else { high |= value << (shift &- 64) }
      }
      return (low, high)
    }
    // Keep the name's bytes only: the ones past its end are zero, as `Keyword.packed` fills them.
    func kept(_ bytes: Int) -> UInt64 { bytes >= 8 ? ~0 : bytes <= 0 ? 0 : (1 << UInt64(bytes * 8)) &- 1 }
    let low = Lexer.uppercasedASCII(word(at: begin) & kept(length))
    let high = length > 8 ? Lexer.uppercasedASCII(word(at: begin + 8) & kept(length - 8)) : 0
    return (low, high)
  }
}
