import CZlib

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// zlib's inflate, deflate and CRC-32 (Debian zlib1g, the macOS SDK's libz): a well-kept codec rather
/// than one of our own.
enum Zlib {
  /// The stream format: zlib (RFC 1950, standard PNG) or raw deflate (RFC 1951, Apple's CgBI PNGs).
  enum Format {
    case zlib
    case raw

    var windowBits: Int32 { self == .zlib ? 15 : -15 }
  }

  /// Why inflating stopped short of the expected output.
  enum InflateFailure: Error {
    /// zlib refused the data; its message.
    case damaged(String)
    /// The stream ended after `produced` of the expected bytes.
    case short(produced: Int)
    /// The stream has more data than the expected bytes.
    case long
  }

  /// The CRC-32 of `bytes` (PNG's chunk CRC), continuing from `crc`.
  static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
    guard let base = bytes.baseAddress, !bytes.isEmpty else { return crc }
    let value = CZlib.crc32(uLong(crc), base.assumingMemoryBound(to: Bytef.self), uInt(bytes.count))
    return UInt32(truncatingIfNeeded: value)
  }

  /// Inflates `input` into exactly `expected` bytes: never more (a bomb stops at the size the header
  /// allows), and a stream that ends early is an error.
  static func inflate(_ input: [UInt8], format: Format, expected: Int) throws(InflateFailure) -> [UInt8] {
    var output = [UInt8](repeating: 0, count: expected)
    var stream = z_stream()
    guard inflateInit2_(&stream, format.windowBits, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK
    else { throw .damaged("zlib could not start inflating") }
    defer { inflateEnd(&stream) }
    var status: Int32 = Z_OK
    var produced = 0
    input.withUnsafeBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer in
        stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
        stream.avail_in = uInt(inBuffer.count)
        stream.next_out = outBuffer.baseAddress
        stream.avail_out = uInt(outBuffer.count)
        // inflate is called until the stream ends, the output is full, or zlib reports an error; each call
        // makes progress or returns Z_BUF_ERROR.
        repeat {
          status = CZlib.inflate(&stream, Z_NO_FLUSH)
        } while status == Z_OK && stream.avail_out > 0 && stream.avail_in > 0
        produced = outBuffer.count - Int(stream.avail_out)
      }
    }
    switch status {
    case Z_STREAM_END:
      guard produced == expected else { throw .short(produced: produced) }
      return output
    case Z_OK, Z_BUF_ERROR:
      if produced < expected { throw .short(produced: produced) }
      // The output is full: one more byte must not exist (a well-formed stream ends here).
      var probe: UInt8 = 0
      let more = withUnsafeMutablePointer(to: &probe) { pointer -> Int32 in
        stream.next_out = pointer
        stream.avail_out = 1
        return CZlib.inflate(&stream, Z_NO_FLUSH)
      }
      if more == Z_STREAM_END && stream.avail_out == 1 { return output }
      if more == Z_OK || more == Z_BUF_ERROR || more == Z_STREAM_END {
        // Z_BUF_ERROR with no input left: the stream was cut before its end marker, but every byte the
        // header promises is there; zlib-based readers (libpng) accept this, and so do we.
        if stream.avail_out == 1 && stream.avail_in == 0 { return output }
        throw .long
      }
      throw .damaged(message(of: stream, status: more))
    default:
      throw .damaged(message(of: stream, status: status))
    }
  }

  /// Deflates `input` at the best compression, in `format`.
  ///
  /// - Throws: the zlib status when zlib cannot start (it could not allocate its state: the parameters
  ///   are constants zlib accepts) or does not finish the stream; never an empty or cut stream.
  static func deflate(_ input: [UInt8], format: Format) throws(DeflateFailure) -> [UInt8] {
    var stream = z_stream()
    let started = deflateInit2_(
      &stream, Z_BEST_COMPRESSION, Z_DEFLATED, format.windowBits, 9, Z_DEFAULT_STRATEGY, zlibVersion(),
      Int32(MemoryLayout<z_stream>.size))
    guard started == Z_OK else {
      throw DeflateFailure(status: started, message: "zlib could not start deflating")
    }
    defer { deflateEnd(&stream) }
    let bound = Int(deflateBound(&stream, uLong(input.count)))
    var output = [UInt8](repeating: 0, count: bound)
    var produced = 0
    var status: Int32 = Z_OK
    input.withUnsafeBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer in
        stream.next_in = UnsafeMutablePointer(mutating: inBuffer.baseAddress)
        stream.avail_in = uInt(inBuffer.count)
        stream.next_out = outBuffer.baseAddress
        stream.avail_out = uInt(outBuffer.count)
        // deflateBound guarantees one Z_FINISH call completes; anything else is zlib failing.
        status = CZlib.deflate(&stream, Z_FINISH)
        produced = outBuffer.count - Int(stream.avail_out)
      }
    }
    guard status == Z_STREAM_END else {
      throw DeflateFailure(status: status, message: message(of: stream, status: status))
    }
    return Array(output[..<produced])
  }

  /// zlib could not deflate: its status and message.
  struct DeflateFailure: Error {
    var status: Int32
    var message: String
  }

  private static func message(of stream: z_stream, status: Int32) -> String {
    if let text = stream.msg { return String(cString: text) }
    return "zlib status \(status)"
  }
}
