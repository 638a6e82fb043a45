/// The bounds a zip archive is read within; every one has its own ``ZipError``.
///
/// An `.ipa` comes from someone else: these keep a hostile archive (a zip bomb, a million entries, a lying
/// header) from costing more than a real app would. The defaults are far above what App Store apps hold
/// (tens of thousands of files, a few GiB unpacked) and far below what would exhaust a laptop.
public struct ZipLimits: Sendable, Hashable {
  /// The most bytes of archive read into memory (`maximumArchiveBytes`).
  public var maximumArchiveBytes: Int
  /// The most entries the central directory may list.
  public var maximumEntryCount: Int
  /// The most bytes one entry may declare it inflates to.
  public var maximumEntryBytes: Int
  /// The most bytes all entries together may declare they inflate to.
  public var maximumTotalBytes: Int
  /// The largest ratio of inflated to compressed size allowed for an entry of more than
  /// ``ratioCheckThresholdBytes``; deflate's own ceiling is about 1032 to 1, which only bombs approach.
  public var maximumCompressionRatio: Int
  /// Entries up to this size are not ratio-checked: a small file of zeros is harmless whatever its ratio.
  public var ratioCheckThresholdBytes: Int

  /// The defaults: 2 GiB of archive, 100,000 entries, 1 GiB per entry, 8 GiB in all, 200 to 1 above 1 MiB.
  public init(
    maximumArchiveBytes: Int = 2 << 30, maximumEntryCount: Int = 100_000, maximumEntryBytes: Int = 1 << 30,
    maximumTotalBytes: Int = 8 << 30, maximumCompressionRatio: Int = 200,
    ratioCheckThresholdBytes: Int = 1 << 20
  ) {
    self.maximumArchiveBytes = maximumArchiveBytes
    self.maximumEntryCount = maximumEntryCount
    self.maximumEntryBytes = maximumEntryBytes
    self.maximumTotalBytes = maximumTotalBytes
    self.maximumCompressionRatio = maximumCompressionRatio
    self.ratioCheckThresholdBytes = ratioCheckThresholdBytes
  }
}

/// Why a zip archive, or an entry of it, was not read. Each case names the archive and the entry, says what
/// is wrong, and what to do.
public struct ZipError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, as a stable kind.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// No end-of-central-directory record, or one that points outside the file.
    case notAZipArchive = "not-a-zip-archive"
    /// The central directory or a local header is cut short or inconsistent.
    case corrupt
    /// A ZIP64 archive, a multi-disk archive or a compression method other than stored and deflate.
    case unsupported
    /// More entries than ``ZipLimits/maximumEntryCount``.
    case tooManyEntries = "too-many-entries"
    /// An entry, or all entries together, inflate past a size limit.
    case tooLarge = "too-large"
    /// An entry inflates far more than real files do: a zip bomb.
    case compressionRatio = "compression-ratio"
    /// Entries whose data overlap: the non-recursive zip-bomb construction.
    case overlappingEntries = "overlapping-entries"
    /// A name with `..`, a leading `/`, a drive letter or a backslash: it would write outside a folder.
    case pathTraversal = "path-traversal"
    /// A symbolic-link entry, which RuleKit never follows.
    case symbolicLink = "symbolic-link"
    /// An encrypted entry.
    case encrypted
    /// The entry's data does not match its CRC-32 or its declared size.
    case checksum
    /// The entry asked for is not in the archive.
    case entryNotFound = "entry-not-found"
  }

  /// What went wrong.
  public var kind: Kind
  /// The archive's path, as given.
  public var archive: String
  /// The entry's name, when the problem is one entry's.
  public var entry: String?
  /// The explanation, with what to do.
  public var message: String

  /// An error of `kind` about `archive` (and `entry`), explained by `message`.
  public init(_ kind: Kind, archive: String, entry: String? = nil, _ message: String) {
    self.kind = kind
    self.archive = archive
    self.entry = entry
    self.message = message
  }

  /// `archive: entry: message`.
  public var description: String {
    "\(archive): " + (entry.map { "\($0): " } ?? "") + message
  }
}
