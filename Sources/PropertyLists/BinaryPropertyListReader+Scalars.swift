// Integers, lengths and strings (ASCII and UTF-16) inside objects, every span checked against the file.

extension BinaryPropertyListReader {
  /// The integer of the `0x1n` object at `offset`: 1, 2 and 4 bytes unsigned, 8 bytes signed, 16 bytes a
  /// signed 128-bit number that must fit in 64 bits.
  func integer(at offset: Int, object: Int) throws(PropertyListError) -> Int64 {
    let exponent = Int(bytes[offset] & 0x0F)
    guard exponent <= 4 else {
      throw damaged(
        object, offset, "is an integer of 2^\(exponent) bytes; integers are 1, 2, 4, 8 or 16 bytes")
    }
    let width = 1 << exponent
    let start = try span(offset + 1, width, object: object, offset: offset)
    if width < 16 {
      return Int64(bitPattern: Self.bigEndian(bytes[start..<(start + width)]))
    }
    let high = Self.bigEndian(bytes[start..<(start + 8)])
    let low = Self.bigEndian(bytes[(start + 8)..<(start + 16)])
    let fits = (high == 0 && low >> 63 == 0) || (high == UInt64.max && low >> 63 == 1)
    guard fits else {
      let value = Int128(Int64(bitPattern: high)) << 64 | Int128(low)
      throw unsupported(object, offset, "is the integer \(value), which does not fit in 64 signed bits")
    }
    return Int64(bitPattern: low)
  }

  /// The length of a data, string or container object: the marker's low nibble, or for `0xF` the integer
  /// object that follows the marker. Returns the length and where the contents start.
  func length(_ nibble: Int, at offset: Int, object: Int) throws(PropertyListError) -> (Int, Int) {
    guard nibble == 0xF else { return (nibble, offset + 1) }
    let countOffset = offset + 1
    guard countOffset < offsetTableStart, bytes[countOffset] >> 4 == 0x1, bytes[countOffset] & 0x0F <= 4
    else {
      throw damaged(object, offset, "has a length marker (0xF) that is not followed by an integer object")
    }
    let width = 1 << Int(bytes[countOffset] & 0x0F)
    let start = try span(countOffset + 1, width, object: object, offset: offset)
    let digits = bytes[start..<(start + width)]
    // Only the last 8 bytes of a 16-byte count may be non-zero, and the count must fit in an Int.
    let significant = digits.suffix(8)
    guard digits.dropLast(8).allSatisfy({ $0 == 0 }), Self.bigEndian(significant) <= UInt64(Int.max) else {
      throw damaged(object, offset, "has a length beyond anything the file can hold")
    }
    return (Int(Self.bigEndian(significant)), start + width)
  }

  /// `start` after checking that `count` bytes from it lie inside the objects' bytes.
  func span(_ start: Int, _ count: Int, object: Int, offset: Int) throws(PropertyListError) -> Int {
    let (end, overflow) = start.addingReportingOverflow(count)
    guard !overflow, end <= offsetTableStart else {
      throw damaged(
        object, offset,
        "needs \(count) bytes from byte \(start), past the end of the objects (the offset table starts at "
          + "byte \(offsetTableStart))")
    }
    return start
  }

  func asciiString(_ nibble: Int, at offset: Int, object: Int) throws(PropertyListError) -> String {
    let (length, first) = try length(nibble, at: offset, object: object)
    let start = try span(first, length, object: object, offset: offset)
    let text = bytes[start..<(start + length)]
    if let stray = text.firstIndex(where: { $0 >= 0x80 }) {
      throw PropertyListError(
        .invalidEncoding,
        "the binary property list is damaged: string object \(object) at byte offset \(offset) is marked "
          + "ASCII but holds byte 0x\(hex(bytes[stray])) at byte offset \(stray)",
        hint: Self.damageHint)
    }
    return String(decoding: text, as: UTF8.self)
  }

  func utf16String(_ nibble: Int, at offset: Int, object: Int) throws(PropertyListError) -> String {
    let (units, first) = try length(nibble, at: offset, object: object)
    let (length, overflow) = units.multipliedReportingOverflow(by: 2)
    guard !overflow else { throw damaged(object, offset, "is a string longer than the file") }
    let start = try span(first, length, object: object, offset: offset)
    var codeUnits: [UInt16] = []
    codeUnits.reserveCapacity(units)
    for index in 0..<units {
      let at = start + 2 * index
      codeUnits.append(UInt16(bytes[at]) << 8 | UInt16(bytes[at + 1]))
    }
    var scalars = String.UnicodeScalarView()
    var decoder = UTF16()
    var iterator = codeUnits.makeIterator()
    var index = 0
    while true {
      switch decoder.decode(&iterator) {
      case .scalarValue(let scalar):
        scalars.append(scalar)
        index += scalar.utf16.count
      case .emptyInput:
        return String(scalars)
      case .error:
        throw PropertyListError(
          .invalidEncoding,
          "the binary property list is damaged: string object \(object) at byte offset \(offset) is not "
            + "valid UTF-16: an unpaired surrogate 0x\(hex(codeUnits[index])) at byte offset \(start + 2 * index)",
          hint: Self.damageHint)
      }
    }
  }
}
