#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads a binary property list (`bplist00`) into a value, treating every byte as untrusted.
///
/// The layout: an 8-byte header (`bplist00`), the objects, a table of their byte offsets, and a 32-byte
/// trailer (6 unused bytes, the width of an offset, the width of an object reference, the object count,
/// the top object's number and the offset table's position, big-endian). Containers refer to their
/// elements by object number, so a file can share one object between several containers or make one
/// contain itself. Every offset, width and count is checked against the file before it is used (with
/// overflow-checked arithmetic), a container that contains itself is refused, nesting is bounded by
/// ``PropertyListLimits/maximumDepth``, and the values a shared object stands for are counted against
/// ``PropertyListLimits/maximumValueCount``, so a small file cannot expand into an exponential tree.
///
/// What CoreFoundation accepts is accepted, except what a ``PropertyListValue`` cannot hold: keyed-archiver
/// UIDs, `null`, sets, non-string dictionary keys and 128-bit integers beyond the 64-bit range are refused
/// with an error naming the object.
struct BinaryPropertyListReader {
  let bytes: [UInt8]
  private let duplicateKeys: PropertyListDuplicateKeyPolicy
  /// Width in bytes of each entry of the offset table (1 to 8).
  private let offsetWidth: Int
  /// Width in bytes of an object reference inside an array or dictionary (1 to 8).
  private let referenceWidth: Int
  private let objectCount: Int
  private let topObject: Int
  /// Where the offset table starts: objects lie in `8..<offsetTableStart`.
  let offsetTableStart: Int

  /// A value already read, by its byte offset, with what it costs to use it again: shared objects are
  /// read once (as CoreFoundation does), and reusing one adds its size to the running count.
  private struct Read {
    var value: PropertyListValue
    /// How many values the tree holds, itself included.
    var count: Int
    /// How many containers deep it is: 0 for a scalar, 1 for an array of scalars.
    var height: Int
  }

  private var cache: [Int: Read] = [:]
  /// Offsets of the containers being read, outermost first: a reference to one of them is a cycle.
  private var path: Set<Int> = []
  /// Values produced so far, shared objects counted each time they are used.
  private var produced = 0

  /// The value of a whole `bplist00` file.
  ///
  /// - Throws: ``PropertyListError`` of kind ``PropertyListError/Kind/malformed`` for damage (a truncated
  ///   file, an offset or count outside the file, a cycle), ``PropertyListError/Kind/invalidEncoding``
  ///   for a string that is not ASCII or UTF-16, ``PropertyListError/Kind/unsupportedValue`` for objects a
  ///   ``PropertyListValue`` cannot hold, ``PropertyListError/Kind/limitExceeded`` past a limit, and
  ///   ``PropertyListError/Kind/duplicateKey`` under ``PropertyListDuplicateKeyPolicy/error``.
  static func read(_ bytes: [UInt8], duplicateKeys: PropertyListDuplicateKeyPolicy = .error)
    throws(PropertyListError) -> PropertyListValue
  {
    var reader = try BinaryPropertyListReader(bytes: bytes, duplicateKeys: duplicateKeys)
    return try reader.readObject(reader.topObject, depth: 0).value
  }

  // MARK: Header and trailer

  private init(bytes: [UInt8], duplicateKeys: PropertyListDuplicateKeyPolicy) throws(PropertyListError) {
    self.bytes = bytes
    self.duplicateKeys = duplicateKeys
    let header = 8
    let trailer = 32
    guard bytes.starts(with: Array("bplist".utf8)) else {
      throw Self.damaged("it does not start with bplist00")
    }
    if bytes.count >= header, !bytes.starts(with: Array("bplist0".utf8)) {
      let version = String(decoding: bytes[6..<8].map { $0 < 0x20 || $0 >= 0x7F ? 0x3F : $0 }, as: UTF8.self)
      throw PropertyListError(
        .malformed,
        "the binary property list is version \"\(version)\", not bplist00: only bplist00 can be read",
        hint: "convert it with plutil -convert binary1 (or xml1) on a Mac")
    }
    // The smallest file: header, one one-byte object, a one-byte offset table entry, trailer.
    guard bytes.count >= header + 1 + 1 + trailer else {
      throw Self.damaged(
        "it is \(bytes.count) bytes, too short for the 8-byte header, an object and the 32-byte trailer "
          + "(the file is truncated)")
    }
    let end = bytes.count
    offsetWidth = Int(bytes[end - 26])
    referenceWidth = Int(bytes[end - 25])
    let count = Self.bigEndian(bytes[(end - 24)..<(end - 16)])
    let top = Self.bigEndian(bytes[(end - 16)..<(end - 8)])
    let table = Self.bigEndian(bytes[(end - 8)..<end])
    let trailerStart = end - trailer
    func invalidTrailer(_ detail: String) -> PropertyListError {
      Self.damaged("its trailer (the last 32 bytes) \(detail); the file is truncated or not a binary plist")
    }
    guard (1...8).contains(offsetWidth) else {
      throw invalidTrailer("gives offsets a width of \(offsetWidth) bytes, not 1 to 8")
    }
    guard (1...8).contains(referenceWidth) else {
      throw invalidTrailer("gives object references a width of \(referenceWidth) bytes, not 1 to 8")
    }
    // Each object takes at least a byte, so a count above the file's size is damage (and fits in Int).
    guard count >= 1, count <= UInt64(end) else {
      throw invalidTrailer("counts \(count) objects in a file of \(end) bytes")
    }
    objectCount = Int(count)
    guard top < count else {
      throw invalidTrailer("names object \(top) as the top object, but there are only \(count) objects")
    }
    topObject = Int(top)
    guard table >= UInt64(header + 1), table < UInt64(trailerStart) else {
      throw invalidTrailer(
        "puts the offset table at byte \(table), outside the objects' bytes \(header + 1)..<\(trailerStart)")
    }
    offsetTableStart = Int(table)
    let (tableBytes, tableOverflow) = objectCount.multipliedReportingOverflow(by: offsetWidth)
    let (tableEnd, endOverflow) = offsetTableStart.addingReportingOverflow(tableBytes)
    guard !tableOverflow, !endOverflow, tableEnd == trailerStart else {
      throw invalidTrailer(
        "puts \(objectCount) offsets of \(offsetWidth) bytes at byte \(offsetTableStart), which does not "
          + "end where the trailer starts (byte \(trailerStart))")
    }
    // As CoreFoundation requires: references can name every object and offsets reach the offset table.
    guard referenceWidth == 8 || objectCount < 1 << (8 * referenceWidth) else {
      throw invalidTrailer(
        "gives object references \(referenceWidth) bytes, too narrow for \(objectCount) objects")
    }
    guard offsetWidth == 8 || offsetTableStart < 1 << (8 * offsetWidth) else {
      throw invalidTrailer(
        "gives offsets \(offsetWidth) bytes, too narrow to reach the offset table at byte \(offsetTableStart)"
      )
    }
    for object in 0..<objectCount {
      let offset = offset(of: object)
      guard offset >= UInt64(header), offset < UInt64(offsetTableStart) else {
        throw Self.damaged(
          "the offset table puts object \(object) at byte \(offset), outside the objects' bytes "
            + "\(header)..<\(offsetTableStart)")
      }
    }
  }

  /// Object `object`'s byte offset from the offset table (checked against the object area by `init`).
  private func offset(of object: Int) -> UInt64 {
    let start = offsetTableStart + object * offsetWidth
    return Self.bigEndian(bytes[start..<(start + offsetWidth)])
  }

  static func bigEndian(_ slice: ArraySlice<UInt8>) -> UInt64 {
    slice.reduce(0) { $0 << 8 | UInt64($1) }
  }

  // MARK: Objects

  /// Reads object number `object`; `depth` counts the containers around it.
  private mutating func readObject(_ object: Int, depth: Int) throws(PropertyListError) -> Read {
    let offset = Int(offset(of: object))
    if let known = cache[offset] {
      try count(known.count, object: object, offset: offset)
      guard depth + known.height <= PropertyListLimits.maximumDepth else {
        throw tooDeep(object: object, offset: offset)
      }
      return known
    }
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    let read: Read
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08, 0x09: read = try scalar(.bool(marker == 0x09), object: object, offset: offset)
      case 0x00:
        throw unsupported(object, offset, "is null (marker 0x00), which a property list cannot hold")
      default:
        throw invalidMarker(marker, object: object, offset: offset)
      }
    case 0x1:
      read = try scalar(.integer(try integer(at: offset, object: object)), object: object, offset: offset)
    case 0x2:
      let value: Double
      switch low {
      case 2:
        let start = try span(offset + 1, 4, object: object, offset: offset)
        value = Double(Float(bitPattern: UInt32(Self.bigEndian(bytes[start..<(start + 4)]))))
      case 3:
        let start = try span(offset + 1, 8, object: object, offset: offset)
        value = Double(bitPattern: Self.bigEndian(bytes[start..<(start + 8)]))
      default:
        throw damaged(object, offset, "is a real of \(1 << low) bytes; reals are 4 or 8 bytes")
      }
      read = try scalar(.real(value), object: object, offset: offset)
    case 0x3:
      guard marker == 0x33 else { throw invalidMarker(marker, object: object, offset: offset) }
      let start = try span(offset + 1, 8, object: object, offset: offset)
      let seconds = Double(bitPattern: Self.bigEndian(bytes[start..<(start + 8)]))
      // A property list date is a moment an XML plist can write: years 0 to 9999. NaN, infinities and
      // dates beyond are damage, and would otherwise trap when written as text.
      guard PropertyListScalars.writableDateRange.contains(seconds) else {
        throw damaged(object, offset, "is a date of \(seconds) s from 2001, outside the years 0 to 9999")
      }
      read = try scalar(.date(Date(timeIntervalSinceReferenceDate: seconds)), object: object, offset: offset)
    case 0x4:
      let (length, start) = try length(low, at: offset, object: object)
      let range = try span(start, length, object: object, offset: offset)
      read = try scalar(.data(Data(bytes[range..<(range + length)])), object: object, offset: offset)
    case 0x5:
      read = try scalar(
        .string(try asciiString(low, at: offset, object: object)), object: object, offset: offset)
    case 0x6:
      read = try scalar(
        .string(try utf16String(low, at: offset, object: object)), object: object, offset: offset)
    case 0x8:
      throw unsupported(
        object, offset,
        "is a keyed-archiver UID (marker 0x\(hex(marker))): keyed-archiver UIDs are not supported, only "
          + "property list values")
    case 0xA:
      read = try container(object: object, offset: offset, depth: depth, isDictionary: false)
    case 0xD:
      read = try container(object: object, offset: offset, depth: depth, isDictionary: true)
    case 0xB, 0xC:
      throw unsupported(
        object, offset, "is a set (marker 0x\(hex(marker))), which a property list cannot hold")
    default:
      throw invalidMarker(marker, object: object, offset: offset)
    }
    cache[offset] = read
    return read
  }

  /// A scalar, counted as one value.
  private mutating func scalar(_ value: PropertyListValue, object: Int, offset: Int) throws(PropertyListError)
    -> Read
  {
    try count(1, object: object, offset: offset)
    return Read(value: value, count: 1, height: 0)
  }

  /// Adds `values` to the running count, refusing to pass ``PropertyListLimits/maximumValueCount``.
  private mutating func count(_ values: Int, object: Int, offset: Int) throws(PropertyListError) {
    // Both are at most the limit, so the sum cannot overflow.
    produced += values
    guard produced <= PropertyListLimits.maximumValueCount else {
      throw PropertyListError(
        .limitExceeded,
        "the binary property list stands for more than \(PropertyListLimits.maximumValueCount) values "
          + "(PropertyListLimits.maximumValueCount) when its shared objects are expanded; the limit was "
          + "passed at object \(object) at byte offset \(offset)",
        hint: "a file whose containers share objects over and over expands exponentially; re-create it "
          + "from its source")
    }
  }

  /// An array or dictionary: its references, then each element (for a dictionary all keys, then all values).
  private mutating func container(object: Int, offset: Int, depth: Int, isDictionary: Bool)
    throws(PropertyListError) -> Read
  {
    let kind = isDictionary ? "dictionary" : "array"
    guard depth < PropertyListLimits.maximumDepth else { throw tooDeep(object: object, offset: offset) }
    guard path.insert(offset).inserted else {
      throw damaged(
        object, offset,
        "is \(kind == "array" ? "an" : "a") \(kind) that contains itself (directly or through the objects "
          + "it contains): a reference cycle, which no property list has")
    }
    defer { path.remove(offset) }
    let before = produced
    try count(1, object: object, offset: offset)
    let (entries, start) = try length(Int(bytes[offset] & 0x0F), at: offset, object: object)
    let (references, referencesOverflow) = entries.multipliedReportingOverflow(by: isDictionary ? 2 : 1)
    let (referenceBytes, bytesOverflow) = references.multipliedReportingOverflow(by: referenceWidth)
    guard !referencesOverflow, !bytesOverflow else {
      throw damaged(
        object, offset,
        "is \(kind == "array" ? "an" : "a") \(kind) of \(entries) entries, more than the file holds")
    }
    let first = try span(start, referenceBytes, object: object, offset: offset)
    var elements: [Int] = []
    elements.reserveCapacity(references)
    for index in 0..<references {
      let at = first + index * referenceWidth
      let reference = Self.bigEndian(bytes[at..<(at + referenceWidth)])
      guard reference < UInt64(objectCount) else {
        throw damaged(
          object, offset,
          "refers to object \(reference), but the file has only \(objectCount) objects (0 to \(objectCount - 1))"
        )
      }
      elements.append(Int(reference))
    }
    var height = 0
    let value: PropertyListValue
    if isDictionary {
      var keys: [String] = []
      keys.reserveCapacity(entries)
      for key in elements[..<entries] {
        keys.append(try readKey(key, dictionary: object, offset: offset, depth: depth + 1))
      }
      var result: [PropertyListDictionary.Entry] = []
      result.reserveCapacity(entries)
      var seen: [String: Int] = [:]
      for (index, element) in elements[entries...].enumerated() {
        let key = keys[index]
        if let earlier = seen[key] {
          if duplicateKeys == .error {
            throw PropertyListError(
              .duplicateKey,
              "dictionary object \(object) at byte offset \(offset) has the key \"\(key)\" twice (entries "
                + "\(earlier) and \(index))",
              hint:
                "convert it to XML (plutil -convert xml1), remove one of the two entries, and convert it back"
            )
          }
        } else {
          seen[key] = index
        }
        let read = try readObject(element, depth: depth + 1)
        height = max(height, read.height)
        result.append(PropertyListDictionary.Entry(key: key, value: read.value))
      }
      // Under `.keepLast` a later entry replaces the earlier one in place, as Foundation keeps the last.
      value = .dictionary(PropertyListDictionary(result))
    } else {
      var result: [PropertyListValue] = []
      result.reserveCapacity(entries)
      for element in elements {
        let read = try readObject(element, depth: depth + 1)
        height = max(height, read.height)
        result.append(read.value)
      }
      value = .array(result)
    }
    return Read(value: value, count: produced - before, height: height + 1)
  }

  /// A dictionary key: a string object (checked by its marker before it is read, so a container used as a
  /// key is not expanded).
  private mutating func readKey(_ key: Int, dictionary: Int, offset: Int, depth: Int)
    throws(PropertyListError)
    -> String
  {
    let keyOffset = Int(self.offset(of: key))
    let marker = bytes[keyOffset] >> 4
    guard marker == 0x5 || marker == 0x6 else {
      throw damaged(
        dictionary, offset,
        "has a key that is not a string: object \(key) at byte offset \(keyOffset) is \(describe(bytes[keyOffset]))"
      )
    }
    guard case .string(let text) = try readObject(key, depth: depth).value else {
      throw damaged(dictionary, offset, "has a key that is not a string (object \(key))")
    }
    return text
  }
}
