/// The property lists a signed bundle carries: the entitlements in its executable's code signature and
/// the provisioning profile's payload. Neither signature is validated: RuleKit reads what the bundle says,
/// as a reviewer would, and does not decide whether iOS would accept the signature.
public enum SigningPayloads {
  /// The XML property list inside an `embedded.mobileprovision`, a CMS (PKCS #7) signed message, found by
  /// its `<?xml` … `</plist>` bounds inside the DER; the signature is **not** validated.
  public static func provisioningProfilePayload(_ bytes: [UInt8]) -> [UInt8]? {
    guard let start = find(Array("<?xml".utf8), in: bytes, from: 0),
      let end = find(Array("</plist>".utf8), in: bytes, from: start)
    else { return nil }
    return Array(bytes[start..<end + 8])
  }

  /// The entitlements XML property list in a Mach-O executable's code signature (`LC_CODE_SIGNATURE` →
  /// the embedded signature super-blob → the entitlements blob, magic `0xfade7171`); the first slice of a
  /// universal binary. `nil` when the executable has no signature or no entitlements blob; the signature
  /// is **not** validated.
  public static func codeSignatureEntitlements(_ bytes: [UInt8]) -> [UInt8]? {
    let reader = ByteReader(bytes: bytes)
    guard let magic = reader.u32be(0) else { return nil }
    if magic == 0xcafe_babe || magic == 0xcafe_babf {
      // A universal binary: big-endian fat header, then fat_arch (20 bytes) or fat_arch_64 (32 bytes).
      guard let count = reader.u32be(4), count > 0 else { return nil }
      let offset: Int?
      if magic == 0xcafe_babe {
        offset = reader.u32be(8 + 8).map(Int.init)
      } else {
        offset = reader.u64be(8 + 8).map { Int(truncatingIfNeeded: $0) }
      }
      guard let offset, offset > 0, offset < bytes.count else { return nil }
      return thinEntitlements(reader, slice: offset)
    }
    return thinEntitlements(reader, slice: 0)
  }

  private static func thinEntitlements(_ reader: ByteReader, slice: Int) -> [UInt8]? {
    // Mach-O headers are little-endian on every Apple platform: 0xfeedfacf (64-bit), 0xfeedface (32-bit).
    guard let magic = reader.u32le(slice), magic == 0xfeed_facf || magic == 0xfeed_face,
      let commandCount = reader.u32le(slice + 16)
    else { return nil }
    var command = slice + (magic == 0xfeed_facf ? 32 : 28)
    for _ in 0..<min(Int(commandCount), 10_000) {
      guard let kind = reader.u32le(command), let size = reader.u32le(command + 4), size >= 8 else {
        return nil
      }
      if kind == 0x1d {  // LC_CODE_SIGNATURE
        guard let dataOffset = reader.u32le(command + 8) else { return nil }
        return entitlements(reader, superBlob: slice + Int(dataOffset))
      }
      command += Int(size)
    }
    return nil
  }

  private static func entitlements(_ reader: ByteReader, superBlob: Int) -> [UInt8]? {
    // The code-signing blobs are big-endian (cs_blobs.h).
    guard reader.u32be(superBlob) == 0xfade_0cc0, let count = reader.u32be(superBlob + 8) else { return nil }
    for slot in 0..<min(Int(count), 1000) {
      guard let type = reader.u32be(superBlob + 12 + slot * 8),
        let offset = reader.u32be(superBlob + 16 + slot * 8)
      else { return nil }
      let blob = superBlob + Int(offset)
      // CSSLOT_ENTITLEMENTS (5) holds the XML; slot 7 is the DER form, which is not read.
      guard type == 5, reader.u32be(blob) == 0xfade_7171, let length = reader.u32be(blob + 4), length >= 8,
        blob + Int(length) <= reader.bytes.count
      else { continue }
      return Array(reader.bytes[blob + 8..<blob + Int(length)])
    }
    return nil
  }

  private static func find(_ needle: [UInt8], in bytes: [UInt8], from start: Int) -> Int? {
    guard needle.count <= bytes.count else { return nil }
    var index = start
    while index <= bytes.count - needle.count {
      if bytes[index] == needle[0], bytes[index..<index + needle.count].elementsEqual(needle) { return index }
      index += 1
    }
    return nil
  }
}

/// Bounds-checked integer reads: `nil` past the end, never a trap.
private struct ByteReader {
  let bytes: [UInt8]

  func u32be(_ offset: Int) -> UInt32? {
    guard offset >= 0, offset <= bytes.count - 4 else { return nil }
    return (0..<4).reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
  }

  func u64be(_ offset: Int) -> UInt64? {
    guard offset >= 0, offset <= bytes.count - 8 else { return nil }
    return (0..<8).reduce(0) { $0 << 8 | UInt64(bytes[offset + $1]) }
  }

  func u32le(_ offset: Int) -> UInt32? {
    guard offset >= 0, offset <= bytes.count - 4 else { return nil }
    return (0..<4).reversed().reduce(0) { $0 << 8 | UInt32(bytes[offset + $1]) }
  }
}
