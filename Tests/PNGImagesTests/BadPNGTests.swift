import PNGImages
import Testing

/// Bad and hostile files end in a typed error naming the chunk, never a crash or unbounded memory.
@Suite struct BadPNGTests {
  struct Case: CustomStringConvertible, Sendable {
    var file: String
    var kind: PNGError.Kind
    var offset: Int?
    var chunk: String?
    var message: String
    var description: String { file }
  }

  static let cases: [Case] = [
    Case(file: "not-png.png", kind: .notPNG, offset: 0, chunk: nil, message: "not a PNG file"),
    Case(file: "truncated.png", kind: .truncated, offset: 33, chunk: "IDAT", message: "the file ends"),
    Case(file: "bad-crc.png", kind: .badCRC, offset: 33, chunk: "IDAT", message: "CRC mismatch"),
    Case(file: "huge-header.png", kind: .limitExceeded, offset: 8, chunk: "IHDR", message: "100000 × 100000"),
    Case(file: "bomb.png", kind: .badImageData, offset: 33, chunk: "IDAT", message: "decompression bomb"),
  ]

  @Test(arguments: cases)
  func refused(_ bad: Case) throws {
    let bytes = try PNGFixtures.bytes("bad/" + bad.file)
    let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes, file: bad.file) }
    #expect(error?.kind == bad.kind)
    #expect(error?.offset == bad.offset)
    #expect(error?.chunk == bad.chunk)
    #expect(error?.file == bad.file)
    #expect(error?.description.contains(bad.message) == true, "\(error?.description ?? "")")
  }

  /// A file of another image format named `.png` is told by its signature (kiwix's "PNG" app icon is a WebP).
  @Test(
    arguments: [
      ([0xFF, 0xD8, 0xFF, 0xE0] + Array("\0\u{10}JFIF\0".utf8), "JPEG"),
      (Array("RIFF".utf8) + [0x24, 0, 0, 0] + Array("WEBPVP8 ".utf8), "WebP"),
      (Array("GIF89a".utf8) + [1, 0, 1, 0], "GIF"),
      ([0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0], "HEIF (HEIC)"),
      ([0, 0, 0, 0x1C] + Array("ftypavif".utf8) + [0, 0, 0, 0], "AVIF"),
      ([0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8], "TIFF"),
      (Array("BM".utf8) + [UInt8](repeating: 0, count: 20), "BMP"),
      (Array("%PDF-1.7\n".utf8), "PDF"),
      (Array("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8), "SVG"),
    ] as [([UInt8], String)])
  func otherImageFormatIsNamed(_ bytes: [UInt8], format: String) {
    let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes, file: "icon.png") }
    #expect(error?.kind == .notPNG)
    #expect(error?.hint == "this is a \(format) file; export the icon as PNG")
  }

  /// isowords' icons, in a checkout without `git lfs pull`, are Git LFS pointers (its repository's text).
  @Test func gitLFSPointerSaysSo() {
    let pointer = Array(
      ("version https://git-lfs.github.com/spec/v1\n"
        + "oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393\nsize 12345\n").utf8)
    let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(pointer, file: "icon.png") }
    #expect(error?.kind == .notPNG)
    #expect(
      error?.hint
        == "this is a Git LFS pointer, not the image: run git lfs pull in the repository, then try again")
  }

  @Test func unrecognisedBytesGetNoGuess() {
    let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(Array("hello, world".utf8)) }
    #expect(error?.kind == .notPNG)
    #expect(error?.hint == nil)
  }

  /// Every prefix of a valid file is refused (or, for the whole file, read): never a crash.
  @Test func everyPrefixIsRefused() throws {
    let bytes = try PNGFixtures.bytes("palette2-adam7.png")
    for length in 0..<bytes.count {
      #expect(throws: PNGError.self) { try PNGDecoder.decode(Array(bytes[..<length])) }
    }
  }

  /// A byte changed anywhere is caught (signature, CRC, or a header check), never a crash.
  @Test func everySingleByteChangeIsCaught() throws {
    let bytes = try PNGFixtures.bytes("rgba16-adam7.png")
    for index in bytes.indices {
      var damaged = bytes
      damaged[index] ^= 0x40
      #expect(throws: PNGError.self) { try PNGDecoder.decode(damaged) }
    }
  }

  @Test func unknownCriticalChunkIsUnsupported() throws {
    var bytes = try PNGFixtures.bytes("rgb8.png")
    let chunk = PNGEncoderTestSupport.chunk("ZZZZ", [1, 2, 3])
    bytes.insert(contentsOf: chunk, at: 33)
    let error = #expect(throws: PNGError.self) { try PNGDecoder.decode(bytes) }
    #expect(error?.kind == .unsupported)
    #expect(error?.chunk == "ZZZZ")
  }

  @Test func unknownAncillaryChunkIsSkipped() throws {
    var bytes = try PNGFixtures.bytes("rgb8.png")
    bytes.insert(contentsOf: PNGEncoderTestSupport.chunk("zzZz", [1, 2, 3]), at: 33)
    #expect(try PNGDecoder.decode(bytes).pixels == PNGFixtures.bytes("rgb8.rgba"))
  }
}

/// Builds chunks for the tests, with a bitwise CRC-32 of its own (not zlib's, which the decoder uses).
enum PNGEncoderTestSupport {
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    var crc: UInt32 = 0xFFFF_FFFF
    for byte in body {
      crc ^= UInt32(byte)
      for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
    }
    crc ^= 0xFFFF_FFFF
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}
