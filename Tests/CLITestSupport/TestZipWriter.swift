import CZlib
import Foundation

/// Writes small zip archives for tests — synthetic `.ipa`s and hostile archives — entirely in memory:
/// stored or deflated (zlib, raw) entries, with every header field settable so a test can lie in one.
public struct TestZipWriter {
  /// One entry to write.
  public struct Entry: Sendable {
    public var name: String
    public var data: [UInt8]
    public var deflate: Bool
    /// Unix mode for the external attributes (`0o120777` makes a symbolic link); made on Unix when set.
    public var unixMode: Int?
    /// General-purpose flags (bit 0: encrypted).
    public var flags: UInt16
    /// Overrides the declared uncompressed size (a lying header).
    public var declaredSize: Int?

    public init(
      _ name: String, _ data: [UInt8], deflate: Bool = true, unixMode: Int? = nil, flags: UInt16 = 0,
      declaredSize: Int? = nil
    ) {
      self.name = name
      self.data = data
      self.deflate = deflate
      self.unixMode = unixMode
      self.flags = flags
      self.declaredSize = declaredSize
    }

    public init(_ name: String, text: String) { self.init(name, Array(text.utf8)) }
  }

  public var entries: [Entry]

  public init(_ entries: [Entry] = []) { self.entries = entries }

  /// The archive's bytes.
  public func bytes() -> [UInt8] {
    var output: [UInt8] = []
    var central: [UInt8] = []
    for entry in entries {
      let compressed = entry.deflate ? Self.deflate(entry.data) : entry.data
      let name = Array(entry.name.utf8)
      let crc = UInt32(truncatingIfNeeded: crc32(0, entry.data, uInt(entry.data.count)))
      let size = UInt32(entry.declaredSize ?? entry.data.count)
      let method: UInt16 = entry.deflate ? 8 : 0
      let offset = UInt32(output.count)
      output += le32(0x0403_4b50) + le16(20) + le16(entry.flags) + le16(method) + le16(0) + le16(0x21)
      output += le32(crc) + le32(UInt32(compressed.count)) + le32(size) + le16(UInt16(name.count)) + le16(0)
      output += name + compressed
      let made: UInt16 = entry.unixMode == nil ? 20 : (3 << 8) | 20
      let external = UInt32(entry.unixMode ?? 0) << 16
      central += le32(0x0201_4b50) + le16(made) + le16(20) + le16(entry.flags) + le16(method) + le16(0)
      central += le16(0x21) + le32(crc) + le32(UInt32(compressed.count)) + le32(size)
      central +=
        le16(UInt16(name.count)) + le16(0) + le16(0) + le16(0) + le16(0) + le32(external) + le32(offset)
      central += name
    }
    let start = UInt32(output.count)
    output += central
    output +=
      le32(0x0605_4b50) + le16(0) + le16(0) + le16(UInt16(entries.count)) + le16(UInt16(entries.count))
    output += le32(UInt32(central.count)) + le32(start) + le16(0)
    return output
  }

  /// Raw deflate (no zlib header), as zip stores it.
  public static func deflate(_ data: [UInt8]) -> [UInt8] {
    var stream = z_stream()
    deflateInit2_(
      &stream, Z_BEST_COMPRESSION, Z_DEFLATED, -15, 9, Z_DEFAULT_STRATEGY, ZLIB_VERSION,
      Int32(MemoryLayout<z_stream>.size))
    defer { deflateEnd(&stream) }
    var input = data
    var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(data.count))) + 16)
    let produced = input.withUnsafeMutableBufferPointer { inBuffer in
      output.withUnsafeMutableBufferPointer { outBuffer in
        stream.next_in = inBuffer.baseAddress
        stream.avail_in = UInt32(inBuffer.count)
        stream.next_out = outBuffer.baseAddress
        stream.avail_out = UInt32(outBuffer.count)
        _ = CZlib.deflate(&stream, Z_FINISH)
        return Int(stream.total_out)
      }
    }
    return Array(output[..<produced])
  }

  private func le16(_ value: UInt16) -> [UInt8] { [UInt8(value & 0xff), UInt8(value >> 8)] }
  private func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8((value >> (8 * $0)) & 0xff) } }
}
