/// Reads and checks a zip archive's central directory (APPNOTE.TXT §4.3.12, §4.3.16) and each entry's
/// local header (§4.3.7), refusing the whole archive at the first hostile or inconsistent entry.
struct ZipDirectoryReader {
  let bytes: [UInt8]
  let path: String
  let limits: ZipLimits

  private static let endSignature: UInt32 = 0x0605_4b50
  private static let centralSignature: UInt32 = 0x0201_4b50
  private static let localSignature: UInt32 = 0x0403_4b50
  private static let zip64LocatorSignature: UInt32 = 0x0706_4b50

  func fail(_ kind: ZipError.Kind, entry: String? = nil, _ message: String) -> ZipError {
    ZipError(kind, archive: path, entry: entry, message)
  }

  func u16(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
  func u32(_ offset: Int) -> UInt32 {
    UInt32(bytes[offset]) | UInt32(bytes[offset + 1]) << 8 | UInt32(bytes[offset + 2]) << 16
      | UInt32(bytes[offset + 3]) << 24
  }

  /// The end-of-central-directory record's offset: the last signature in the final 64 KiB + 22 bytes (the
  /// record is 22 bytes and may be followed by a comment of up to 65,535).
  func endRecordOffset() throws(ZipError) -> Int {
    guard bytes.count >= 22 else {
      throw fail(.notAZipArchive, "too short to be a zip archive; an .ipa is a zip file")
    }
    var offset = bytes.count - 22
    let lowest = max(0, bytes.count - 22 - 65_535)
    while offset >= lowest {
      if u32(offset) == Self.endSignature, offset + 22 + u16(offset + 20) == bytes.count { return offset }
      offset -= 1
    }
    throw fail(
      .notAZipArchive,
      "no end-of-central-directory record: not a zip archive, or one cut short (an .ipa is a zip file)")
  }

  func entries() throws(ZipError) -> [ZipEntry] {
    let end = try endRecordOffset()
    if end >= 20, u32(end - 20) == Self.zip64LocatorSignature {
      throw fail(.unsupported, "a ZIP64 archive (over 4 GiB or 65,535 entries), which RuleKit does not read")
    }
    guard u16(end + 4) == 0, u16(end + 6) == 0, u16(end + 8) == u16(end + 10) else {
      throw fail(.unsupported, "a multi-disk (split) archive; join it into one file first")
    }
    let count = u16(end + 10)
    let size = Int(u32(end + 12))
    let start = Int(u32(end + 16))
    guard count <= limits.maximumEntryCount else {
      throw fail(
        .tooManyEntries,
        "\(count) entries, more than the limit of \(limits.maximumEntryCount) (ZipLimits.maximumEntryCount)")
    }
    guard start <= end, size <= end - start else {
      throw fail(.corrupt, "the central directory lies outside the file; the archive is cut short or damaged")
    }
    var entries: [ZipEntry] = []
    entries.reserveCapacity(count)
    var offset = start
    var total = 0
    var names: Set<String> = []
    for number in 0..<count {
      guard offset + 46 <= start + size, u32(offset) == Self.centralSignature else {
        throw fail(
          .corrupt,
          "central-directory entry \(number + 1) of \(count) is cut short or missing; the archive is damaged")
      }
      let made = u16(offset + 4) >> 8
      let flags = u16(offset + 8)
      let nameLength = u16(offset + 28)
      let extraLength = u16(offset + 30)
      let commentLength = u16(offset + 32)
      let next = offset + 46 + nameLength + extraLength + commentLength
      guard next <= start + size else {
        throw fail(
          .corrupt, "central-directory entry \(number + 1) runs past the directory; the archive is damaged")
      }
      let name = String(decoding: bytes[offset + 46..<offset + 46 + nameLength], as: UTF8.self)
      var entry = ZipEntry(
        name: name, uncompressedSize: Int(u32(offset + 24)), compressedSize: Int(u32(offset + 20)),
        method: UInt16(u16(offset + 10)), crc32: u32(offset + 16), localHeaderOffset: Int(u32(offset + 42)))
      try check(name: name)
      guard names.insert(name).inserted else {
        throw fail(.corrupt, entry: name, "appears twice in the archive; which copy is meant is not clear")
      }
      if flags & 1 != 0 {
        throw fail(.encrypted, entry: name, "is encrypted; RuleKit reads only unencrypted archives")
      }
      // Unix mode in the high 16 bits of the external attributes, when made on Unix (3) or macOS (19).
      let mode = Int(u32(offset + 38) >> 16)
      if made == 3 || made == 19, mode & 0o170000 == 0o120000 {
        throw fail(
          .symbolicLink, entry: name,
          "is a symbolic link; RuleKit never follows links in an archive (an .ipa Xcode exports has none)")
      }
      try check(sizesOf: entry, total: &total)
      entry.dataOffset = try dataOffset(of: entry, directoryStart: start)
      entries.append(entry)
      offset = next
    }
    try checkNoOverlap(entries)
    return entries
  }

  /// Refuses names that would leave the folder an archive is read into.
  func check(name: String) throws(ZipError) {
    let traversal: String? =
      if name.isEmpty || name.contains("\0") {
        "an empty name or one with a NUL"
      } else if name.contains("\\") {
        "a backslash, which some tools read as a folder separator"
      } else if name.hasPrefix("/") {
        "an absolute path"
      } else if name.count >= 2, name.dropFirst().first == ":", name.first?.isLetter == true {
        "a drive letter"
      } else if name.split(separator: "/", omittingEmptySubsequences: false).contains("..") {
        "a '..' component"
      } else {
        nil
      }
    if let traversal {
      throw fail(
        .pathTraversal, entry: name,
        "the name has \(traversal): it points outside the archive's folder (path traversal); the archive is "
          + "refused whole")
    }
  }

  func check(sizesOf entry: ZipEntry, total: inout Int) throws(ZipError) {
    guard entry.uncompressedSize <= limits.maximumEntryBytes else {
      throw fail(
        .tooLarge, entry: entry.name,
        "inflates to \(entry.uncompressedSize) bytes, more than the limit of \(limits.maximumEntryBytes) "
          + "(ZipLimits.maximumEntryBytes)")
    }
    total += entry.uncompressedSize
    guard total <= limits.maximumTotalBytes else {
      throw fail(
        .tooLarge,
        "the entries inflate to more than \(limits.maximumTotalBytes) bytes together (ZipLimits.maximumTotalBytes)"
      )
    }
    if entry.uncompressedSize > limits.ratioCheckThresholdBytes,
      entry.uncompressedSize / max(entry.compressedSize, 1) > limits.maximumCompressionRatio
    {
      throw fail(
        .compressionRatio, entry: entry.name,
        "\(entry.compressedSize) bytes inflate to \(entry.uncompressedSize), more than "
          + "\(limits.maximumCompressionRatio) to 1 (ZipLimits.maximumCompressionRatio): a zip bomb")
    }
  }

  /// Where the entry's data starts, after its local header; the data must end before the central directory.
  func dataOffset(of entry: ZipEntry, directoryStart: Int) throws(ZipError) -> Int {
    let local = entry.localHeaderOffset
    guard local + 30 <= directoryStart, u32(local) == Self.localSignature else {
      throw fail(.corrupt, entry: entry.name, "its local header is missing; the archive is damaged")
    }
    let data = local + 30 + u16(local + 26) + u16(local + 28)
    guard data <= directoryStart, entry.compressedSize <= directoryStart - data else {
      throw fail(
        .corrupt, entry: entry.name, "its data runs past the end of the file data; the archive is damaged")
    }
    return data
  }

  /// Entries whose data overlap (David Fifield's non-recursive zip bomb shares one compressed kernel).
  func checkNoOverlap(_ entries: [ZipEntry]) throws(ZipError) {
    let sorted = entries.sorted { $0.localHeaderOffset < $1.localHeaderOffset }
    for (earlier, later) in zip(sorted, sorted.dropFirst())
    where earlier.dataOffset + earlier.compressedSize > later.localHeaderOffset {
      throw fail(
        .overlappingEntries, entry: later.name,
        "its data overlaps \(earlier.name)'s: a crafted archive (an overlapping zip bomb); refused")
    }
  }
}
