#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes a value as a binary property list (`bplist00`) the way CoreFoundation does, so Apple's readers
/// (and `plutil`) accept it.
///
/// Offsets, references and integers take the fewest bytes of 1, 2, 4 or 8 that hold them; negative
/// integers take 8 (1-, 2- and 4-byte integers are unsigned in `bplist00`). Strings are ASCII (`0x5n`) when
/// every scalar is below 0x80, UTF-16 big-endian (`0x6n`) otherwise. Equal scalars (strings, numbers,
/// dates, data) are written once and shared, as CoreFoundation does; containers are not shared, and
/// dictionaries keep their key order.
enum BinaryPropertyListWriter {
  /// The `bplist00` bytes of `value`.
  static func data(_ value: PropertyListValue) -> Data {
    var objects = ObjectTable()
    let top = objects.add(value)
    return Data(objects.serialized(top: top))
  }

  /// A scalar's identity for sharing: exact, so `0.0` and `-0.0`, or two strings that Swift calls equal
  /// but that differ in their scalars (`é` and `e` + combining acute), stay apart.
  private enum ScalarKey: Hashable {
    case string([UInt8])
    case integer(Int64)
    case real(UInt64)
    case bool(Bool)
    case date(UInt64)
    case data(Data)
  }

  /// One object to write; containers hold the numbers of their elements.
  private enum Object {
    case scalar(PropertyListValue)
    case array([Int])
    case dictionary(keys: [Int], values: [Int])
  }

  private struct ObjectTable {
    var objects: [Object] = []
    var shared: [ScalarKey: Int] = [:]

    /// Adds `value` and everything in it; returns its object number.
    mutating func add(_ value: PropertyListValue) -> Int {
      switch value {
      case .array(let elements):
        let number = reserve()
        objects[number] = .array(elements.map { add($0) })
        return number
      case .dictionary(let dictionary):
        let number = reserve()
        let keys = dictionary.entries.map { add(.string($0.key)) }
        let values = dictionary.entries.map { add($0.value) }
        objects[number] = .dictionary(keys: keys, values: values)
        return number
      default:
        let key = Self.key(of: value)
        if let number = shared[key] { return number }
        objects.append(.scalar(value))
        shared[key] = objects.count - 1
        return objects.count - 1
      }
    }

    /// A placeholder for a container, so it is numbered before its elements (the top object is 0).
    private mutating func reserve() -> Int {
      objects.append(.array([]))
      return objects.count - 1
    }

    private static func key(of value: PropertyListValue) -> ScalarKey {
      switch value {
      case .string(let text): .string(Array(text.utf8))
      case .integer(let number): .integer(number)
      case .real(let number): .real(number.bitPattern)
      case .bool(let flag): .bool(flag)
      case .date(let date): .date(date.timeIntervalSinceReferenceDate.bitPattern)
      case .data(let data): .data(data)
      // Containers are never shared; `add` handles them before asking for a key.
      case .array, .dictionary: .integer(0)
      }
    }

    func serialized(top: Int) -> [UInt8] {
      let referenceWidth = BinaryPropertyListWriter.width(UInt64(objects.count))
      var output = Array("bplist00".utf8)
      var offsets: [Int] = []
      offsets.reserveCapacity(objects.count)
      for object in objects {
        offsets.append(output.count)
        switch object {
        case .scalar(let value):
          BinaryPropertyListWriter.append(value, to: &output)
        case .array(let elements):
          BinaryPropertyListWriter.appendMarker(0xA0, count: elements.count, to: &output)
          for element in elements { appendBigEndian(UInt64(element), width: referenceWidth, to: &output) }
        case .dictionary(let keys, let values):
          BinaryPropertyListWriter.appendMarker(0xD0, count: keys.count, to: &output)
          for reference in keys + values {
            appendBigEndian(UInt64(reference), width: referenceWidth, to: &output)
          }
        }
      }
      let tableOffset = output.count
      let offsetWidth = BinaryPropertyListWriter.width(UInt64(tableOffset))
      for offset in offsets { appendBigEndian(UInt64(offset), width: offsetWidth, to: &output) }
      output.append(contentsOf: [0, 0, 0, 0, 0, 0, UInt8(offsetWidth), UInt8(referenceWidth)])
      appendBigEndian(UInt64(objects.count), width: 8, to: &output)
      appendBigEndian(UInt64(top), width: 8, to: &output)
      appendBigEndian(UInt64(tableOffset), width: 8, to: &output)
      return output
    }
  }

  /// The fewest bytes of 1, 2, 4 or 8 that hold `value`, as CoreFoundation chooses them for offsets,
  /// references and integers (its reader requires a reference width whose range exceeds the object count).
  static func width(_ value: UInt64) -> Int {
    switch value {
    case ...0xFF: 1
    case ...0xFFFF: 2
    case ...0xFFFF_FFFF: 4
    default: 8
    }
  }

  private static func append(_ value: PropertyListValue, to output: inout [UInt8]) {
    switch value {
    case .bool(let flag):
      output.append(flag ? 0x09 : 0x08)
    case .integer(let number):
      appendInteger(number, to: &output)
    case .real(let number):
      output.append(0x23)
      appendBigEndian(number.bitPattern, width: 8, to: &output)
    case .date(let date):
      output.append(0x33)
      appendBigEndian(date.timeIntervalSinceReferenceDate.bitPattern, width: 8, to: &output)
    case .data(let data):
      appendMarker(0x40, count: data.count, to: &output)
      output.append(contentsOf: data)
    case .string(let text):
      if text.utf8.allSatisfy({ $0 < 0x80 }) {
        appendMarker(0x50, count: text.utf8.count, to: &output)
        output.append(contentsOf: text.utf8)
      } else {
        appendMarker(0x60, count: text.utf16.count, to: &output)
        for unit in text.utf16 { appendBigEndian(UInt64(unit), width: 2, to: &output) }
      }
    case .array, .dictionary:
      break  // Written by the object table.
    }
  }

  /// An integer object: non-negative ones in the fewest bytes, negative ones in 8 (two's complement).
  private static func appendInteger(_ number: Int64, to output: inout [UInt8]) {
    let bits = UInt64(bitPattern: number)
    let width = number < 0 ? 8 : width(bits)
    output.append(0x10 | UInt8(width.trailingZeroBitCount))
    appendBigEndian(bits, width: width, to: &output)
  }

  /// A marker with its count: in the low nibble below 15, else `0xF` followed by an integer object.
  private static func appendMarker(_ marker: UInt8, count: Int, to output: inout [UInt8]) {
    if count < 15 {
      output.append(marker | UInt8(count))
    } else {
      output.append(marker | 0x0F)
      appendInteger(Int64(count), to: &output)
    }
  }
}

/// The last `width` bytes of `value`, most significant first.
private func appendBigEndian(_ value: UInt64, width: Int, to output: inout [UInt8]) {
  for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
    output.append(UInt8(truncatingIfNeeded: value >> UInt64(shift)))
  }
}
