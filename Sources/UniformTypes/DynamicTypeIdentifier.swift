/// A dynamic type identifier (`dyn.a…`): the type Apple's Launch Services invents for a tag no declared type
/// claims, e.g. `dyn.ah62d4rv4ge80s6d2` for a `.gpx` file on a device that knows no GPX type.
///
/// The part after `dyn.a` is a base-32 encoding (alphabet `abcdefghkmnpqrstuvwxyz0123456789`, 5 bits per
/// character packed most-significant bit first, the last character padded with zero bits) of a tag
/// specification such as `?0=6:1=gpx`: an optional `?`, then `key=value` pairs separated by `:`. Small codes
/// abbreviate common keys and values (`0` conforms-to, `1` filename extension, `6` public.data, …); anything
/// else is written out, with `\` escaping `\`, `:` and `=` inside names.
public struct DynamicTypeIdentifier: Sendable, Hashable {
  /// The identifiers the dynamic type was created to conform to (the `0=` pairs), codes expanded.
  public var conformsTo: [String]
  /// The tags the dynamic type carries, in encoding order.
  public var tags: [TypeTag]

  /// Creates a dynamic type description; ``identifier`` encodes it.
  public init(conformsTo: [String], tags: [TypeTag]) {
    self.conformsTo = conformsTo
    self.tags = tags
  }

  /// What Apple's `UTType(tag:tagClass:conformingTo:)` returns for a tag no declared type claims.
  ///
  /// Filename extensions and MIME types are lowercased first, as Launch Services does. With a nil
  /// `conformingTo` the identifier has no conformance part: the bare form an `NSItemProvider` registers.
  public init(tag: String, tagClass: TypeTagClass, conformingTo: String?) {
    let isCaseInsensitive = tagClass == .filenameExtension || tagClass == .mimeType
    self.conformsTo = conformingTo.map { [$0] } ?? []
    self.tags = [TypeTag(tagClass, isCaseInsensitive ? tag.lowercased() : tag)]
  }

  /// Decodes a `dyn.a…` identifier (case-insensitively); nil when it is not one or does not decode.
  public init?(decoding identifier: String) {
    guard let specification = Self.decodeSpecification(identifier),
      let pairs = Self.parsePairs(specification)
    else { return nil }
    var conformsTo: [String] = []
    var tags: [TypeTag] = []
    for (key, value) in pairs {
      let expandedKey = Self.keyCodes[key] ?? key
      if expandedKey == Self.conformsToKey {
        conformsTo.append(Self.valueCodes[value] ?? value)
      } else {
        tags.append(TypeTag(TypeTagClass(rawValue: expandedKey), value))
      }
    }
    self.init(conformsTo: conformsTo, tags: tags)
  }

  /// The `dyn.a…` identifier encoding this type, byte-for-byte what Apple produces for the same content.
  public var identifier: String {
    var pairs: [String] = []
    for parent in conformsTo {
      pairs.append("0=" + (Self.valueCodesByIdentifier[parent.lowercased()] ?? Self.escape(parent)))
    }
    for tag in tags {
      let key = Self.keyCodesByName[tag.tagClass.rawValue] ?? Self.escape(tag.tagClass.rawValue)
      pairs.append(key + "=" + Self.escape(tag.value))
    }
    let specification = (conformsTo.isEmpty ? "" : "?") + pairs.joined(separator: ":")
    return "dyn.a" + Self.base32Encode(Array(specification.utf8))
  }

  /// The tag specification string the identifier encodes, e.g. `?0=6:1=gpx`.
  public static func decodeSpecification(_ identifier: String) -> String? {
    let utf8 = Array(identifier.utf8)
    // Compared byte by byte, ASCII letters folded, so no lowercased copy of the identifier is made.
    guard utf8.count >= 5,
      zip(utf8, "dyn.a".utf8).allSatisfy({ ($0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0) == $1 }),
      let bytes = base32Decode(utf8[5...])
    else { return nil }
    // `String(validating:as:)` needs macOS 15; decoding repairs invalid UTF-8, so compare to detect it.
    let text = String(decoding: bytes, as: UTF8.self)
    return text.utf8.elementsEqual(bytes) ? text : nil
  }

  /// Whether `identifier` has the reserved `dyn.` prefix (compared case-insensitively).
  public static func isDynamic(_ identifier: String) -> Bool {
    identifier.utf8.count >= 4 && identifier.prefix(4).lowercased() == "dyn."
  }

  // MARK: Codes

  static let conformsToKey = "UTTypeConformsTo"

  /// Key codes of the tag specification (community reverse engineering; see the spec, §C.4).
  static let keyCodes: [String: String] = [
    "0": conformsToKey,
    "1": TypeTagClass.filenameExtension.rawValue,
    "2": TypeTagClass.osType.rawValue,
    "3": TypeTagClass.mimeType.rawValue,
    "4": TypeTagClass.pasteboardType.rawValue,
    "5": TypeTagClass.urlScheme.rawValue,
  ]

  /// Value codes for the conforms-to key.
  static let valueCodes: [String: String] = [
    "6": "public.data",
    "7": "public.text",
    "8": "public.plain-text",
    "9": "public.utf16-plain-text",
    "A": "com.apple.traditional-mac-plain-text",
    "B": "public.image",
    "C": "public.video",
    "D": "public.audio",
    "E": "public.directory",
    "F": "public.folder",
  ]

  static let keyCodesByName: [String: String] = Dictionary(
    uniqueKeysWithValues: keyCodes.filter { $0.value != conformsToKey }.map { ($0.value, $0.key) })

  static let valueCodesByIdentifier: [String: String] = Dictionary(
    uniqueKeysWithValues: valueCodes.map { ($0.value, $0.key) })

  // MARK: Tag specification syntax

  private static func escape(_ text: String) -> String {
    var escaped = ""
    for character in text {
      if character == "\\" || character == ":" || character == "=" { escaped.append("\\") }
      escaped.append(character)
    }
    return escaped
  }

  /// Splits `?k=v:k=v` on unescaped separators, removing the escapes; nil when a pair has no `=`.
  private static func parsePairs(_ specification: String) -> [(String, String)]? {
    var text = Substring(specification)
    if text.first == "?" { text = text.dropFirst() }
    if text.isEmpty { return [] }
    var pairs: [(String, String)] = []
    var key: String?
    var current = ""
    var escaping = false
    for character in text {
      if escaping {
        current.append(character)
        escaping = false
      } else if character == "\\" {
        escaping = true
      } else if character == "=" && key == nil {
        key = current
        current = ""
      } else if character == ":" {
        guard let finishedKey = key else { return nil }
        pairs.append((finishedKey, current))
        key = nil
        current = ""
      } else {
        current.append(character)
      }
    }
    guard let finishedKey = key, !escaping else { return nil }
    pairs.append((finishedKey, current))
    return pairs
  }

  // MARK: Base 32

  private static let alphabet = Array("abcdefghkmnpqrstuvwxyz0123456789".utf8)

  /// Value of each byte in the alphabet (upper case accepted), 0xFF for bytes outside it.
  private static let alphabetValues: [UInt8] = {
    var values = [UInt8](repeating: 0xFF, count: 256)
    for (value, byte) in alphabet.enumerated() {
      values[Int(byte)] = UInt8(value)
      if (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) { values[Int(byte) - 32] = UInt8(value) }
    }
    return values
  }()

  static func base32Encode(_ bytes: [UInt8]) -> String {
    var output: [UInt8] = []
    output.reserveCapacity((bytes.count * 8 + 4) / 5)
    var buffer: UInt32 = 0
    var bitCount = 0
    for byte in bytes {
      buffer = (buffer << 8) | UInt32(byte)
      bitCount += 8
      while bitCount >= 5 {
        bitCount -= 5
        output.append(alphabet[Int((buffer >> UInt32(bitCount)) & 31)])
      }
      buffer &= (1 << UInt32(bitCount)) - 1
    }
    if bitCount > 0 {
      output.append(alphabet[Int((buffer << UInt32(5 - bitCount)) & 31)])
    }
    return String(decoding: output, as: UTF8.self)
  }

  /// Decodes MSB-first base 32; nil on a character outside the alphabet or non-zero padding bits.
  static func base32Decode(_ text: ArraySlice<UInt8>) -> [UInt8]? {
    var output: [UInt8] = []
    output.reserveCapacity(text.count * 5 / 8)
    var buffer: UInt32 = 0
    var bitCount = 0
    for character in text {
      let value = alphabetValues[Int(character)]
      guard value != 0xFF else { return nil }
      buffer = (buffer << 5) | UInt32(value)
      bitCount += 5
      if bitCount >= 8 {
        bitCount -= 8
        output.append(UInt8((buffer >> UInt32(bitCount)) & 0xFF))
      }
      buffer &= (1 << UInt32(bitCount)) - 1
    }
    guard buffer == 0, bitCount < 5 else { return nil }
    return output
  }
}

/// One tag: a class (filename extension, MIME type, …) and a value.
public struct TypeTag: Sendable, Hashable {
  /// What kind of tag it is: a filename extension, a MIME type, an OSType, …
  public var tagClass: TypeTagClass
  /// The tag's value, such as `pdf` for a filename extension.
  public var value: String

  /// Creates a tag.
  public init(_ tagClass: TypeTagClass, _ value: String) {
    self.tagClass = tagClass
    self.value = value
  }
}
