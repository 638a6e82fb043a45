/// A chunk of a PNG file, its data still in the file's bytes.
struct PNGChunk {
  /// The four-letter type.
  var type: String
  /// The offset of the chunk's length field in the file.
  var offset: Int
  /// The range of the chunk's data in the file.
  var data: Range<Int>

  /// Whether the type marks the chunk critical (first letter upper case): a reader must understand it.
  var isCritical: Bool { type.utf8.first.map { $0 & 0x20 == 0 } ?? true }
}

/// Splits a PNG file into chunks, checking the signature, every length and every CRC.
enum PNGChunkReader {
  static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

  /// The image format `bytes` start like, by its signature, for the error on a file that is not a PNG (an
  /// icon named `.png` is sometimes a JPEG or a WebP: kiwix's app icon is a WebP).
  static func otherImageFormat(_ bytes: [UInt8]) -> String? {
    func ascii(_ text: String, at offset: Int = 0) -> Bool {
      let expected = Array(text.utf8)
      return bytes.count >= offset + expected.count
        && Array(bytes[offset..<(offset + expected.count)]) == expected
    }
    if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return "JPEG" }
    if ascii("RIFF") && ascii("WEBP", at: 8) { return "WebP" }
    if ascii("GIF87a") || ascii("GIF89a") { return "GIF" }
    if ascii("ftyp", at: 4) {
      if ascii("avif", at: 8) || ascii("avis", at: 8) { return "AVIF" }
      if ["heic", "heix", "heim", "heis", "mif1", "msf1"].contains(where: { ascii($0, at: 8) }) {
        return "HEIF (HEIC)"
      }
    }
    if bytes.starts(with: [0x49, 0x49, 0x2A, 0x00]) || bytes.starts(with: [0x4D, 0x4D, 0x00, 0x2A]) {
      return "TIFF"
    }
    if ascii("BM") && bytes.count >= 14 { return "BMP" }
    if ascii("%PDF") { return "PDF" }
    if ascii("<svg")
      || (ascii("<?xml") && String(decoding: bytes.prefix(512), as: UTF8.self).contains("<svg"))
    {
      return "SVG"
    }
    return nil
  }

  /// The chunks of `bytes` up to and including `IEND`.
  static func chunks(_ bytes: [UInt8]) throws(PNGError) -> [PNGChunk] {
    guard bytes.count >= 8, Array(bytes[0..<8]) == signature else {
      // A Git LFS pointer stands in for the image in a checkout without `git lfs pull` (isowords' icons).
      let lfsPointer = bytes.starts(with: Array("version https://git-lfs.github.com/spec/".utf8))
      let hint =
        bytes.isEmpty
        ? "the file is empty"
        : lfsPointer
          ? "this is a Git LFS pointer, not the image: run git lfs pull in the repository, then try again"
          : otherImageFormat(bytes).map { "this is a \($0) file; export the icon as PNG" }
      throw PNGError(
        .notPNG, "not a PNG file: it does not start with the PNG signature 89 50 4E 47 0D 0A 1A 0A",
        offset: 0, hint: hint)
    }
    var chunks: [PNGChunk] = []
    var offset = 8
    while true {
      guard offset < bytes.count else {
        throw PNGError(
          .truncated, "the file ends after \(bytes.count) bytes, before the IEND chunk", offset: offset,
          hint: "the file is cut short; copy it again from its source")
      }
      guard bytes.count - offset >= 12 else {
        throw PNGError(
          .truncated, "the file ends inside a chunk header (\(bytes.count - offset) bytes left, 12 needed)",
          offset: offset, hint: "the file is cut short; copy it again from its source")
      }
      let length = Int(readUInt32(bytes, offset))
      let type = String(decoding: bytes[(offset + 4)..<(offset + 8)], as: UTF8.self)
      guard
        bytes[(offset + 4)..<(offset + 8)].allSatisfy({
          (0x41...0x5A).contains($0) || (0x61...0x7A).contains($0)
        })
      else {
        throw PNGError(.malformed, "a chunk type must be four ASCII letters", offset: offset)
      }
      guard length <= 0x7FFF_FFFF else {
        throw PNGError(
          .malformed, "chunk length \(length) exceeds PNG's 2^31 - 1", offset: offset, chunk: type)
      }
      let dataStart = offset + 8
      guard length <= bytes.count - dataStart - 4 else {
        throw PNGError(
          .truncated,
          "the chunk claims \(length) bytes of data but the file ends \(bytes.count - dataStart) bytes later",
          offset: offset, chunk: type, hint: "the file is cut short; copy it again from its source")
      }
      let stored = readUInt32(bytes, dataStart + length)
      let computed = bytes.withUnsafeBytes { raw in
        Zlib.crc32(UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<(dataStart + length)]))
      }
      guard stored == computed else {
        throw PNGError(
          .badCRC,
          "CRC mismatch: the file says \(hex(stored)), the chunk's bytes give \(hex(computed))",
          offset: offset, chunk: type, hint: "the file is damaged; copy it again from its source")
      }
      chunks.append(PNGChunk(type: type, offset: offset, data: dataStart..<(dataStart + length)))
      guard chunks.count <= PNGLimits.maximumChunks else {
        throw PNGError(
          .limitExceeded, "more than \(PNGLimits.maximumChunks) chunks", offset: offset, chunk: type)
      }
      offset = dataStart + length + 4
      if type == "IEND" { return chunks }
    }
  }

  static func readUInt32(_ bytes: [UInt8], _ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8
      | UInt32(bytes[offset + 3])
  }

  static func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
  }
}
