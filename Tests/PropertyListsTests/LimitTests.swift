import Foundation
import PropertyLists
import Testing

/// `PropertyListLimits`: every format accepts a file at the limit and refuses one past it, with an error of
/// kind `limitExceeded` naming the limit.
@Suite struct PropertyListLimitTests {
  private func xml(nesting levels: Int) -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n"
      + String(repeating: "<array>", count: levels) + String(repeating: "</array>", count: levels)
      + "\n</plist>\n"
  }

  /// `levels` arrays, each the only element of the one around it, as Foundation objects.
  private func nestedArrays(_ levels: Int) -> Any {
    var value: Any = [Any]()
    for _ in 1..<levels { value = [value] }
    return value
  }

  @Test func xmlDepthLimitIsExact() throws {
    let limit = PropertyListLimits.maximumDepth
    #expect(limit == 256)
    _ = try PropertyListDocument(text: xml(nesting: limit))
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListDocument(text: xml(nesting: limit + 1), path: "deep.plist")
    }
    #expect(error.kind == .limitExceeded)
    // The 257th <array> opens at column 1 + 256 × 7 of line 3.
    #expect(error.position?.line == 3)
    #expect(error.position?.column == 1 + 256 * 7)
    #expect(
      error.description
        == "deep.plist:3:1793: error: <dict>/<array> nested deeper than the limit of 256 levels "
        + "(PropertyListLimits.maximumDepth)")
    #expect(error.hint != nil)
  }

  @Test func aHundredThousandLevelsEndInAnErrorNotACrash() throws {
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListDocument(text: xml(nesting: 100_000))
    }
    #expect(error.kind == .limitExceeded)
  }

  @Test(arguments: [PropertyListSerialization.PropertyListFormat.binary, .xml])
  func foundationFormatsHaveTheSameDepthLimit(format: PropertyListSerialization.PropertyListFormat) throws {
    let limit = PropertyListLimits.maximumDepth
    let atLimit = try PropertyListSerialization.data(
      fromPropertyList: nestedArrays(limit), format: format, options: 0)
    let file = try PropertyListFile(data: atLimit)
    #expect(file.format == (format == .binary ? .binary : .xml))
    let over = try PropertyListSerialization.data(
      fromPropertyList: nestedArrays(limit + 1), format: format, options: 0)
    let error = try #require(throws: PropertyListError.self) { try PropertyListFile(data: over) }
    #expect(error.kind == .limitExceeded)
    #expect(error.message.contains("PropertyListLimits.maximumDepth"))
  }

  @Test func sizeLimitIsExact() throws {
    let limit = PropertyListLimits.maximumFileBytes
    #expect(limit == 16 << 20)
    // A valid document padded with trailing whitespace to exactly the limit.
    let document = Array("<plist version=\"1.0\"><dict/></plist>".utf8)
    let atLimit = Data(document + [UInt8](repeating: UInt8(ascii: " "), count: limit - document.count))
    #expect(try PropertyListFile(data: atLimit).value == .dictionary(PropertyListDictionary()))
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(data: atLimit + Data(" ".utf8), path: "big.plist")
    }
    #expect(error.kind == .limitExceeded)
    #expect(
      error.description
        == "big.plist: error: the property list is \(limit + 1) bytes, more than the limit of \(limit) bytes "
        + "(16 MiB, PropertyListLimits.maximumFileBytes)")
  }

  @Test func aHundredMegabyteFileIsRefusedBeforeItIsRead() throws {
    let directory = try TemporaryDirectory()
    let path = directory.path("huge.plist")
    // Sparse: the size is what a stat reports; nothing is read.
    _ = FileManager.default.createFile(atPath: path, contents: Data("<plist><dict>".utf8))
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    try handle.truncate(atOffset: 100_000_000)
    try handle.close()
    let error = try #require(throws: PropertyListError.self) { try PropertyListFile.read(contentsOf: path) }
    #expect(error.kind == .limitExceeded)
    #expect(error.message.hasPrefix("the property list is 100000000 bytes"))
    #expect(error.path == path)
  }
}
