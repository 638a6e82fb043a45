/// One file or folder a zip archive's central directory lists.
public struct ZipEntry: Sendable, Hashable {
  /// The entry's name: a relative path with `/` separators; a folder's ends with `/`.
  public var name: String
  /// The size the entry declares it inflates to.
  public var uncompressedSize: Int
  /// The size of its data in the archive.
  public var compressedSize: Int
  /// Whether the entry is a folder (its name ends with `/`).
  public var isDirectory: Bool { name.hasSuffix("/") }

  let method: UInt16
  let crc32: UInt32
  let localHeaderOffset: Int
  /// Where the entry's data starts, read from its local header when the archive is opened.
  var dataOffset: Int = 0
}

/// A zip archive read from memory: the central directory is checked whole when the archive is opened, and
/// an entry is inflated only when asked for, into memory, within ``ZipLimits``. Nothing is ever written.
///
/// Only stored and deflated entries are read (what `ditto`, Xcode and `zip` write for an `.ipa`). The
/// archive is refused whole when any entry is hostile: a name that would leave a folder (`..`, `/x`, `C:`,
/// `\`), a symbolic link, an encrypted entry, overlapping entry data, or sizes past the limits.
///
/// ```swift
/// let archive = try ZipArchive(bytes: bytes, path: "Notes.ipa")
/// let plist = try archive.read("Payload/Notes.app/Info.plist", limit: 1 << 20)
/// ```
public struct ZipArchive: Sendable {
  /// The archive's path, for messages.
  public let path: String
  /// Every entry, in central-directory order.
  public let entries: [ZipEntry]
  /// The limits the archive was opened with.
  public let limits: ZipLimits
  private let bytes: [UInt8]
  private let index: [String: Int]

  /// Opens the archive whose bytes are `bytes`; `path` is only used in messages.
  ///
  /// - Throws: ``ZipError`` when the archive is not a zip, is corrupt or unsupported, or holds a hostile
  ///   entry (see the type's discussion).
  public init(bytes: [UInt8], path: String, limits: ZipLimits = ZipLimits()) throws(ZipError) {
    self.path = path
    self.limits = limits
    guard bytes.count <= limits.maximumArchiveBytes else {
      throw ZipError(
        .tooLarge, archive: path,
        "the archive is \(bytes.count) bytes, more than the limit of \(limits.maximumArchiveBytes) bytes "
          + "(ZipLimits.maximumArchiveBytes)")
    }
    self.bytes = bytes
    let reader = ZipDirectoryReader(bytes: bytes, path: path, limits: limits)
    let entries = try reader.entries()
    self.entries = entries
    var index: [String: Int] = [:]
    for (position, entry) in entries.enumerated() { index[entry.name] = position }
    self.index = index
  }

  /// The entry named `name`, if the archive has one.
  public func entry(named name: String) -> ZipEntry? {
    index[name].map { entries[$0] }
  }

  /// The inflated bytes of the entry named `name`, when it declares at most `limit` bytes.
  ///
  /// - Throws: ``ZipError`` with kind `entryNotFound`, `tooLarge` (past `limit`), `unsupported` (a method
  ///   other than stored or deflate), `corrupt` or `checksum` (the data does not inflate to what the
  ///   central directory declares).
  public func read(_ name: String, limit: Int) throws(ZipError) -> [UInt8] {
    guard let entry = entry(named: name), !entry.isDirectory else {
      throw ZipError(.entryNotFound, archive: path, entry: name, "no such file in the archive")
    }
    guard entry.uncompressedSize <= limit else {
      throw ZipError(
        .tooLarge, archive: path, entry: name,
        "inflates to \(entry.uncompressedSize) bytes, more than the \(limit) bytes read for this file")
    }
    let data = bytes[entry.dataOffset..<entry.dataOffset + entry.compressedSize]
    let output: [UInt8]
    switch entry.method {
    case 0:
      guard entry.compressedSize == entry.uncompressedSize else {
        throw ZipError(
          .corrupt, archive: path, entry: name,
          "a stored entry whose two sizes differ; the archive is damaged")
      }
      output = Array(data)
    case 8:
      output = try Inflater.inflate(data, expectedSize: entry.uncompressedSize) { message throws(ZipError) in
        throw ZipError(.corrupt, archive: path, entry: name, message)
      }
    default:
      throw ZipError(
        .unsupported, archive: path, entry: name,
        "compression method \(entry.method) is not read (only stored and deflate, which Xcode and zip write)")
    }
    guard Inflater.crc32(output) == entry.crc32 else {
      throw ZipError(
        .checksum, archive: path, entry: name, "the data does not match its CRC-32; the archive is damaged")
    }
    return output
  }
}
