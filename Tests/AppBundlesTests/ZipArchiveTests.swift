import AppBundles
import CLITestSupport
import TestSupport
import Testing

@Suite("Zip archives")
struct ZipArchiveTests {
  @Test(
    "stored and deflated entries read back byte for byte, whatever their contents",
    arguments: [0, 1, 7, 1000])
  func roundTrip(seed: Int) throws {
    var generator = SeededGenerator(seed: UInt64(seed))
    var entries: [TestZipWriter.Entry] = []
    for index in 0..<8 {
      let length = Int(generator.next() % 5000)
      // Half random bytes (deflate cannot shrink them), half repetitive text.
      let data: [UInt8] =
        index.isMultiple(of: 2)
        ? (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        : Array(String(repeating: "entry \(index) ", count: length / 8 + 1).utf8)
      entries.append(TestZipWriter.Entry("folder/file\(index).bin", data, deflate: index % 3 != 0))
    }
    let archive = try ZipArchive(bytes: TestZipWriter(entries).bytes(), path: "test.zip")
    #expect(archive.entries.map(\.name) == entries.map(\.name))
    for entry in entries {
      #expect(try archive.read(entry.name, limit: 1 << 20) == entry.data)
    }
  }

  @Test("an entry larger than the caller's limit is refused before it is inflated")
  func readLimit() throws {
    let archive = try ZipArchive(
      bytes: TestZipWriter([.init("big", [UInt8](repeating: 1, count: 5000))]).bytes(), path: "a.zip")
    let error = try #require(throws: ZipError.self) { try archive.read("big", limit: 4999) }
    #expect(error.kind == .tooLarge)
    #expect(try archive.read("big", limit: 5000).count == 5000)
  }

  struct Hostile: CustomTestStringConvertible, Sendable {
    let name: String
    let kind: ZipError.Kind
    let words: String
    let bytes: @Sendable () -> [UInt8]
    var testDescription: String { name }
  }

  static let hostile: [Hostile] = [
    Hostile(name: "parent-folder traversal", kind: .pathTraversal, words: "'..' component") {
      TestZipWriter([.init("Payload/../../etc/passwd", text: "x")]).bytes()
    },
    Hostile(name: "traversal at the start", kind: .pathTraversal, words: "'..' component") {
      TestZipWriter([.init("../evil", text: "x")]).bytes()
    },
    Hostile(name: "absolute path", kind: .pathTraversal, words: "absolute path") {
      TestZipWriter([.init("/tmp/evil", text: "x")]).bytes()
    },
    Hostile(name: "backslash", kind: .pathTraversal, words: "backslash") {
      TestZipWriter([.init("Payload\\..\\evil", text: "x")]).bytes()
    },
    Hostile(name: "drive letter", kind: .pathTraversal, words: "drive letter") {
      TestZipWriter([.init("C:evil", text: "x")]).bytes()
    },
    Hostile(name: "symbolic link", kind: .symbolicLink, words: "never follows links") {
      TestZipWriter([.init("Payload/A.app/Info.plist", Array("/etc/passwd".utf8), unixMode: 0o120777)])
        .bytes()
    },
    Hostile(name: "encrypted entry", kind: .encrypted, words: "is encrypted") {
      TestZipWriter([.init("secret", Array("x".utf8), flags: 1)]).bytes()
    },
    Hostile(name: "zip bomb (ratio)", kind: .compressionRatio, words: "zip bomb") {
      TestZipWriter([.init("bomb", [UInt8](repeating: 0, count: 20 << 20))]).bytes()
    },
    Hostile(name: "truncated central directory", kind: .corrupt, words: "cut short") {
      let bytes = TestZipWriter([.init("a", text: "hello"), .init("b", text: "world")]).bytes()
      // Drop the second central-directory entry's tail and keep the end record pointing past it.
      let end = bytes.count - 22
      return Array(bytes[..<(end - 20)]) + Array(bytes[end...])
    },
    Hostile(name: "not a zip", kind: .notAZipArchive, words: "not a zip archive") {
      Array("this is not a zip archive, just text long enough".utf8)
    },
    Hostile(name: "cut in the middle", kind: .notAZipArchive, words: "cut short") {
      Array(TestZipWriter([.init("a", text: "hello")]).bytes().dropLast(30))
    },
  ]

  @Test("hostile or damaged archives are refused whole, with a clear error", arguments: hostile)
  func refused(_ archive: Hostile) throws {
    let error = try #require(throws: ZipError.self) {
      try ZipArchive(bytes: archive.bytes(), path: "evil.ipa")
    }
    #expect(error.kind == archive.kind)
    #expect(error.description.hasPrefix("evil.ipa: "))
    #expect(error.description.contains(archive.words), "\(error)")
  }

  @Test("overlapping entries (the non-recursive zip bomb) are refused")
  func overlapping() throws {
    var bytes = TestZipWriter([.init("a", text: "hello world"), .init("b", text: "hello world")]).bytes()
    // Point the second central entry's local-header offset at the first entry's header.
    let end = bytes.count - 22
    let centralStart = Int(bytes[end + 16]) | Int(bytes[end + 17]) << 8
    let second = centralStart + 46 + 1
    for index in 42..<46 { bytes[second + index] = 0 }
    let error = try #require(throws: ZipError.self) { try ZipArchive(bytes: bytes, path: "x.zip") }
    #expect(error.kind == .overlappingEntries)
  }

  @Test("an entry that inflates past its declared size stops there, as damaged")
  func lyingSize() throws {
    let archive = try ZipArchive(
      bytes: TestZipWriter([.init("liar", [UInt8](repeating: 7, count: 4000), declaredSize: 100)]).bytes(),
      path: "x.zip")
    let error = try #require(throws: ZipError.self) { try archive.read("liar", limit: 1 << 20) }
    #expect(error.kind == .corrupt)
    #expect(error.message.contains("declares"))
  }

  @Test("a flipped byte of data fails its CRC-32")
  func checksum() throws {
    var bytes = TestZipWriter([.init("a", [1, 2, 3, 4, 5], deflate: false)]).bytes()
    bytes[31] ^= 0xff  // the first data byte after the 30-byte header and the one-byte name
    let archive = try ZipArchive(bytes: bytes, path: "x.zip")
    let error = try #require(throws: ZipError.self) { try archive.read("a", limit: 100) }
    #expect(error.kind == .checksum)
  }

  @Test("entry count and total size limits")
  func countAndTotal() throws {
    let bytes = TestZipWriter((0..<5).map { .init("f\($0)", text: "0123456789") }).bytes()
    let tooMany = try #require(throws: ZipError.self) {
      try ZipArchive(bytes: bytes, path: "x.zip", limits: ZipLimits(maximumEntryCount: 4))
    }
    #expect(tooMany.kind == .tooManyEntries)
    let tooBig = try #require(throws: ZipError.self) {
      try ZipArchive(bytes: bytes, path: "x.zip", limits: ZipLimits(maximumTotalBytes: 49))
    }
    #expect(tooBig.kind == .tooLarge)
    #expect(
      try ZipArchive(bytes: bytes, path: "x.zip", limits: ZipLimits(maximumTotalBytes: 50)).entries.count == 5
    )
  }
}
