/// Line starts of a text, for turning byte offsets into line:column positions.
struct LineTable: Sendable, Hashable {
  /// Byte offset of the first byte of every line; the first is 0.
  let starts: [Int]

  init(_ bytes: [UInt8]) {
    var starts = [0]
    bytes.withUnsafeBytes { raw in
      let bytes = raw.bindMemory(to: UInt8.self)
      var index = 0
      while index < bytes.count {
        // Eight bytes at a time past those that cannot break a line: only bytes below 0x0E (LF is 0x0A, CR
        // 0x0D) mark a word — `byte - 0x0E` borrows exactly there, and the lowest mark is exact.
        if index + 8 <= bytes.count {
          let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: index, as: UInt64.self))
          let marks = (word &- 0x0E0E_0E0E_0E0E_0E0E) & ~word & 0x8080_8080_8080_8080
          guard marks != 0 else {
            index += 8
            continue
          }
          index += marks.trailingZeroBitCount / 8
        }
        let byte = bytes[index]
        if byte == UInt8(ascii: "\n") {
          starts.append(index + 1)
        } else if byte == UInt8(ascii: "\r"),
          index + 1 >= bytes.count || bytes[index + 1] != UInt8(ascii: "\n")
        {
          starts.append(index + 1)
        }
        index += 1
      }
    }
    self.starts = starts
    // Columns inside long lines from checkpoints, so that positions of many nodes on one line (a project
    // file written on one line, or with U+2028 for line breaks) cost no scan from the line's start each.
    var checkpointOffsets: [Int] = []
    var checkpointColumns: [Int] = []
    for (line, start) in starts.enumerated() {
      let end = line + 1 < starts.count ? starts[line + 1] : bytes.count
      guard end - start > Self.checkpointSpacing else { continue }
      var column = 1
      var offset = start
      while offset + Self.checkpointSpacing < end {
        column += Self.leadBytes(in: bytes, from: offset, to: offset + Self.checkpointSpacing)
        offset += Self.checkpointSpacing
        checkpointOffsets.append(offset)
        checkpointColumns.append(column)
      }
    }
    self.checkpointOffsets = checkpointOffsets
    self.checkpointColumns = checkpointColumns
  }

  /// Byte offsets inside lines longer than `checkpointSpacing`, every `checkpointSpacing` bytes from the
  /// line's start, in order, and the column each is at.
  private let checkpointOffsets: [Int]
  private let checkpointColumns: [Int]
  private static let checkpointSpacing = 256

  /// The number of bytes in `from..<to` that start a Unicode scalar (not UTF-8 continuation bytes).
  private static func leadBytes(in bytes: [UInt8], from: Int, to: Int) -> Int {
    var continuations = 0
    for index in from..<to where bytes[index] & 0xC0 == 0x80 { continuations += 1 }
    return to - from - continuations
  }

  /// The 0-based line index containing `offset`.
  func lineIndex(of offset: Int) -> Int {
    var low = 0
    var high = starts.count - 1
    while low < high {
      let middle = (low + high + 1) / 2
      if starts[middle] <= offset { low = middle } else { high = middle - 1 }
    }
    return low
  }

  /// The text of a 1-based line of `bytes` without its line break; `nil` past the last line.
  func text(ofLine line: Int, in bytes: [UInt8]) -> String? {
    guard line >= 1, line <= starts.count else { return nil }
    let start = starts[line - 1]
    var end = line < starts.count ? starts[line] : bytes.count
    while end > start, bytes[end - 1] == 10 || bytes[end - 1] == 13 { end -= 1 }
    return String(decoding: bytes[start..<end], as: UTF8.self)
  }

  /// The position of `offset`; the column counts Unicode scalars (UTF-8 lead bytes) from the line start.
  func position(of offset: Int, in bytes: [UInt8]) -> PropertyListPosition {
    let line = lineIndex(of: offset)
    var column = 1
    var index = starts[line]
    let end = min(offset, bytes.count)
    if end - index > Self.checkpointSpacing {
      // The last checkpoint at or before `end`; it lies on this line, which is longer than the spacing.
      var low = 0
      var high = checkpointOffsets.count
      while low < high {
        let middle = (low + high) / 2
        if checkpointOffsets[middle] <= end { low = middle + 1 } else { high = middle }
      }
      if low > 0, checkpointOffsets[low - 1] >= index {
        index = checkpointOffsets[low - 1]
        column = checkpointColumns[low - 1]
      }
    }
    column += Self.leadBytes(in: bytes, from: index, to: Swift.max(index, end))
    return PropertyListPosition(line: line + 1, column: column, offset: offset)
  }
}

/// The first byte offset where `bytes` is not valid UTF-8, or `nil` when all of it is.
func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
  var index = 0
  while index < bytes.count {
    // Runs of ASCII, most of a plist or a project file, eight bytes at a time.
    while index + 8 <= bytes.count, asciiWord(bytes, at: index) { index += 8 }
    guard index < bytes.count else { break }
    let lead = bytes[index]
    let length: Int
    var lowerBound: UInt8 = 0x80
    var upperBound: UInt8 = 0xBF
    switch lead {
    case 0x00...0x7F: length = 1
    case 0xC2...0xDF: length = 2
    case 0xE0:
      length = 3
      lowerBound = 0xA0
    case 0xE1...0xEC, 0xEE...0xEF: length = 3
    case 0xED:
      length = 3
      upperBound = 0x9F
    case 0xF0:
      length = 4
      lowerBound = 0x90
    case 0xF1...0xF3: length = 4
    case 0xF4:
      length = 4
      upperBound = 0x8F
    default: return index
    }
    if index + length > bytes.count { return index }
    for continuation in 1..<length {
      let byte = bytes[index + continuation]
      let low = continuation == 1 ? lowerBound : 0x80
      let high = continuation == 1 ? upperBound : 0xBF
      if byte < low || byte > high { return index }
    }
    index += length
  }
  return nil
}

extension UInt8 {
  var isXMLWhitespace: Bool {
    self == 0x20 || self == 0x09 || self == 0x0A || self == 0x0D
  }

  var isXMLNameByte: Bool {
    (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
      || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
      || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
      || self == UInt8(ascii: "_") || self == UInt8(ascii: ":") || self == UInt8(ascii: "-")
      || self == UInt8(ascii: ".") || self >= 0x80
  }
}

extension String {
  /// The string without leading and trailing XML whitespace (space, tab, CR, LF). Byte-level: Foundation's
  /// `trimmingCharacters(in:)` costs a CharacterSet bridge per call, which dominated parsing small plists.
  func trimmingXMLWhitespace() -> String {
    let bytes = utf8
    guard let first = bytes.firstIndex(where: { !$0.isXMLWhitespace }) else { return "" }
    guard let last = bytes.lastIndex(where: { !$0.isXMLWhitespace }) else { return "" }
    if first == bytes.startIndex && last == bytes.index(before: bytes.endIndex) { return self }
    return String(decoding: bytes[first...last], as: UTF8.self)
  }
}

/// Whether the eight bytes at `offset` are all ASCII.
@inline(__always)
private func asciiWord(_ bytes: [UInt8], at offset: Int) -> Bool {
  bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self) } & 0x8080_8080_8080_8080
    == 0
}
