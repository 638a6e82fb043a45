import CZlib

/// zlib's raw inflate (zip's deflate has no zlib header) and CRC-32.
enum Inflater {
  /// Inflates `input`, which must produce exactly `expectedSize` bytes: output past it stops the stream at
  /// once, so an entry that lies about its size never costs more than it declared.
  static func inflate(
    _ input: ArraySlice<UInt8>, expectedSize: Int, fail: (String) throws(ZipError) -> Never
  ) throws(ZipError) -> [UInt8] {
    var stream = z_stream()
    // -15: a raw deflate stream with a 32 KiB window.
    guard inflateInit2_(&stream, -15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK else {
      try fail("zlib could not start inflating")
    }
    defer { inflateEnd(&stream) }
    // One byte more than expected: producing it shows the entry lies about its size.
    var output = [UInt8](repeating: 0, count: expectedSize + 1)
    var input = Array(input)
    let status: Int32 = input.withUnsafeMutableBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer in
        stream.next_in = inBuffer.baseAddress
        stream.avail_in = UInt32(inBuffer.count)
        stream.next_out = outBuffer.baseAddress
        stream.avail_out = UInt32(outBuffer.count)
        return CZlib.inflate(&stream, Z_FINISH)
      }
    }
    let produced = Int(stream.total_out)
    if produced > expectedSize {
      try fail(
        "inflates past the \(expectedSize) bytes its header declares; the archive is damaged or hostile")
    }
    guard status == Z_STREAM_END else {
      try fail(
        status == Z_BUF_ERROR || status == Z_OK
          ? "the compressed data ends early; the archive is damaged"
          : "the compressed data is not valid deflate (zlib status \(status)); the archive is damaged")
    }
    guard produced == expectedSize else {
      try fail(
        "inflates to \(produced) bytes, not the \(expectedSize) its header declares; the archive is damaged")
    }
    output.removeLast(output.count - produced)
    return output
  }

  /// The CRC-32 zip stores for an entry.
  static func crc32(_ bytes: [UInt8]) -> UInt32 {
    bytes.withUnsafeBufferPointer { buffer in
      var crc: uLong = CZlib.crc32(0, nil, 0)
      var offset = 0
      // zlib takes a 32-bit length: feed it in chunks.
      while offset < buffer.count {
        let length = min(buffer.count - offset, 1 << 30)
        crc = CZlib.crc32(crc, buffer.baseAddress.map { $0 + offset }, uInt(length))
        offset += length
      }
      return UInt32(truncatingIfNeeded: crc)
    }
  }
}
