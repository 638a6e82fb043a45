import Foundation
import RuleKitFoundation
import TestSupport
import Testing

@testable import PropertyLists

/// A `bplist00` made of raw objects, for malformed input: `objects[n]` is object n's bytes (references in
/// them are `referenceWidth` bytes); the trailer fields can be overridden to damage it.
func rawBinaryPlist(
  _ objects: [[UInt8]], top: UInt64 = 0, offsetWidth: UInt8 = 0, referenceWidth: UInt8 = 1,
  count: UInt64? = nil, tableOffset: UInt64? = nil, offsets: [Int]? = nil
) -> [UInt8] {
  var bytes = Array("bplist00".utf8)
  var starts: [Int] = []
  for object in objects {
    starts.append(bytes.count)
    bytes += object
  }
  let table = bytes.count
  let width = offsetWidth == 0 ? (table <= 0xFF ? 1 : 2) : Int(offsetWidth)
  for offset in offsets ?? starts {
    for shift in stride(from: (width - 1) * 8, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: offset >> shift))
    }
  }
  bytes += [0, 0, 0, 0, 0, 0, UInt8(width), referenceWidth]
  for field in [count ?? UInt64(objects.count), top, tableOffset ?? UInt64(table)] {
    for shift in stride(from: 56, through: 0, by: -8) {
      bytes.append(UInt8(truncatingIfNeeded: field >> UInt64(shift)))
    }
  }
  return bytes
}

/// The ASCII string object for `text`.
func asciiObject(_ text: String) -> [UInt8] { [0x50 | UInt8(text.utf8.count)] + Array(text.utf8) }

@Suite("Binary property lists: our reader and writer against Foundation's")
struct BinaryPropertyListTests {
  static let fixtures: [(String, PropertyListValue)] = [
    ("Info.plist-like", FileTests.sample),
    ("empty dictionary", .dictionary([:])),
    ("empty array", .array([])),
    ("top-level string", .string("just a string")),
    ("top-level non-ASCII string", .string("Grüße 😀")),
    ("whole reals", .array([.real(0), .real(2), .real(-0.0), .real(1e20)])),
    ("integer boundaries", .array(RandomPropertyList.integers.map(PropertyListValue.integer))),
    (
      "dates with fractions",
      .array([
        .date(Date(timeIntervalSinceReferenceDate: 0.5)),
        .date(Date(timeIntervalSinceReferenceDate: -1e9 - 0.25)),
      ])
    ),
    (
      "long containers and strings",
      .dictionary(
        PropertyListDictionary(
          (0..<20).map {
            .init(
              key: "key number \($0)",
              value: .array(Array(repeating: .string(String(repeating: "x", count: $0)), count: $0)))
          }))
    ),
    ("many objects (two-byte references)", .array((0..<300).map { .integer(Int64($0) * 1_000_003) })),
    (
      "nested",
      .dictionary([
        "NSExtension": .dictionary([
          "NSExtensionAttributes": .dictionary([
            "NSExtensionActivationRule": .string(
              "SUBQUERY(extensionItems, $e, ANY $e.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO \"public.image\").@count > 0"
            )
          ])
        ]),
        "Data": .data(Data(repeating: 7, count: 1000)),
      ])
    ),
  ]

  static func foundationBinary(_ value: PropertyListValue) throws -> Data {
    try PropertyListSerialization.data(fromPropertyList: value.foundationObject, format: .binary, options: 0)
  }

  @Test("Foundation's binary output reads as the value", arguments: fixtures.map(\.0))
  func readsFoundationOutput(name: String) throws {
    let value = try #require(Self.fixtures.first { $0.0 == name }?.1)
    let read = try BinaryPropertyListReader.read([UInt8](try Self.foundationBinary(value)))
    #expect(read.normalizedKeyOrder == value.normalizedKeyOrder)
  }

  @Test(
    "our output reads in Foundation as the value, and in our reader with its key order",
    arguments: fixtures.map(\.0))
  func foundationReadsOurOutput(name: String) throws {
    let value = try #require(Self.fixtures.first { $0.0 == name }?.1)
    let data = BinaryPropertyListWriter.data(value)
    var format = PropertyListSerialization.PropertyListFormat.xml
    let object = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
    #expect(format == .binary)
    #expect(try PropertyListValue(foundationObject: object) == value.normalizedKeyOrder)
    #expect(try BinaryPropertyListReader.read([UInt8](data)) == value)
  }

  @Test("random values: Foundation → ours, ours → Foundation, ours → ours (seeded)")
  func randomValues() throws {
    var generator = SeededGenerator(seed: 0xB1157)
    for round in 0..<300 {
      let value = RandomPropertyList.value(using: &generator)
      let sorted = value.normalizedKeyOrder
      let fromFoundation = try BinaryPropertyListReader.read([UInt8](try Self.foundationBinary(value)))
      #expect(
        fromFoundation.normalizedKeyOrder == sorted, "round \(round): Foundation's bytes read differently")
      let ours = BinaryPropertyListWriter.data(value)
      #expect(
        try foundationValue(of: ours) == sorted, "round \(round): Foundation reads our bytes differently")
      #expect(
        try BinaryPropertyListReader.read([UInt8](ours)) == value, "round \(round): ours does not round-trip")
    }
  }

  @Test("the same bytes as CoreFoundation for containers whose order Foundation keeps")
  func sameBytesAsCoreFoundation() throws {
    let values: [PropertyListValue] = [
      // (Foundation on Linux does not share equal strings as Apple's CoreFoundation does, so no repeats.)
      .array([.string("a"), .string("b")]),
      .dictionary(["k": .array([.string("x"), .integer(1), .bool(true), .real(2.5), .integer(-3)])]),
      .array([.string("été"), .data(Data([1, 2, 3])), .date(Date(timeIntervalSinceReferenceDate: 12.5))]),
      .array((0..<20).map { .integer(Int64($0) << 20) }),
    ]
    for value in values {
      let ours = BinaryPropertyListWriter.data(value)
      let theirs = try Self.foundationBinary(value)
      #expect(
        ours == theirs,
        "\(value)\nours:   \(ours.map { String($0, radix: 16) })\ntheirs: \(theirs.map { String($0, radix: 16) })"
      )
    }
  }

  /// Found by `scripts/fuzz plist`: a binary Info.plist holding a NaN real read back "to another value",
  /// because NaN != NaN made the value unequal to itself.
  @Test("a NaN real equals itself, so a plist holding one round-trips (fuzz finding)")
  func nanRealRoundTrips() throws {
    #expect(PropertyListValue.real(.nan) == .real(.nan))
    #expect(PropertyListValue.real(.nan).hashValue == PropertyListValue.real(-.nan).hashValue)
    #expect(PropertyListValue.real(.nan) != .real(0))
    let input = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("fuzz/bplist-nan-real.plist"))
    let file = try PropertyListFile(data: input, duplicateKeys: .keepLast)
    let written = try PropertyListFile(content: .value(file.value, .binary), path: nil).serialized()
    #expect(try PropertyListFile(data: written).value == file.value)
  }

  /// Found by `scripts/fuzz plist`: a date object holding NaN read back unequal, and writing any date
  /// outside the years 0 to 9999 as XML text trapped converting it to Int.
  @Test("a date that is NaN or outside the years 0 to 9999 is damage (fuzz finding)")
  func outOfRangeDateRefused() throws {
    let input = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent("fuzz/bplist-nan-date.plist"))
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(data: input, duplicateKeys: .keepLast)
    }
    #expect(error.kind == .malformed)
    #expect(error.message.contains("outside the years 0 to 9999"))
    for seconds in [Double.infinity, -1e300, 252_423_993_600] {
      let bytes = BinaryPropertyListWriter.data(.date(Date(timeIntervalSinceReferenceDate: seconds)))
      #expect(throws: PropertyListError.self) { try PropertyListFile(data: bytes) }
    }
    let latest = Date(timeIntervalSinceReferenceDate: 252_423_993_599)
    #expect(try PropertyListFile(data: BinaryPropertyListWriter.data(.date(latest))).value == .date(latest))
    #expect(PropertyListScalars.text(of: latest) == "9999-12-31T23:59:59Z")
    #expect(
      PropertyListScalars.text(of: Date(timeIntervalSinceReferenceDate: -63_145_526_400))
        == "0000-01-01T00:00:00Z")
    // Made in code, beyond the range: written as the nearest date the format holds, never a trap.
    #expect(
      PropertyListScalars.text(of: Date(timeIntervalSinceReferenceDate: .infinity)) == "9999-12-31T23:59:59Z")
    #expect(
      PropertyListScalars.text(of: Date(timeIntervalSinceReferenceDate: .nan)) == "2001-01-01T00:00:00Z")
  }

  @Test("the writer picks the smallest widths and the markers CoreFoundation uses")
  func writerEncoding() throws {
    // Small file: one-byte offsets and references; 15 elements need a count object.
    let small = [UInt8](BinaryPropertyListWriter.data(.array(Array(repeating: .bool(true), count: 15))))
    #expect(small[8] == 0xAF && small[9] == 0x10 && small[10] == 15)
    #expect(small[small.count - 26] == 1 && small[small.count - 25] == 1)
    // 300 distinct objects: two-byte references.
    let many = [UInt8](BinaryPropertyListWriter.data(.array((0..<300).map { .integer(Int64($0)) })))
    #expect(many[many.count - 25] == 2)
    // Integers: unsigned in 1, 2, 4 bytes, negative in 8.
    #expect(Array([UInt8](BinaryPropertyListWriter.data(.integer(255)))[8...9]) == [0x10, 0xFF])
    #expect(Array([UInt8](BinaryPropertyListWriter.data(.integer(256)))[8...10]) == [0x11, 0x01, 0x00])
    #expect(
      Array([UInt8](BinaryPropertyListWriter.data(.integer(-1)))[8...16]) == [0x13]
        + Array(repeating: 0xFF, count: 8))
    // Strings: ASCII when every scalar is below 0x80, else UTF-16 big-endian.
    #expect(Array([UInt8](BinaryPropertyListWriter.data(.string("ab")))[8...10]) == [0x52, 0x61, 0x62])
    #expect(Array([UInt8](BinaryPropertyListWriter.data(.string("é")))[8...10]) == [0x61, 0x00, 0xE9])
    // Equal scalars are written once; -0.0 and 0.0 are not equal here.
    let shared = [UInt8](
      BinaryPropertyListWriter.data(.array([.string("same"), .string("same"), .real(0), .real(-0.0)])))
    #expect(shared[(shared.count - 24)..<(shared.count - 16)].last == 4)
    // Key order is kept.
    let ordered: PropertyListValue = .dictionary(["z": .integer(1), "a": .integer(2), "m": .integer(3)])
    #expect(
      try BinaryPropertyListReader.read([UInt8](BinaryPropertyListWriter.data(ordered))).dictionaryValue?.keys
        == ["z", "a", "m"])
  }

  @Test("every reading of the integer and real encodings")
  func scalarEncodings() throws {
    func read(_ object: [UInt8]) throws -> PropertyListValue {
      try BinaryPropertyListReader.read(rawBinaryPlist([object]))
    }
    #expect(try read([0x10, 0xFF]) == .integer(255))
    #expect(try read([0x11, 0xFF, 0xFF]) == .integer(65_535))
    #expect(try read([0x12, 0xFF, 0xFF, 0xFF, 0xFF]) == .integer(4_294_967_295))
    #expect(try read([0x13] + Array(repeating: 0xFF, count: 8)) == .integer(-1))
    #expect(try read([0x14] + Array(repeating: 0xFF, count: 16)) == .integer(-1))
    #expect(try read([0x14] + Array(repeating: 0, count: 15) + [5]) == .integer(5))
    #expect(try read([0x22, 0x3F, 0xC0, 0x00, 0x00]) == .real(1.5))
    #expect(try read([0x08]) == .bool(false))
    #expect(try read([0x09]) == .bool(true))
    #expect(
      try read([0x33, 0x41, 0xD0, 0, 0, 0, 0, 0, 0])
        == .date(Date(timeIntervalSinceReferenceDate: 1_073_741_824)))
    #expect(try read([0x40]) == .data(Data()))
    #expect(try read([0x62, 0xD8, 0x3D, 0xDE, 0x00]) == .string("😀"))
    #expect(try read([0x5F, 0x10, 0x02, 0x61, 0x62]) == .string("ab"))
  }

  /// Reading `bytes` fails with `kind`, and the message contains `fragment`.
  func expectFailure(
    _ bytes: [UInt8], _ kind: PropertyListError.Kind, _ fragment: String,
    duplicateKeys: PropertyListDuplicateKeyPolicy = .error, sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let value = try BinaryPropertyListReader.read(bytes, duplicateKeys: duplicateKeys)
      Issue.record("read as \(value)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.kind == kind, "\(error.message)", sourceLocation: sourceLocation)
      #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
      #expect(error.hint != nil, sourceLocation: sourceLocation)
    }
  }

  @Test("every prefix of a binary plist is an error, not a crash")
  func truncated() throws {
    let whole = [UInt8](try Self.foundationBinary(FileTests.sample))
    for length in 0..<whole.count {
      let prefix = Array(whole.prefix(length))
      #expect(throws: PropertyListError.self, "\(length) bytes") { try BinaryPropertyListReader.read(prefix) }
    }
    expectFailure(Array(whole.prefix(30)), .malformed, "it is 30 bytes, too short")
    expectFailure(Array(whole.dropLast()), .malformed, "trailer")
  }

  @Test("a damaged trailer is named")
  func badTrailer() {
    let objects = [[0xA1, 0x01], asciiObject("x")]
    expectFailure(rawBinaryPlist(objects, offsetWidth: 9), .malformed, "offsets a width of 9 bytes")
    expectFailure(
      rawBinaryPlist(objects, referenceWidth: 0), .malformed, "object references a width of 0 bytes")
    expectFailure(rawBinaryPlist(objects, count: 0), .malformed, "counts 0 objects")
    expectFailure(
      rawBinaryPlist(objects, count: UInt64.max), .malformed, "counts 18446744073709551615 objects")
    expectFailure(rawBinaryPlist(objects, top: 2), .malformed, "names object 2 as the top object")
    expectFailure(rawBinaryPlist(objects, tableOffset: 3), .malformed, "puts the offset table at byte 3")
    expectFailure(
      rawBinaryPlist(objects, tableOffset: UInt64.max), .malformed, "puts the offset table at byte")
    expectFailure(
      rawBinaryPlist(objects, tableOffset: 9), .malformed, "does not end where the trailer starts")
    expectFailure(Array("bplist15".utf8) + rawBinaryPlist(objects).dropFirst(8), .malformed, "version \"15\"")
  }

  @Test("offsets and references outside the file are named")
  func outOfRange() {
    expectFailure(
      rawBinaryPlist([[0xA1, 0x01], asciiObject("x")], offsets: [8, 200]), .malformed,
      "puts object 1 at byte 200")
    expectFailure(
      rawBinaryPlist([[0xA1, 0x01], asciiObject("x")], offsets: [8, 2]), .malformed,
      "puts object 1 at byte 2")
    expectFailure(
      rawBinaryPlist([[0xA2, 0x01, 0x07], asciiObject("x")]), .malformed,
      "refers to object 7, but the file has only 2 objects")
    // A string, data or container longer than what is left before the offset table.
    expectFailure(
      rawBinaryPlist([[0x5F, 0x13, 0x7F] + Array(repeating: 0xFF, count: 7)]), .malformed,
      "needs 9223372036854775807 bytes")
    expectFailure(
      rawBinaryPlist([[0x6F, 0x13, 0x40] + Array(repeating: 0, count: 7)]), .malformed,
      "a string longer than the file")
    expectFailure(
      rawBinaryPlist([[0xAF, 0x13, 0x7F] + Array(repeating: 0xFF, count: 7)]), .malformed,
      "needs")
    expectFailure(
      rawBinaryPlist([[0xDF, 0x13, 0x40] + Array(repeating: 0, count: 7)]), .malformed,
      "more than the file holds")
    expectFailure(rawBinaryPlist([[0x4F, 0x50]]), .malformed, "not followed by an integer object")
    expectFailure(
      rawBinaryPlist([[0x4F, 0x14, 1] + Array(repeating: 0, count: 15)]), .malformed,
      "a length beyond anything")
    expectFailure(rawBinaryPlist([[0x13, 0x00]]), .malformed, "needs 8 bytes from byte 9")
  }

  @Test("a container that contains itself is a cycle")
  func cycles() {
    expectFailure(
      rawBinaryPlist([[0xA1, 0x00]]), .malformed, "object 0 at byte offset 8 is an array that contains itself"
    )
    expectFailure(
      rawBinaryPlist([[0xA1, 0x01], [0xA1, 0x02], [0xD1, 0x03, 0x00], asciiObject("k")]), .malformed,
      "object 0 at byte offset 8 is an array that contains itself")
    // Two offset-table entries for the same bytes are the same object.
    expectFailure(
      rawBinaryPlist([[0xA1, 0x01]], count: 2, offsets: [8, 8]), .malformed,
      "object 1 at byte offset 8 is an array that contains itself")
  }

  @Test("shared objects: a small DAG reads as its tree, an exponential one is refused")
  func sharedObjects() throws {
    // Object n is an array holding object n + 1 twice; the last is a string.
    func ladder(_ levels: Int) -> [UInt8] {
      var objects: [[UInt8]] = (0..<levels).map { [0xA2, UInt8($0 + 1), UInt8($0 + 1)] }
      objects.append(asciiObject("leaf"))
      return rawBinaryPlist(objects)
    }
    var expected: PropertyListValue = .string("leaf")
    for _ in 0..<10 { expected = .array([expected, expected]) }
    #expect(try BinaryPropertyListReader.read(ladder(10)) == expected)
    let start = ContinuousClock.now
    expectFailure(
      ladder(60), .limitExceeded, "more than 4194304 values (PropertyListLimits.maximumValueCount)")
    #expect(ContinuousClock.now - start < .seconds(5))
  }

  @Test("strings that are not ASCII or UTF-16")
  func badStrings() {
    expectFailure(
      rawBinaryPlist([[0x62, 0x00, 0x61, 0xD8, 0x00]]), .invalidEncoding, "unpaired surrogate 0xD800")
    expectFailure(rawBinaryPlist([[0x61, 0xDC, 0x00]]), .invalidEncoding, "unpaired surrogate 0xDC00")
    expectFailure(rawBinaryPlist([[0x52, 0x61, 0xE9]]), .invalidEncoding, "marked ASCII but holds byte 0xE9")
  }

  @Test("what a value cannot hold: UIDs, null, sets, non-string keys, huge integers")
  func unsupported() {
    expectFailure(rawBinaryPlist([[0x80, 0x05]]), .unsupportedValue, "keyed-archiver UIDs are not supported")
    expectFailure(rawBinaryPlist([[0x00]]), .unsupportedValue, "is null")
    expectFailure(rawBinaryPlist([[0xC1, 0x01], asciiObject("x")]), .unsupportedValue, "is a set")
    expectFailure(
      rawBinaryPlist([[0xD1, 0x01, 0x02], [0x10, 0x01], asciiObject("x")]), .malformed,
      "has a key that is not a string: object 1 at byte offset 11 is an integer")
    expectFailure(
      rawBinaryPlist([[0x14, 0, 0, 0, 0, 0, 0, 0, 1] + Array(repeating: 0, count: 8)]), .unsupportedValue,
      "is the integer 18446744073709551616, which does not fit in 64 signed bits")
    expectFailure(rawBinaryPlist([[0x0F]]), .malformed, "marker byte 0x0F")
    expectFailure(rawBinaryPlist([[0x71, 0x61]]), .malformed, "marker byte 0x71")
    expectFailure(rawBinaryPlist([[0x21, 0, 0]]), .malformed, "is a real of 2 bytes")
    expectFailure(rawBinaryPlist([[0x15, 0, 0]]), .malformed, "is an integer of 2^5 bytes")
  }

  @Test("nesting past PropertyListLimits.maximumDepth, directly or through a shared object")
  func tooDeep() throws {
    /// `levels` arrays, each holding the next, around `true` (two-byte references).
    func chain(_ levels: Int) -> [UInt8] {
      var objects: [[UInt8]] = []
      for level in 0..<levels {
        let next = level + 1
        objects.append([0xA1, UInt8(next >> 8), UInt8(next & 0xFF)])
      }
      objects.append([0x09])
      return rawBinaryPlist(objects, referenceWidth: 2)
    }
    _ = try BinaryPropertyListReader.read(chain(256))
    expectFailure(
      chain(257), .limitExceeded, "deeper than the limit of 256 levels (PropertyListLimits.maximumDepth)")
    // Object 1 is 255 arrays deep: fine right under the top array, one level too deep under object 256, which
    // reads it from the cache of shared objects.
    func shared(topHolds references: [UInt8]) -> [UInt8] {
      var objects: [[UInt8]] = [[0xA0 | UInt8(references.count / 2)] + references]
      for level in 1...255 {
        let next = level == 255 ? 257 : level + 1
        objects.append([0xA1, UInt8(next >> 8), UInt8(next & 0xFF)])
      }
      objects.append([0xA1, 0x00, 0x01])  // object 256: [object 1]
      objects.append([0x09])  // object 257
      return rawBinaryPlist(objects, referenceWidth: 2)
    }
    _ = try BinaryPropertyListReader.read(shared(topHolds: [0x00, 0x01]))
    expectFailure(shared(topHolds: [0x00, 0x01, 0x01, 0x00]), .limitExceeded, "deeper than the limit")
  }

  @Test("duplicate keys follow the policy")
  func duplicateKeys() throws {
    let bytes = rawBinaryPlist([
      [0xD2, 0x01, 0x01, 0x02, 0x03], asciiObject("k"), asciiObject("first"), asciiObject("last"),
    ])
    expectFailure(bytes, .duplicateKey, "has the key \"k\" twice")
    #expect(
      try BinaryPropertyListReader.read(bytes, duplicateKeys: .keepLast)
        == .dictionary(["k": .string("last")]))
    let file = try PropertyListFile(data: Data(bytes), duplicateKeys: .keepLast)
    #expect(file.value == .dictionary(["k": .string("last")]))
  }

  @Test("PropertyListFile reads and writes binary through them, with the file's path in errors")
  func throughFile() throws {
    let value = RandomPropertyList.openStepReading(of: FileTests.sample)
    let file = PropertyListFile(content: .value(value, .binary), path: nil)
    let bytes = try file.serialized()
    #expect(try PropertyListFile(data: bytes).value == value)
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(data: Data(rawBinaryPlist([[0x80, 0x01]])), path: "Archive.plist")
    }
    #expect(
      error.description.hasPrefix("Archive.plist: error: the binary property list cannot be read: object 0"))
  }
}
