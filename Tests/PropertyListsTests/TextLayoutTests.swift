import Testing

@testable import PropertyLists

/// The line table and the UTF-8 check read eight bytes at a time; these compare them with the byte-by-byte
/// definitions on texts whose line breaks and non-ASCII bytes fall at every place in a word.
@Suite("Line starts and UTF-8 validity, word at a time")
struct TextLayoutTests {
  /// Line starts by definition: after each LF, and after each CR not followed by LF.
  static func lineStarts(_ bytes: [UInt8]) -> [Int] {
    var starts = [0]
    for (index, byte) in bytes.enumerated() {
      if byte == 10 || (byte == 13 && (index + 1 == bytes.count || bytes[index + 1] != 10)) {
        starts.append(index + 1)
      }
    }
    return starts
  }

  @Test("line starts match the definition for every placement of LF, CR, CRLF, tabs and other controls")
  func lineStartsMatch() {
    var generator = SystemRandomNumberGenerator()
    let pieces: [[UInt8]] = [
      [10], [13], [13, 10], [9], [11], [12], [0x0E], [0x20], Array("abc".utf8), [0xC3, 0xA9],
    ]
    for length in 0..<40 {
      for _ in 0..<50 {
        var bytes: [UInt8] = []
        while bytes.count < length { bytes += pieces.randomElement(using: &generator) ?? [] }
        #expect(LineTable(bytes).starts == Self.lineStarts(bytes), "\(bytes)")
      }
    }
  }

  @Test(
    "the first invalid UTF-8 offset is found wherever it falls in a word",
    arguments: 0..<20)
  func firstInvalidOffset(_ position: Int) {
    var bytes = Array(repeating: UInt8(ascii: "a"), count: 20)
    #expect(firstInvalidUTF8Offset(bytes) == nil)
    bytes[position] = 0xFF
    #expect(firstInvalidUTF8Offset(bytes) == position)
    bytes[position] = 0xC3  // a lead byte whose continuation is missing or ASCII
    #expect(firstInvalidUTF8Offset(bytes) == position)
    if position + 1 < bytes.count {
      bytes[position + 1] = 0xA9
      #expect(firstInvalidUTF8Offset(bytes) == nil)
    }
  }
}
