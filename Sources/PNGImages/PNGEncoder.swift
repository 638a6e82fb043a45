/// Writes standard PNG files (8-bit RGBA, not interlaced), and, for tests and fixtures, Apple's CgBI
/// variant of the same pixels.
///
/// The output is deterministic: the same pixels give the same bytes (each row gets the filter libpng's
/// heuristic picks, zlib at its best compression, no ancillary chunks).
public enum PNGEncoder {
  /// A standard PNG file of `image`.
  ///
  /// - Throws: ``PNGError`` of kind ``PNGError/Kind/encodingFailed`` when zlib cannot compress (it could
  ///   not allocate its state); never a file with missing image data.
  public static func encode(_ image: PNGImage) throws(PNGError) -> [UInt8] {
    let filtered = PNGFilters.filter(image.pixels, rowBytes: image.width * 4, bytesPerPixel: 4)
    return file(image, colorType: 6, data: try compressed(filtered, format: .zlib), preamble: [])
  }

  /// A CgBI file of `image`, as Xcode's PNG compression writes one: a `CgBI` chunk first, BGRA byte
  /// order, alpha premultiplied (rounded), raw deflate data. Reading it back gives `image`'s pixels
  /// wherever alpha is 0 or 255, and the same premultiplied colour everywhere
  /// (``AppleCgBI/premultiplied(_:)``), as premultiplying loses precision at low alpha.
  ///
  /// The `CgBI` chunk's four bytes are `50 00 20 06`, the value Xcode-built files carry.
  ///
  /// - Throws: ``PNGError`` of kind ``PNGError/Kind/encodingFailed`` when zlib cannot compress.
  public static func encodeAppleCgBI(_ image: PNGImage) throws(PNGError) -> [UInt8] {
    var pixels = AppleCgBI.premultiplied(image.pixels)
    for index in stride(from: 0, to: pixels.count, by: 4) { pixels.swapAt(index, index + 2) }
    let filtered = PNGFilters.filter(pixels, rowBytes: image.width * 4, bytesPerPixel: 4)
    return file(
      image, colorType: 6, data: try compressed(filtered, format: .raw),
      preamble: chunk("CgBI", [0x50, 0x00, 0x20, 0x06]))
  }

  private static func compressed(_ data: [UInt8], format: Zlib.Format) throws(PNGError) -> [UInt8] {
    do {
      return try Zlib.deflate(data, format: format)
    } catch {
      throw PNGError(
        .encodingFailed, "could not compress the image data: \(error.message) (zlib status \(error.status))",
        chunk: "IDAT", hint: "zlib could not allocate memory; free some and try again")
    }
  }

  private static func file(_ image: PNGImage, colorType: UInt8, data: [UInt8], preamble: [UInt8]) -> [UInt8] {
    var header = bigEndian(UInt32(image.width)) + bigEndian(UInt32(image.height))
    header += [8, colorType, 0, 0, 0]
    return PNGChunkReader.signature + preamble + chunk("IHDR", header) + chunk("IDAT", data)
      + chunk("IEND", [])
  }

  /// One chunk: length, type, data, CRC of type and data.
  static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    let crc = body.withUnsafeBytes { Zlib.crc32($0) }
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc)
  }

  static func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
  }
}
