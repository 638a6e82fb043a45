#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Reads Apple's binary property lists (`bplist00`) into values, without Foundation's
/// `PropertyListSerialization` (which on Linux brings CoreFoundation and ICU into every program using it).
///
/// The input is untrusted: every offset, count and reference is checked against the data, references that
/// lead back to an object being read (cycles) are refused, and so is nesting beyond
/// ``PropertyListLimits/maximumDepth`` and a total number of values beyond
/// ``PropertyListLimits/maximumBinaryValues`` (shared sub-objects could otherwise expand exponentially).
struct BinaryPropertyListReader {
  private let bytes: [UInt8]
  private let path: String?
  private let duplicateKeys: PropertyListDuplicateKeyPolicy
  private var offsetSize = 0
  private var referenceSize = 0
  private var objectCount = 0
  private var offsetTable = 0
  private var reading: Set<Int> = []
  private var produced = 0

  init(bytes: [UInt8], path: String?, duplicateKeys: PropertyListDuplicateKeyPolicy) {
    self.bytes = bytes
    self.path = path
    self.duplicateKeys = duplicateKeys
  }

  /// The value of the whole file.
  static func read(
    _ data: Data, path: String?, duplicateKeys: PropertyListDuplicateKeyPolicy
  ) throws(PropertyListError) -> PropertyListValue {
    var reader = BinaryPropertyListReader(bytes: [UInt8](data), path: path, duplicateKeys: duplicateKeys)
    return try reader.readTop()
  }

  private func damaged(_ what: String) -> PropertyListError {
    PropertyListError(
      .malformed, "the binary property list (bplist00) is damaged: \(what)", path: path,
      hint: "restore it from version control, or re-create it; plutil -lint shows whether macOS can read it")
  }

  private mutating func readTop() throws(PropertyListError) -> PropertyListValue {
    // Header (8 bytes), at least one object, and the 32-byte trailer.
    guard bytes.count >= 8 + 1 + 32 else { throw damaged("it is shorter than a header and a trailer") }
    let trailer = bytes.count - 32
    offsetSize = Int(bytes[trailer + 6])
    referenceSize = Int(bytes[trailer + 7])
    let count = unsigned(at: trailer + 8, size: 8)
    let top = unsigned(at: trailer + 16, size: 8)
    let table = unsigned(at: trailer + 24, size: 8)
    guard (1...8).contains(offsetSize), (1...8).contains(referenceSize) else {
      throw damaged("the trailer gives offset size \(offsetSize) and reference size \(referenceSize)")
    }
    guard count > 0, count <= UInt64(bytes.count), top < count, table >= 8, table < UInt64(trailer) else {
      throw damaged("the trailer's object count, top object or offset table is out of range")
    }
    objectCount = Int(count)
    offsetTable = Int(table)
    let (tableSize, overflow) = objectCount.multipliedReportingOverflow(by: offsetSize)
    guard !overflow, offsetTable + tableSize <= trailer else {
      throw damaged("the offset table runs past the trailer")
    }
    return try object(Int(top), depth: 0)
  }

  /// A big-endian unsigned integer of `size` bytes (1 to 8) at `offset`, which the caller has checked.
  private func unsigned(at offset: Int, size: Int) -> UInt64 {
    var value: UInt64 = 0
    for index in offset..<(offset + size) { value = value << 8 | UInt64(bytes[index]) }
    return value
  }

  private func checkedRange(_ offset: Int, _ length: Int, _ what: String) throws(PropertyListError) {
    let (end, overflow) = offset.addingReportingOverflow(length)
    guard !overflow, length >= 0, offset >= 8, end <= offsetTable else {
      throw damaged("\(what) at byte \(offset) runs past the object data")
    }
  }

  private mutating func object(_ reference: Int, depth: Int) throws(PropertyListError) -> PropertyListValue {
    guard reference < objectCount else {
      throw damaged("a reference to object \(reference) of \(objectCount)")
    }
    produced += 1
    guard produced <= PropertyListLimits.maximumBinaryValues else {
      throw PropertyListError(
        .limitExceeded,
        "the binary property list expands to more than \(PropertyListLimits.maximumBinaryValues) values "
          + "(PropertyListLimits.maximumBinaryValues)", path: path,
        hint: "objects shared many times over make it this large; no Info.plist is")
    }
    let offsetValue = unsigned(at: offsetTable + reference * offsetSize, size: offsetSize)
    guard offsetValue >= 8, offsetValue < UInt64(offsetTable) else {
      throw damaged("object \(reference) has offset \(offsetValue), outside the object data")
    }
    let offset = Int(offsetValue)
    let marker = bytes[offset]
    let low = Int(marker & 0x0F)
    switch marker >> 4 {
    case 0x0:
      switch marker {
      case 0x08: return .bool(false)
      case 0x09: return .bool(true)
      default: throw unsupported(marker, offset)
      }
    case 0x1:
      guard low <= 4 else { throw damaged("an integer of \(1 << low) bytes at byte \(offset)") }
      let size = 1 << low
      try checkedRange(offset + 1, size, "an integer")
      if size == 16 {
        // 128-bit: CoreFoundation writes unsigned 64-bit values this way.
        let high = unsigned(at: offset + 1, size: 8)
        let value = unsigned(at: offset + 9, size: 8)
        guard high == 0, value <= UInt64(Int64.max) else {
          throw PropertyListError(
            .unsupportedValue, "the integer at byte \(offset) does not fit in 64 signed bits", path: path)
        }
        return .integer(Int64(value))
      }
      let value = unsigned(at: offset + 1, size: size)
      // Only 8-byte integers are signed; smaller ones are unsigned.
      return .integer(size == 8 ? Int64(bitPattern: value) : Int64(value))
    case 0x2:
      guard low == 2 || low == 3 else { throw damaged("a real of \(1 << low) bytes at byte \(offset)") }
      try checkedRange(offset + 1, 1 << low, "a real")
      let bits = unsigned(at: offset + 1, size: 1 << low)
      return .real(low == 2 ? Double(Float(bitPattern: UInt32(bits))) : Double(bitPattern: bits))
    case 0x3:
      guard marker == 0x33 else { throw unsupported(marker, offset) }
      try checkedRange(offset + 1, 8, "a date")
      let seconds = Double(bitPattern: unsigned(at: offset + 1, size: 8))
      guard seconds.isFinite else { throw damaged("the date at byte \(offset) is not a finite number") }
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    case 0x4:
      let (start, length) = try lengthAndStart(offset, low, depth: depth)
      try checkedRange(start, length, "data")
      return .data(Data(bytes[start..<(start + length)]))
    case 0x5:
      let (start, length) = try lengthAndStart(offset, low, depth: depth)
      try checkedRange(start, length, "a string")
      guard bytes[start..<(start + length)].allSatisfy({ $0 < 0x80 }) else {
        throw damaged("the ASCII string at byte \(offset) holds a byte above 0x7F")
      }
      return .string(String(decoding: bytes[start..<(start + length)], as: UTF8.self))
    case 0x6:
      let (start, count) = try lengthAndStart(offset, low, depth: depth)
      let (length, overflow) = count.multipliedReportingOverflow(by: 2)
      guard !overflow else { throw damaged("a string length at byte \(offset)") }
      try checkedRange(start, length, "a string")
      var units: [UInt16] = []
      units.reserveCapacity(count)
      for index in 0..<count {
        units.append(UInt16(bytes[start + 2 * index]) << 8 | UInt16(bytes[start + 2 * index + 1]))
      }
      guard let text = String(validating: units, as: UTF16.self) else {
        throw damaged("the UTF-16 string at byte \(offset) is not valid UTF-16")
      }
      return .string(text)
    case 0x8:
      throw PropertyListError(
        .unsupportedValue,
        "the binary property list holds a keyed-archiver UID (byte \(offset)); it is an NSKeyedArchiver "
          + "archive, not an Info.plist or entitlements file", path: path)
    case 0xA:
      let (start, count) = try lengthAndStart(offset, low, depth: depth)
      let references = try referenceList(start, count, "an array")
      return .array(
        try enter(reference, depth: depth) { reader throws(PropertyListError) in
          var elements: [PropertyListValue] = []
          elements.reserveCapacity(references.count)
          for element in references { elements.append(try reader.object(element, depth: depth + 1)) }
          return elements
        })
    case 0xD:
      let (start, count) = try lengthAndStart(offset, low, depth: depth)
      let references = try referenceList(start, count * 2, "a dictionary")
      return .dictionary(
        try enter(reference, depth: depth) { reader throws(PropertyListError) in
          var entries: [PropertyListDictionary.Entry] = []
          var seen: Set<String> = []
          for index in 0..<count {
            guard case .string(let key) = try reader.object(references[index], depth: depth + 1) else {
              throw reader.damaged("a dictionary key at byte \(offset) is not a string")
            }
            if !seen.insert(key).inserted, reader.duplicateKeys == .error {
              throw PropertyListError(
                .duplicateKey, "the key '\(key)' appears twice in one dictionary (at byte \(offset))",
                path: reader.path, hint: "remove one of them; Apple's readers keep the last")
            }
            entries.append(
              .init(key: key, value: try reader.object(references[count + index], depth: depth + 1)))
          }
          return PropertyListDictionary(entries)
        })
    default:
      throw unsupported(marker, offset)
    }
  }

  private func unsupported(_ marker: UInt8, _ offset: Int) -> PropertyListError {
    let hex = String(marker, radix: 16, uppercase: true)
    return damaged("unknown object marker 0x\(hex.count == 1 ? "0" + hex : hex) at byte \(offset)")
  }

  /// Runs `body` with object `reference` marked as being read, refusing a reference back into it.
  private mutating func enter<Result>(
    _ reference: Int, depth: Int, _ body: (inout BinaryPropertyListReader) throws(PropertyListError) -> Result
  ) throws(PropertyListError) -> Result {
    guard depth < PropertyListLimits.maximumDepth else {
      throw PropertyListLimits.tooDeep(at: nil, path: path)
    }
    guard reading.insert(reference).inserted else {
      throw damaged("object \(reference) contains itself (a reference cycle)")
    }
    defer { reading.remove(reference) }
    return try body(&self)
  }

  /// The start of an object's payload and its count: the marker's low nibble, or an integer object after it.
  private mutating func lengthAndStart(_ offset: Int, _ low: Int, depth: Int) throws(PropertyListError)
    -> (start: Int, count: Int)
  {
    guard low == 0xF else { return (offset + 1, low) }
    try checkedRange(offset + 1, 1, "a length")
    let marker = bytes[offset + 1]
    guard marker >> 4 == 0x1, marker & 0x0F <= 3 else { throw damaged("the length at byte \(offset + 1)") }
    let size = 1 << Int(marker & 0x0F)
    try checkedRange(offset + 2, size, "a length")
    let count = unsigned(at: offset + 2, size: size)
    guard count <= UInt64(bytes.count) else { throw damaged("a length of \(count) at byte \(offset + 1)") }
    return (offset + 2 + size, Int(count))
  }

  private func referenceList(_ start: Int, _ count: Int, _ what: String) throws(PropertyListError) -> [Int] {
    let (length, overflow) = count.multipliedReportingOverflow(by: referenceSize)
    guard !overflow else { throw damaged("\(what)'s length at byte \(start)") }
    try checkedRange(start, length, what)
    return (0..<count).map { Int(unsigned(at: start + $0 * referenceSize, size: referenceSize)) }
  }
}

/// Writes values as binary property lists (`bplist00`) that Apple's readers accept: the smallest integer,
/// reference and offset sizes, ASCII strings as such and others as UTF-16, equal strings and numbers
/// written once.
enum BinaryPropertyListWriter {
  static func data(_ value: PropertyListValue) -> Data {
    var writer = Writer()
    let top = writer.add(value)
    return writer.finish(top: top)
  }

  private struct Writer {
    /// Objects flattened; containers hold references, filled in once every object has a number.
    enum Flat {
      case scalar([UInt8])
      case array([Int])
      case dictionary(keys: [Int], values: [Int])
    }

    var objects: [Flat] = []
    var uniqued: [PropertyListValue: Int] = [:]

    mutating func add(_ value: PropertyListValue) -> Int {
      switch value {
      case .array(let elements):
        let index = objects.count
        objects.append(.array([]))
        objects[index] = .array(elements.map { add($0) })
        return index
      case .dictionary(let dictionary):
        let index = objects.count
        objects.append(.array([]))
        let keys = dictionary.entries.map { add(.string($0.key)) }
        let values = dictionary.entries.map { add($0.value) }
        objects[index] = .dictionary(keys: keys, values: values)
        return index
      default:
        if let known = uniqued[value] { return known }
        objects.append(.scalar(Self.encodeScalar(value)))
        uniqued[value] = objects.count - 1
        return objects.count - 1
      }
    }

    static func header(_ kind: UInt8, count: Int) -> [UInt8] {
      if count < 15 { return [kind << 4 | UInt8(count)] }
      return [kind << 4 | 0x0F] + integer(Int64(count))
    }

    static func integer(_ number: Int64) -> [UInt8] {
      let (marker, size): (UInt8, Int) =
        switch number {
        case 0...0xFF: (0x10, 1)
        case 0...0xFFFF: (0x11, 2)
        case 0...0xFFFF_FFFF: (0x12, 4)
        default: (0x13, 8)
        }
      return [marker] + bigEndian(UInt64(bitPattern: number), size: size)
    }

    static func bigEndian(_ value: UInt64, size: Int) -> [UInt8] {
      (0..<size).map { UInt8(truncatingIfNeeded: value >> (8 * UInt64(size - 1 - $0))) }
    }

    static func encodeScalar(_ value: PropertyListValue) -> [UInt8] {
      switch value {
      case .bool(let flag): return [flag ? 0x09 : 0x08]
      case .integer(let number): return integer(number)
      case .real(let number): return [0x23] + bigEndian(number.bitPattern, size: 8)
      case .date(let date):
        return [0x33] + bigEndian(date.timeIntervalSinceReferenceDate.bitPattern, size: 8)
      case .data(let data): return header(0x4, count: data.count) + [UInt8](data)
      case .string(let text):
        if text.utf8.allSatisfy({ $0 < 0x80 }) {
          return header(0x5, count: text.utf8.count) + Array(text.utf8)
        }
        let units = Array(text.utf16)
        return header(0x6, count: units.count) + units.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
      case .array, .dictionary: return []
      }
    }

    static func byteSize(_ maximum: Int) -> Int {
      switch maximum {
      case 0...0xFF: 1
      case 0...0xFFFF: 2
      case 0...0xFFFF_FFFF: 4
      default: 8
      }
    }

    func finish(top: Int) -> Data {
      let referenceSize = Self.byteSize(objects.count)
      var output: [UInt8] = Array("bplist00".utf8)
      var offsets: [Int] = []
      offsets.reserveCapacity(objects.count)
      func references(_ list: [Int]) -> [UInt8] {
        list.flatMap { Self.bigEndian(UInt64($0), size: referenceSize) }
      }
      for object in objects {
        offsets.append(output.count)
        switch object {
        case .scalar(let encoded): output += encoded
        case .array(let elements): output += Self.header(0xA, count: elements.count) + references(elements)
        case .dictionary(let keys, let values):
          output += Self.header(0xD, count: keys.count) + references(keys) + references(values)
        }
      }
      let tableOffset = output.count
      let offsetSize = Self.byteSize(tableOffset)
      for offset in offsets { output += Self.bigEndian(UInt64(offset), size: offsetSize) }
      output += [0, 0, 0, 0, 0, 0, UInt8(offsetSize), UInt8(referenceSize)]
      output += Self.bigEndian(UInt64(objects.count), size: 8) + Self.bigEndian(UInt64(top), size: 8)
      output += Self.bigEndian(UInt64(tableOffset), size: 8)
      return Data(output)
    }
  }
}
