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
  let bytes: [UInt8]
  let lines: LineTable
  let duplicateKeys: PropertyListDuplicateKeyPolicy
  var index = 0
  /// Containers enclosing the one being read, bounded by ``PropertyListLimits/maximumDepth``.
  var depth = 0
  /// Keys accepted twice under ``PropertyListDuplicateKeyPolicy/keepLast``, in file order.
  var duplicates: [PropertyListDuplicateKey] = []
  /// Whether to build an ``OpenStepNode`` per value (for ``OpenStepDocument``); the value-only read skips it.
  let buildsNodes: Bool

  /// A value read, and its node when the reader builds them.
  struct Parsed {
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
  func startsValue(_ byte: UInt8) -> Bool {
    byte == UInt8(ascii: "{") || byte == UInt8(ascii: "(") || byte == UInt8(ascii: "<")
      || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") || byte.isUnquotedStringByte
  }

  /// Reads the value at `index` (after whitespace); `context` names where it is, for messages.
  mutating func readValue(context: String) throws(PropertyListError) -> Parsed {
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
