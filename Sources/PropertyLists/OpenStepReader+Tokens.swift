#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The scalar tokens (hexadecimal data, quoted and unquoted strings, escapes in the NeXTSTEP encoding) and
// the whitespace and comments between tokens.

extension OpenStepReader {
  /// Reads `<…>` hexadecimal data at `index`: pairs of hex digits, with whitespace between pairs.
  mutating func readData() throws(PropertyListError) -> Data {
    let start = index
    index += 1
    var data = Data()
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ">") {
        index += 1
        return data
      }
      if let high = byte.hexDigitValue {
        guard index + 1 < bytes.count, let low = bytes[index + 1].hexDigitValue else {
          throw error(
            at: index, "data has an odd number of hex digits: \(describe(index)) has no partner",
            hint: "write every byte as two hex digits (0a, not a)")
        }
        data.append(high << 4 | low)
        index += 2
      } else if let width = dataSpaceWidth(at: index) {
        index += width
      } else {
        throw error(
          at: index, "unexpected \(describeHere()) in <data>",
          hint: "data is hex digits (0-9, a-f) between < and >, optionally separated by spaces")
      }
    }
    throw error(
      at: start, "the data opened here is not closed: the file ends before its '>'", hint: "add the '>'")
  }

  /// The whitespace CoreFoundation allows between data bytes (space, tab, newlines, U+2028, U+2029).
  private func dataSpaceWidth(at offset: Int) -> Int? {
    switch bytes[offset] {
    case 0x20, 0x09, 0x0A, 0x0D: return 1
    default: return lineSeparatorWidth(at: offset)
    }
  }

  mutating func readUnquotedString() -> String {
    let start = index
    while index < bytes.count, bytes[index].isUnquotedStringByte { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Reads a string quoted with the `"` or `'` at `index`, escapes decoded.
  mutating func readQuotedString() throws(PropertyListError) -> String {
    let start = index
    let quote = bytes[index]
    index += 1
    // Most strings have no escape: their bytes are their text.
    let contentStart = index
    while index < bytes.count, bytes[index] != quote, bytes[index] != UInt8(ascii: "\\") { index += 1 }
    if index < bytes.count, bytes[index] == quote {
      index += 1
      return String(decoding: bytes[contentStart..<(index - 1)], as: UTF8.self)
    }
    index = contentStart
    // Escapes give UTF-16 code units (`\UD83D\UDE00` is one emoji), so the text is built as UTF-16; an
    // unpaired surrogate becomes U+FFFD.
    var units: [UInt16] = []
    var runStart = index
    while index < bytes.count, bytes[index] != quote {
      guard bytes[index] == UInt8(ascii: "\\") else {
        index += 1
        continue
      }
      units.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).utf16)
      index += 1
      guard index < bytes.count else { break }
      units.append(contentsOf: readEscape())
      runStart = index
    }
    guard index < bytes.count else {
      throw error(
        at: start,
        "the string opened here is not closed: the file ends before its closing \(Character(Unicode.Scalar(quote)))",
        hint:
          "add the closing quote; write a quote inside the string as \\\(Character(Unicode.Scalar(quote)))")
    }
    units.append(contentsOf: String(decoding: bytes[runStart..<index], as: UTF8.self).utf16)
    index += 1
    return String(decoding: units, as: UTF16.self)
  }

  /// The code units of the escape after a backslash (which is behind `index`).
  private mutating func readEscape() -> [UInt16] {
    let byte = bytes[index]
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "7"):
      // Up to three octal digits, kept to 8 bits as CoreFoundation does, in the NeXTSTEP encoding.
      var value = 0
      var digits = 0
      while digits < 3, index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(bytes[index]) {
        value = (value << 3) + Int(bytes[index] - UInt8(ascii: "0"))
        index += 1
        digits += 1
      }
      return [Self.nextStepCharacter(UInt8(truncatingIfNeeded: value))]
    case UInt8(ascii: "U"):
      index += 1
      var value: UInt16 = 0
      var digits = 0
      while digits < 4, index < bytes.count, let digit = bytes[index].hexDigitValue {
        value = value << 4 | UInt16(digit)
        index += 1
        digits += 1
      }
      return [value]
    default:
      let simple: [UInt8: UInt16] = [
        UInt8(ascii: "a"): 0x07, UInt8(ascii: "b"): 0x08, UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A,
        UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09, UInt8(ascii: "v"): 0x0B,
      ]
      if let unit = simple[byte] {
        index += 1
        return [unit]
      }
      // Any other character stands for itself (`\\`, `\"`, `\'`, a backslash before a newline).
      let end = index + utf8Length(of: byte)
      defer { index = end }
      return Array(String(decoding: bytes[index..<min(end, bytes.count)], as: UTF8.self).utf16)
    }
  }

  /// The character of a byte in the NeXTSTEP encoding (ASCII below 0x80), which octal escapes use.
  static func nextStepCharacter(_ byte: UInt8) -> UInt16 {
    byte < 0x80 ? UInt16(byte) : nextStepUpperHalf[Int(byte) - 0x80]
  }

  /// NeXTSTEP's characters 0x80–0xFF as UTF-16; 0xFE and 0xFF are unassigned and read as U+0000, as
  /// CoreFoundation reads an escape it cannot convert.
  private static let nextStepUpperHalf: [UInt16] = [
    0x00A0, 0x00C0, 0x00C1, 0x00C2, 0x00C3, 0x00C4, 0x00C5, 0x00C7,
    0x00C8, 0x00C9, 0x00CA, 0x00CB, 0x00CC, 0x00CD, 0x00CE, 0x00CF,
    0x00D0, 0x00D1, 0x00D2, 0x00D3, 0x00D4, 0x00D5, 0x00D6, 0x00D9,
    0x00DA, 0x00DB, 0x00DC, 0x00DD, 0x00DE, 0x00B5, 0x00D7, 0x00F7,
    0x00A9, 0x00A1, 0x00A2, 0x00A3, 0x2044, 0x00A5, 0x0192, 0x00A7,
    0x00A4, 0x2019, 0x201C, 0x00AB, 0x2039, 0x203A, 0xFB01, 0xFB02,
    0x00AE, 0x2013, 0x2020, 0x2021, 0x00B7, 0x00A6, 0x00B6, 0x2022,
    0x201A, 0x201E, 0x201D, 0x00BB, 0x2026, 0x2030, 0x00AC, 0x00BF,
    0x00B9, 0x02CB, 0x00B4, 0x02C6, 0x02DC, 0x00AF, 0x02D8, 0x02D9,
    0x00A8, 0x00B2, 0x02DA, 0x00B8, 0x00B3, 0x02DD, 0x02DB, 0x02C7,
    0x2014, 0x00B1, 0x00BC, 0x00BD, 0x00BE, 0x00E0, 0x00E1, 0x00E2,
    0x00E3, 0x00E4, 0x00E5, 0x00E7, 0x00E8, 0x00E9, 0x00EA, 0x00EB,
    0x00EC, 0x00C6, 0x00ED, 0x00AA, 0x00EE, 0x00EF, 0x00F0, 0x00F1,
    0x0141, 0x00D8, 0x0152, 0x00BA, 0x00F2, 0x00F3, 0x00F4, 0x00F5,
    0x00F6, 0x00E6, 0x00F9, 0x00FA, 0x00FB, 0x0131, 0x00FC, 0x00FD,
    0x0142, 0x00F8, 0x0153, 0x00DF, 0x00FE, 0x00FF, 0x0000, 0x0000,
  ]

  // MARK: Whitespace and comments

  /// Skips whitespace and comments; returns whether anything is left.
  mutating func skipSpace() throws(PropertyListError) -> Bool {
    while index < bytes.count {
      let byte = bytes[index]
      if (0x09...0x0D).contains(byte) || byte == 0x20 {
        index += 1
      } else if let width = lineSeparatorWidth(at: index) {
        index += width
      } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "/") {
        index += 2
        while index < bytes.count, bytes[index] != 0x0A, bytes[index] != 0x0D,
          lineSeparatorWidth(at: index) == nil
        {
          index += 1
        }
      } else if byte == UInt8(ascii: "/"), index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "*") {
        index += 2
        // An unclosed comment runs to the end of the file, as CoreFoundation reads it.
        while index < bytes.count,
          !(bytes[index] == UInt8(ascii: "*") && index + 1 < bytes.count
            && bytes[index + 1] == UInt8(ascii: "/"))
        {
          index += 1
        }
        index = min(index + 2, bytes.count)
      } else {
        return true
      }
    }
    return false
  }

  /// 3 when U+2028 or U+2029 (line and paragraph separators, whitespace to CoreFoundation) starts at `offset`.
  private func lineSeparatorWidth(at offset: Int) -> Int? {
    guard offset + 2 < bytes.count, bytes[offset] == 0xE2, bytes[offset + 1] == 0x80,
      bytes[offset + 2] == 0xA8 || bytes[offset + 2] == 0xA9
    else { return nil }
    return 3
  }

  func utf8Length(of lead: UInt8) -> Int {
    switch lead {
    case 0xF0...: 4
    case 0xE0...: 3
    case 0xC0...: 2
    default: 1
    }
  }
}
