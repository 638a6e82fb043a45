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
  /// The tags the dynamic type carries, by class, in encoding order.
  public var tags: [(tagClass: TypeTagClass, value: String)]

  /// Creates a dynamic type description; ``identifier`` encodes it.
  public init(conformsTo: [String], tags: [(tagClass: TypeTagClass, value: String)]) {
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
    self.tags = [(tagClass, isCaseInsensitive ? tag.lowercased() : tag)]
  }

  /// Decodes a `dyn.a…` identifier (case-insensitively); nil when it is not one or does not decode.
  public init?(decoding identifier: String) {
    guard let specification = Self.decodeSpecification(identifier),
      let pairs = Self.parsePairs(specification)
    else { return nil }
    var conformsTo: [String] = []
    var tags: [(tagClass: TypeTagClass, value: String)] = []
    for (key, value) in pairs {
      let expandedKey = Self.keyCodes[key] ?? key
      if expandedKey == Self.conformsToKey {
        conformsTo.append(Self.valueCodes[value] ?? value)
      } else {
        tags.append((TypeTagClass(rawValue: expandedKey), value))
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
    for (tagClass, value) in tags {
      let key = Self.keyCodesByName[tagClass.rawValue] ?? Self.escape(tagClass.rawValue)
      pairs.append(key + "=" + Self.escape(value))
    }
    let specification = (conformsTo.isEmpty ? "" : "?") + pairs.joined(separator: ":")
    return "dyn.a" + Self.base32Encode(Array(specification.utf8))
  }

  /// The tag specification string the identifier encodes, e.g. `?0=6:1=gpx`.
  public static func decodeSpecification(_ identifier: String) -> String? {
    let lowered = identifier.lowercased()
    guard lowered.hasPrefix("dyn.a"), let bytes = base32Decode(lowered.dropFirst(5)) else { return nil }
    return String(validating: bytes, as: UTF8.self)
  }

  /// Whether `identifier` has the reserved `dyn.` prefix (compared case-insensitively).
  public static func isDynamic(_ identifier: String) -> Bool {
    identifier.utf8.count >= 4 && identifier.prefix(4).lowercased() == "dyn."
  }

  public static func == (lhs: DynamicTypeIdentifier, rhs: DynamicTypeIdentifier) -> Bool {
    lhs.identifier == rhs.identifier
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(identifier)
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

  private static let alphabetValues: [UInt8: UInt8] = Dictionary(
    uniqueKeysWithValues: alphabet.enumerated().map { ($0.element, UInt8($0.offset)) })

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
  static func base32Decode(_ text: Substring) -> [UInt8]? {
    var output: [UInt8] = []
    var buffer: UInt32 = 0
    var bitCount = 0
    for character in text.utf8 {
      guard let value = alphabetValues[character] else { return nil }
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
