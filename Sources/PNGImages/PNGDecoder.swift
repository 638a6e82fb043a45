/// Reads PNG files: every colour type and bit depth of the PNG specification, Adam7 interlacing, palettes
/// with `tRNS` transparency, and Apple's CgBI variant found in built iOS apps.
///
/// The result is always 8-bit RGBA with straight alpha: 16-bit samples are rounded to 8 bits, grey is
/// replicated into red, green and blue, and a CgBI file's BGRA premultiplied pixels are swapped and
/// un-premultiplied. Every chunk's CRC is checked; the image data must inflate to exactly the size the
/// header implies, so a decompression bomb stops there. ``PNGLimits`` bounds the file and the image.
public enum PNGDecoder {
  /// Decodes the PNG file `bytes`; `file` names it in errors.
  ///
  /// - Throws: ``PNGError`` with the offset and type of the chunk at fault.
  public static func decode(_ bytes: [UInt8], file: String? = nil) throws(PNGError) -> PNGImage {
    do {
      return try decodeChunks(bytes)
    } catch {
      throw error.inFile(file)
    }
  }

  /// The header of the PNG file `bytes`, read without decoding the image (the chunk CRCs are checked).
  ///
  /// - Throws: ``PNGError``.
  public static func header(of bytes: [UInt8], file: String? = nil) throws(PNGError) -> PNGHeader {
    do {
      return try parseHeader(bytes, chunks: PNGChunkReader.chunks(bytes)).header
    } catch {
      throw error.inFile(file)
    }
  }

  private static func decodeChunks(_ bytes: [UInt8]) throws(PNGError) -> PNGImage {
    guard bytes.count <= PNGLimits.maximumFileBytes else {
      throw PNGError(
        .limitExceeded, "the file has \(bytes.count) bytes, more than the \(PNGLimits.maximumFileBytes) read")
    }
    let chunks = try PNGChunkReader.chunks(bytes)
    let (header, ihdr) = try parseHeader(bytes, chunks: chunks)
    var palette: [UInt8]?
    var transparency: [UInt8]?
    var imageData: [UInt8] = []
    var firstIDAT: PNGChunk?
    for chunk in chunks {
      switch chunk.type {
      case "IHDR" where chunk.offset != ihdr.offset:
        throw PNGError(.malformed, "a second IHDR chunk", offset: chunk.offset, chunk: chunk.type)
      case "PLTE":
        guard firstIDAT == nil, palette == nil else {
          throw PNGError(
            .malformed, "PLTE must come once, before the image data", offset: chunk.offset, chunk: chunk.type)
        }
        let count = chunk.data.count
        guard count > 0, count % 3 == 0, count / 3 <= 256 else {
          throw PNGError(
            .malformed, "a palette has 1 to 256 entries of 3 bytes; this one has \(count) bytes",
            offset: chunk.offset, chunk: chunk.type)
        }
        palette = Array(bytes[chunk.data])
      case "tRNS":
        guard firstIDAT == nil else {
          throw PNGError(
            .malformed, "tRNS must come before the image data", offset: chunk.offset, chunk: "tRNS")
        }
        transparency = Array(bytes[chunk.data])
        try checkTransparency(transparency ?? [], header: header, palette: palette, chunk: chunk)
      case "IDAT":
        if firstIDAT == nil { firstIDAT = chunk }
        imageData.append(contentsOf: bytes[chunk.data])
      case "IHDR", "IEND", "CgBI":
        continue
      default:
        guard !chunk.isCritical else {
          throw PNGError(
            .unsupported, "unknown critical chunk \(chunk.type)", offset: chunk.offset, chunk: chunk.type,
            hint: "the file needs a reader that knows this chunk; re-export it as a standard PNG")
        }
      }
    }
    guard let firstIDAT else {
      throw PNGError(
        .malformed, "the file has no image data (IDAT chunk)", offset: ihdr.offset, chunk: "IHDR")
    }
    if header.colorType == .palette && palette == nil {
      throw PNGError(
        .malformed, "a palette image needs a PLTE chunk before its data", offset: firstIDAT.offset,
        chunk: "IDAT")
    }
    let passes = PNGPasses(header: header)
    let raw: [UInt8]
    do {
      raw = try Zlib.inflate(
        imageData, format: header.isAppleCgBI ? .raw : .zlib, expected: passes.totalFilteredBytes)
    } catch {
      throw imageDataError(error, expected: passes.totalFilteredBytes, at: firstIDAT, header: header)
    }
    var pixels = [UInt8](repeating: 0, count: header.width * header.height * 4)
    let converter = PixelConverter(header: header, palette: palette ?? [], transparency: transparency)
    var start = 0
    for pass in passes.passes where pass.width > 0 && pass.height > 0 {
      let rowBytes = pass.rowBytes
      let length = pass.height * (rowBytes + 1)
      var data = Array(raw[start..<(start + length)])
      if let failure = PNGFilters.unfilter(&data, rowBytes: rowBytes, bytesPerPixel: header.filterStride) {
        throw PNGError(
          .badImageData, "row \(failure) has an unknown filter type (0 to 4 are defined)",
          offset: firstIDAT.offset, chunk: "IDAT")
      }
      if let index = converter.place(data, pass: pass, into: &pixels, imageWidth: header.width) {
        throw PNGError(
          .malformed,
          "a pixel uses palette index \(index), past the palette's \((palette ?? []).count / 3) entries",
          offset: firstIDAT.offset, chunk: "IDAT")
      }
      start += length
    }
    if header.isAppleCgBI { AppleCgBI.restore(&pixels, colorType: header.colorType) }
    return PNGImage(width: header.width, height: header.height, pixels: pixels, source: header)
  }

  private static func parseHeader(_ bytes: [UInt8], chunks: [PNGChunk]) throws(PNGError) -> (
    header: PNGHeader, chunk: PNGChunk
  ) {
    // Apple's variant puts CgBI before IHDR; everything else has IHDR first.
    let isCgBI = chunks.first?.type == "CgBI"
    let index = isCgBI ? 1 : 0
    guard index < chunks.count, chunks[index].type == "IHDR" else {
      let chunk = index < chunks.count ? chunks[index] : chunks.last
      throw PNGError(.malformed, "the first chunk must be IHDR", offset: chunk?.offset, chunk: chunk?.type)
    }
    let chunk = chunks[index]
    guard chunk.data.count == 13 else {
      throw PNGError(
        .malformed, "IHDR has \(chunk.data.count) bytes, not 13", offset: chunk.offset, chunk: "IHDR")
    }
    let at = chunk.data.lowerBound
    let width = Int(PNGChunkReader.readUInt32(bytes, at))
    let height = Int(PNGChunkReader.readUInt32(bytes, at + 4))
    let fail = { (message: String) in PNGError(.malformed, message, offset: chunk.offset, chunk: "IHDR") }
    guard width > 0, height > 0, width <= 0x7FFF_FFFF, height <= 0x7FFF_FFFF else {
      throw fail("width and height must be 1 to 2^31 - 1; the file says \(width) × \(height)")
    }
    guard width <= PNGLimits.maximumDimension, height <= PNGLimits.maximumDimension,
      width * height <= PNGLimits.maximumPixels
    else {
      throw PNGError(
        .limitExceeded,
        "the image is \(width) × \(height) pixels; rulekit reads at most \(PNGLimits.maximumDimension) pixels "
          + "a side and \(PNGLimits.maximumPixels) in all",
        offset: chunk.offset, chunk: "IHDR", hint: "app icons are at most 1024 × 1024; pass the icon itself")
    }
    guard let colorType = PNGHeader.ColorType(rawValue: bytes[at + 9]) else {
      throw fail("colour type \(bytes[at + 9]) is not one of 0, 2, 3, 4, 6")
    }
    let bitDepth = Int(bytes[at + 8])
    guard colorType.allowedBitDepths.contains(bitDepth) else {
      throw fail("bit depth \(bitDepth) is not allowed for colour type \(colorType.rawValue)")
    }
    guard bytes[at + 10] == 0 else { throw fail("compression method \(bytes[at + 10]) is not 0 (deflate)") }
    guard bytes[at + 11] == 0 else { throw fail("filter method \(bytes[at + 11]) is not 0") }
    guard bytes[at + 12] <= 1 else { throw fail("interlace method \(bytes[at + 12]) is not 0 or 1") }
    if isCgBI && (bitDepth != 8 || (colorType != .rgba && colorType != .rgb)) {
      throw PNGError(
        .unsupported, "a CgBI file with colour type \(colorType.rawValue) and bit depth \(bitDepth)",
        offset: chunk.offset, chunk: "IHDR",
        hint: "Xcode writes CgBI files as 8-bit RGB or RGBA; pass the icon's source PNG instead")
    }
    let header = PNGHeader(
      width: width, height: height, bitDepth: bitDepth, colorType: colorType, interlaced: bytes[at + 12] == 1,
      isAppleCgBI: isCgBI)
    return (header, chunk)
  }

  private static func checkTransparency(
    _ data: [UInt8], header: PNGHeader, palette: [UInt8]?, chunk: PNGChunk
  ) throws(PNGError) {
    let fail = { (message: String) in PNGError(.malformed, message, offset: chunk.offset, chunk: "tRNS") }
    switch header.colorType {
    case .grayscale where data.count != 2: throw fail("tRNS of a grey image has 2 bytes, not \(data.count)")
    case .rgb where data.count != 6: throw fail("tRNS of an RGB image has 6 bytes, not \(data.count)")
    case .palette:
      guard let palette else { throw fail("tRNS of a palette image must follow PLTE") }
      guard data.count <= palette.count / 3 else {
        throw fail("tRNS has \(data.count) entries but the palette only \(palette.count / 3)")
      }
    case .grayscaleAlpha, .rgba: throw fail("tRNS is not allowed in an image with an alpha channel")
    default: break
    }
  }

  private static func imageDataError(
    _ failure: Zlib.InflateFailure, expected: Int, at chunk: PNGChunk, header: PNGHeader
  ) -> PNGError {
    let format = header.isAppleCgBI ? "raw deflate (CgBI)" : "zlib"
    switch failure {
    case .damaged(let message):
      return PNGError(
        .badImageData, "the \(format) image data is damaged: \(message)", offset: chunk.offset, chunk: "IDAT")
    case .short(let produced):
      return PNGError(
        .badImageData,
        "the image data inflates to \(produced) bytes; \(header.width) × \(header.height) needs \(expected)",
        offset: chunk.offset, chunk: "IDAT", hint: "the file is cut short or damaged; copy it again")
    case .long:
      return PNGError(
        .badImageData,
        "the image data inflates to more than the \(expected) bytes \(header.width) × \(header.height) needs "
          + "(a decompression bomb, or a damaged file); reading stopped there",
        offset: chunk.offset, chunk: "IDAT")
    }
  }
}
