/// The bounds on the property lists this module reads, in one place.
///
/// Every reader in the module enforces them, and exceeding one is a ``PropertyListError`` of kind
/// ``PropertyListError/Kind/limitExceeded`` that names the limit, its value and how to get under it.
/// `docs/limits.md` lists them with every other limit of RuleKit.
public enum PropertyListLimits {
  /// The largest property list file read: 16 MiB.
  ///
  /// A real Info.plist or entitlements file is a few kilobytes; 16 MiB leaves room for generated plists
  /// with large embedded data while refusing, before anything is parsed, a file that would take seconds
  /// and hundreds of megabytes to read as a positioned document.
  public static let maximumFileBytes = 16 << 20

  /// The deepest nesting of `<dict>` and `<array>` (and of binary or OpenStep containers) accepted: 256.
  ///
  /// Reading, editing and comparing a document recurse once per level; the bound keeps every one of them
  /// far from the end of the stack (a 100 000-deep file used to crash the reader). Real Info.plists nest
  /// fewer than 10 levels.
  public static let maximumDepth = 256

  /// The most values a binary property list may expand to: 1 000 000.
  ///
  /// A binary plist can reference one object from many places, so a small file can describe an exponential
  /// number of values (each level an array holding the one below twice). Reading stops past this bound; a
  /// real Info.plist holds a few hundred values.
  public static let maximumBinaryValues = 1_000_000

  /// The error for a file larger than ``maximumFileBytes``: its size, or more than the limit for input
  /// without a size (a pipe).
  static func fileTooLarge(size: BoundedFileReader.Size, path: String?) -> PropertyListError {
    PropertyListError(
      .limitExceeded,
      "the property list \(size.exceeding(limit: maximumFileBytes)) "
        + "(\(BoundedFileReader.describe(limit: maximumFileBytes)), PropertyListLimits.maximumFileBytes)",
      path: path,
      hint: "check that this is the Info.plist or entitlements file you meant; a real one is a few kilobytes")
  }

  /// The error for a container opened at `position`, one level deeper than ``maximumDepth``.
  package static func tooDeep(at position: PropertyListPosition?, path: String? = nil) -> PropertyListError {
    PropertyListError(
      .limitExceeded,
      "<dict>/<array> nested deeper than the limit of \(maximumDepth) levels (PropertyListLimits.maximumDepth)",
      path: path, position: position,
      hint: "flatten the structure; no property list Apple reads nests this deep")
  }
}
