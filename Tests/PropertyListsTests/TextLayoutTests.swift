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

  /// A project file on one line (or broken by U+2028, which is no line break here) took seconds to read:
  /// each node's column was counted from the line's start. Columns inside long lines now start from
  /// checkpoints; they must be the columns counted from the line's start, multibyte characters included.
  @Test("positions in long lines equal the columns counted from the line's start")
  func positionsInLongLines() {
    var generator = SystemRandomNumberGenerator()
    let pieces: [[UInt8]] = [
      Array("abc".utf8), [0x20], [0xC3, 0xA9], [0xE2, 0x80, 0xA8], [0xF0, 0x9F, 0x98, 0x80], [10], [13, 10],
    ]
    for length in [0, 255, 256, 257, 600, 3_000] {
      for round in 0..<8 {
        var bytes: [UInt8] = []
        // Half the texts without line breaks: one line of `length` bytes.
        let usable = round % 2 == 0 ? pieces.dropLast(2) : pieces[...]
        while bytes.count < length { bytes += usable.randomElement(using: &generator) ?? [] }
        let table = LineTable(bytes)
        let starts = Self.lineStarts(bytes)
        for offset in 0...bytes.count {
          let line = starts.lastIndex { $0 <= offset } ?? 0
          let column = 1 + bytes[starts[line]..<offset].filter { $0 & 0xC0 != 0x80 }.count
          let position = table.position(of: offset, in: bytes)
          #expect(
            position.line == line + 1 && position.column == column, "offset \(offset) of \(bytes.count)")
        }
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
