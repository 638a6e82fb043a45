#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads an old-style (OpenStep) property list: what CoreFoundation's old-style parser accepts.
///
/// ```
/// // A comment.
/// {
///     CFBundleName = Notes;              /* an unquoted string */
///     Title = "Caf\U00e9 \"Noir\"";      // escapes
///     Icon = <89504e47 0d0a>;            // data in hexadecimal
///     Types = ( public.jpeg, "public.png", );
/// }
/// ```
///
/// Dictionaries are `{ key = value; … }` with a `;` after every entry, the last one included; `key;` alone
/// stands for `key = key;`. Arrays are `( a, b )`, a trailing comma allowed. Strings are quoted with `"` or
/// `'` (escapes `\a \b \f \n \r \t \v`, `\ooo` octal in the NeXTSTEP encoding, `\Uxxxx` UTF-16, any other
/// character escaped stands for itself) or unquoted (letters, digits and `_$/:.-`). Data is hexadecimal
/// between `<` and `>`. `//` and `/* */` comments and whitespace separate tokens. A file of `key = value;`
/// entries without braces (a strings file) is a dictionary, and a file with nothing but whitespace and
/// comments is an empty dictionary. The format has no numbers, booleans or dates: every scalar is a string.
///
/// The text is UTF-8, with or without a byte order mark. Errors carry line and column.
///
/// Where CoreFoundation ignores what follows the entries of a strings file, this reader reports it, so a
/// stray `}` or value is not silently dropped.
struct OpenStepReader {
  private let bytes: [UInt8]
  private let lines: LineTable
  private let duplicateKeys: PropertyListDuplicateKeyPolicy
  private var index = 0
  /// Containers enclosing the one being read, bounded by ``PropertyListLimits/maximumDepth``.
  private var depth = 0
  /// Keys accepted twice under ``PropertyListDuplicateKeyPolicy/keepLast``, in file order.
  private var duplicates: [PropertyListDuplicateKey] = []
  /// Whether to build an ``OpenStepNode`` per value (for ``OpenStepDocument``); the value-only read skips it.
  private let buildsNodes: Bool

  /// A value read, and its node when the reader builds them.
  private struct Parsed {
    var value: PropertyListValue
    var node: OpenStepNode?
  }

  private init(bytes: [UInt8], duplicateKeys: PropertyListDuplicateKeyPolicy, buildsNodes: Bool = false) {
    self.bytes = bytes
    self.lines = LineTable(bytes)
    self.duplicateKeys = duplicateKeys
    self.buildsNodes = buildsNodes
  }

  /// The value of a whole OpenStep file.
  ///
  /// - Throws: ``PropertyListError`` with line and column: ``PropertyListError/Kind/malformed`` for syntax,
  ///   ``PropertyListError/Kind/invalidEncoding`` for bytes that are not UTF-8,
  ///   ``PropertyListError/Kind/limitExceeded`` for nesting past ``PropertyListLimits/maximumDepth`` and
  ///   ``PropertyListError/Kind/duplicateKey`` under ``PropertyListDuplicateKeyPolicy/error``. Text that does
  ///   not even begin like a property list is reported as not being one.
  static func read(_ bytes: [UInt8], duplicateKeys: PropertyListDuplicateKeyPolicy = .error)
    throws(PropertyListError) -> PropertyListValue
  {
    try readListingDuplicates(bytes, duplicateKeys: duplicateKeys).value
  }

  /// The value of a whole OpenStep file, and the keys accepted twice under
  /// ``PropertyListDuplicateKeyPolicy/keepLast`` with their positions (the later value is the one kept).
  static func readListingDuplicates(_ bytes: [UInt8], duplicateKeys: PropertyListDuplicateKeyPolicy)
    throws(PropertyListError) -> (value: PropertyListValue, duplicates: [PropertyListDuplicateKey])
  {
    var reader = OpenStepReader(bytes: bytes, duplicateKeys: duplicateKeys)
    let value = try reader.readDocument().value
    return (value, reader.duplicates)
  }

  /// The node tree of a whole OpenStep file, the same read as ``read(_:duplicateKeys:)`` with positions kept,
  /// and the keys accepted twice under ``PropertyListDuplicateKeyPolicy/keepLast``.
  static func readNodes(_ bytes: [UInt8], lines: LineTable, duplicateKeys: PropertyListDuplicateKeyPolicy)
    throws(PropertyListError) -> (root: OpenStepNode, duplicates: [PropertyListDuplicateKey])
  {
    var reader = OpenStepReader(bytes: bytes, duplicateKeys: duplicateKeys, buildsNodes: true)
    let parsed = try reader.readDocument()
    // A file of only whitespace and comments has no value token: its empty dictionary spans the file.
    let root =
      parsed.node
      ?? OpenStepNode(
        kind: .dictionary, elementRange: 0..<bytes.count, contentRange: 0..<bytes.count,
        position: lines.position(of: 0, in: bytes))
    return (root, reader.duplicates)
  }

  // MARK: Document

  private mutating func readDocument() throws(PropertyListError) -> Parsed {
    if let invalid = firstInvalidUTF8Offset(bytes) {
      // Binary garbage lands here: say what the file is not, without echoing its bytes as a source line.
      throw PropertyListError(
        .invalidEncoding,
        Self.notAPropertyList
          + " (byte 0x\(String(bytes[invalid], radix: 16, uppercase: true)) at offset \(invalid) is not UTF-8)",
        hint: Self.notAPropertyListHint + " (OpenStep text must be UTF-8)")
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    let start = index
    // Nothing but whitespace and comments is an empty dictionary, as CoreFoundation has it.
    guard try skipSpace() else { return Parsed(value: .dictionary([:])) }
    guard startsValue(bytes[index]) else {
      throw PropertyListError(
        .malformed, Self.notAPropertyList + " (it begins with \(describeHere()))",
        hint: Self.notAPropertyListHint)
    }
    let value = try readValue(context: "the file")
    guard try skipSpace() else { return value }
    guard case .string = value.value else {
      throw error(
        at: index, "unexpected \(describeHere()) after the end of the property list",
        hint: "a property list file holds one value; remove what follows it")
    }
    // A string followed by more text: the entries of a strings file, `key = value;` without braces.
    index = start
    try enterContainer(at: start)  // The implicit dictionary is a level, as <dict> is in XML.
    let dictionary = try readEntries(closedBy: nil, openedAt: start)
    if try skipSpace() {
      throw error(
        at: index, "expected a key or the end of the file, found \(describeHere())",
        hint: "the file is a list of key = value; entries; wrap values in { } or ( ) only after =")
    }
    return dictionary
  }

  static let notAPropertyList =
    "the file is not a property list: not XML (<?xml or <plist>), not binary (bplist00), and not OpenStep text"
  static let notAPropertyListHint =
    "check that this is the file you meant; an Info.plist or entitlements file is XML"

  // MARK: Values

  /// Whether `byte` can begin a value: a container, data, a quoted or an unquoted string.
  private func startsValue(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "<")
      || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte.isUnquotedStringByte
  }

  /// Reads the value at `index` (after whitespace); `context` names where it is, for messages.
  private mutating func readValue(context: String) throws(PropertyListError) -> Parsed {
    let start = index
    switch bytes[index] {
    case UInt8(ascii: "{"):
      try enterContainer(at: start)
      defer { depth -= 1 }
      index += 1
      var dictionary = try readEntries(closedBy: UInt8(ascii: "}"), openedAt: start)
      index += 1
      dictionary.node?.elementRange = start..<index
      return dictionary
    case UInt8(ascii: "("):
      try enterContainer(at: start)
      defer { depth -= 1 }
      index += 1
      return try readArray(openedAt: start)
    // Each value is read into a local first: a method call on `self` would see `index` from before the read.
    case UInt8(ascii: "<"):
      let data = PropertyListValue.data(try readData())
      return scalar(data, .data, from: start, to: index, inset: 1)
    case UInt8(ascii: "\""), UInt8(ascii: "'"):
      let string = PropertyListValue.string(try readQuotedString())
      return scalar(string, .string, from: start, to: index, inset: 1)
    case let byte where byte.isUnquotedStringByte:
      let string = PropertyListValue.string(readUnquotedString())
      return scalar(string, .string, from: start, to: index, inset: 0)
    default:
      throw error(
        at: start, "expected a value in \(context), found \(describeHere())",
        hint: "a value is a word, a \"quoted string\", <hex data>, ( an array ) or { a dictionary }")
    }
  }

  /// A string or data value in `start..<end`, its node's content `inset` bytes inside its delimiters.
  private func scalar(
    _ value: PropertyListValue, _ kind: OpenStepNode.Kind, from start: Int, to end: Int, inset: Int
  ) -> Parsed {
    guard buildsNodes else { return Parsed(value: value) }
    return Parsed(
      value: value,
      node: OpenStepNode(
        kind: kind, elementRange: start..<end, contentRange: (start + inset)..<(end - inset),
        position: position(start), isQuoted: inset == 1 && kind == .string, scalar: value))
  }

  /// Reads `key = value;` entries up to `closing` (left at `index`), or to the first token that is not a key
  /// when `closing` is `nil` (a strings file). The node's ranges end at `index`; a caller that consumes the
  /// closing brace widens ``OpenStepNode/elementRange``.
  private mutating func readEntries(closedBy closing: UInt8?, openedAt start: Int)
    throws(PropertyListError) -> Parsed
  {
    var entries: [PropertyListDictionary.Entry] = []
    var nodeEntries: [OpenStepNodeEntry] = []
    var firstPositions: [String: PropertyListPosition] = [:]
    let contentStart = closing == nil ? start : start + 1
    func result(_ end: Int) -> Parsed {
      let value = PropertyListValue.dictionary(PropertyListDictionary(entries))
      guard buildsNodes else { return Parsed(value: value) }
      return Parsed(
        value: value,
        node: OpenStepNode(
          kind: .dictionary, elementRange: start..<end, contentRange: contentStart..<end,
          position: position(start), entries: nodeEntries))
    }
    while true {
      guard try skipSpace() else {
        if closing == nil { break }
        throw error(
          at: start, "the dictionary opened here is not closed: the file ends before its '}'",
          hint: "add the missing '}' (and a ';' after its last entry)")
      }
      if let closing, bytes[index] == closing { break }
      let keyStart = index
      let key: String
      let keyInset: Int
      switch bytes[index] {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        key = try readQuotedString()
        keyInset = 1
      case let byte where byte.isUnquotedStringByte:
        key = readUnquotedString()
        keyInset = 0
      default:
        if closing == nil { return result(index) }
        throw error(
          at: index, "expected a key or '}' in the dictionary, found \(describeHere())",
          hint: "keys are strings: write \"key\" = value; (quote keys with other characters than letters, "
            + "digits and _$/:.-)")
      }
      let keyEnd = index
      let value: Parsed
      guard try skipSpace() else {
        throw error(
          at: keyStart, "the file ends after the key \"\(key)\"", hint: "write key = value; with the ';'")
      }
      switch bytes[index] {
      case UInt8(ascii: ";"):
        // `key;` is `key = key;`, the shortcut of strings files; its value node is the key token.
        value = Parsed(
          value: .string(key),
          node: buildsNodes
            ? OpenStepNode(
              kind: .string, elementRange: keyStart..<keyEnd,
              contentRange: (keyStart + keyInset)..<(keyEnd - keyInset), position: position(keyStart),
              isQuoted: keyInset == 1, scalar: .string(key)) : nil)
      case UInt8(ascii: "="):
        index += 1
        guard try skipSpace() else {
          throw error(
            at: keyStart, "the file ends where the value of \"\(key)\" should be",
            hint: "write the value and a ';' after the '='")
        }
        guard startsValue(bytes[index]) else {
          throw error(
            at: index, "expected the value of \"\(key)\" after '=', found \(describeHere())",
            hint: "write a value before the ';': a word, a \"quoted string\", <hex data>, ( an array ) or "
              + "{ a dictionary }")
        }
        value = try readValue(context: "the dictionary")
        // The caret goes where the ';' belongs: right after the value.
        let valueEnd = index
        guard try skipSpace() else {
          throw error(
            at: valueEnd, "missing ';' after the value of \"\(key)\" (the file ends there)",
            hint: "end every entry with ';', the last one too")
        }
        guard bytes[index] == UInt8(ascii: ";") else {
          throw error(
            at: valueEnd, "missing ';' after the value of \"\(key)\", before \(describeHere())",
            hint: "end every entry with ';', the last one too")
        }
      default:
        throw error(
          at: index, "expected '=' or ';' after the key \"\(key)\", found \(describeHere())",
          hint: "write key = value; (quote a key or value that has spaces or other characters than letters, "
            + "digits and _$/:.-)")
      }
      index += 1  // the ';'
      let keyPosition = position(keyStart)
      if let first = firstPositions[key] {
        if duplicateKeys == .error {
          throw PropertyListError(
            .duplicateKey, "duplicate key \"\(key)\" (first at \(first))", position: keyPosition,
            relatedPosition: first, hint: "remove one of the two entries")
        }
        duplicates.append(PropertyListDuplicateKey(key: key, first: first, duplicate: keyPosition))
      } else {
        firstPositions[key] = keyPosition
      }
      entries.append(PropertyListDictionary.Entry(key: key, value: value.value))
      if let node = value.node {
        nodeEntries.append(
          OpenStepNodeEntry(
            key: key, keyRange: keyStart..<keyEnd,
            keyContentRange: (keyStart + keyInset)..<(keyEnd - keyInset),
            keyPosition: keyPosition, entryRange: keyStart..<index, value: node))
      }
    }
    // Under `.keepLast` a later entry replaces the earlier value in place, as Foundation keeps the last.
    return result(index)
  }

  /// Reads the elements of an array whose `(` is behind `index`, and its `)`.
  private mutating func readArray(openedAt start: Int) throws(PropertyListError) -> Parsed {
    var elements: [PropertyListValue] = []
    var nodes: [OpenStepNode] = []
    while true {
      guard try skipSpace() else {
        throw error(
          at: start, "the array opened here is not closed: the file ends before its ')'",
          hint: "add the missing ')'")
      }
      if bytes[index] == UInt8(ascii: ")") { break }
      guard startsValue(bytes[index]) else {
        throw error(
          at: index, "expected an element or ')' in the array, found \(describeHere())",
          hint: "separate elements with ',' and close the array with ')'")
      }
      let element = try readValue(context: "the array")
      elements.append(element.value)
      if let node = element.node { nodes.append(node) }
      guard try skipSpace() else {
        throw error(
          at: start, "the array opened here is not closed: the file ends before its ')'",
          hint: "add the missing ')'")
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] != UInt8(ascii: ")") {
        throw error(
          at: index, "expected ',' or ')' after an array element, found \(describeHere())",
          hint: "separate elements with ',' (a word with spaces needs \"quotes\")")
      }
    }
    index += 1  // the ')'
    guard buildsNodes else { return Parsed(value: .array(elements)) }
    return Parsed(
      value: .array(elements),
      node: OpenStepNode(
        kind: .array, elementRange: start..<index, contentRange: (start + 1)..<(index - 1),
        position: position(start), elements: nodes))
  }

  /// Reads `<…>` hexadecimal data at `index`: pairs of hex digits, with whitespace between pairs.
  private mutating func readData() throws(PropertyListError) -> Data {
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

  private mutating func readUnquotedString() -> String {
    let start = index
    while index < bytes.count, bytes[index].isUnquotedStringByte { index += 1 }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  /// Reads a string quoted with the `"` or `'` at `index`, escapes decoded.
  private mutating func readQuotedString() throws(PropertyListError) -> String {
    let start = index
    let quote = bytes[index]
    index += 1
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
  private mutating func skipSpace() throws(PropertyListError) -> Bool {
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

  private func utf8Length(of lead: UInt8) -> Int {
    switch lead {
    case 0xF0...: 4
    case 0xE0...: 3
    case 0xC0...: 2
    default: 1
    }
  }

  // MARK: Errors

  private mutating func enterContainer(at start: Int) throws(PropertyListError) {
    depth += 1
    guard depth <= PropertyListLimits.maximumDepth else {
      throw PropertyListError(
        .limitExceeded,
        "arrays and dictionaries nested deeper than the limit of \(PropertyListLimits.maximumDepth) levels "
          + "(PropertyListLimits.maximumDepth)",
        position: position(start), hint: "flatten the structure; no property list Apple reads nests this deep"
      )
    }
  }

  private func position(_ offset: Int) -> PropertyListPosition {
    lines.position(of: offset, in: bytes)
  }

  private func error(at offset: Int, _ message: String, hint: String? = nil) -> PropertyListError {
    PropertyListError(
      .malformed, "OpenStep property list: " + message, position: position(offset), hint: hint)
  }

  /// The character at `index` for a message: `';'`, `'\u{…}'` spelled as U+XXXX for invisible ones.
  private func describeHere() -> String {
    index < bytes.count ? describe(index) : "the end of the file"
  }

  private func describe(_ offset: Int) -> String {
    let end = min(offset + utf8Length(of: bytes[offset]), bytes.count)
    guard let scalar = String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first else {
      return "the end of the file"
    }
    if scalar.value < 0x21 || (0x7F...0xA0).contains(scalar.value)
      || scalar.properties.generalCategory == .format
    {
      let digits = String(scalar.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
    return scalar == "'" ? "\"'\"" : "'\(scalar)'"
  }
}

extension UInt8 {
  /// The characters of an unquoted OpenStep string: letters, digits and `_$/:.-` (CoreFoundation's set).
  var isUnquotedStringByte: Bool {
    (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
      || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
      || (self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9"))
      || self == UInt8(ascii: "_") || self == UInt8(ascii: "$") || self == UInt8(ascii: "/")
      || self == UInt8(ascii: ":") || self == UInt8(ascii: ".") || self == UInt8(ascii: "-")
  }

  /// The value of a hexadecimal digit, or `nil`.
  var hexDigitValue: UInt8? {
    switch self {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
    default: nil
    }
  }
}
