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

  /// The most values one binary property list may stand for: 4 194 304 (4 Mi), every array and dictionary,
  /// its keys and its elements counted.
  ///
  /// A binary plist's containers refer to their elements by object number, so one object can appear in
  /// many places: 30 levels that each hold the level below twice take a few hundred bytes and stand for
  /// 2^30 values, which every later walk (comparing, editing, writing) would visit. The reader shares such
  /// objects instead of copying them, and counts each use against this limit. A 16 MiB XML file holds at
  /// most about 2.4 million values (`<true/>` is 7 bytes), so no file that is not built to expand meets it.
  public static let maximumValueCount = 1 << 22

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
