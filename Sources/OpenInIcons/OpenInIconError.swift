import PNGImages

/// Why Open-In icons could not be made or written.
public struct OpenInIconError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The class of problem; callers map it to an exit status.
  public enum Kind: String, Sendable, Hashable {
    /// The input does not exist.
    case notFound
    /// The input is of a kind this tool does not read (an `.ipa`, a folder of another kind).
    case unsupportedInput
    /// The input has no icon rulekit can read (only `Assets.car`, or no icon declared).
    case noIcon
    /// An input file is malformed: a PNG (``png`` says how), an Info.plist or a `Contents.json`.
    case invalidInput
    /// Output files exist and `force` was not given; nothing was written.
    case outputExists
    /// Reading or writing failed.
    case io
  }

  /// The class of problem.
  public var kind: Kind
  /// What is wrong.
  public var message: String
  /// The file or folder the problem is about.
  public var path: String?
  /// How to fix it.
  public var hint: String?
  /// The PNG error behind an ``Kind/invalidInput`` PNG.
  public var png: PNGError?

  /// Creates an error.
  public init(_ kind: Kind, _ message: String, path: String? = nil, hint: String? = nil, png: PNGError? = nil)
  {
    self.kind = kind
    self.message = message
    self.path = path
    self.hint = hint
    self.png = png
  }

  /// An error for a PNG file that failed to read.
  init(_ png: PNGError) {
    self.init(.invalidInput, png.description, path: png.file, hint: png.hint, png: png)
  }

  /// `path: message`, for people.
  public var description: String {
    if png != nil { return message }
    return (path.map { $0 + ": " } ?? "") + message
  }
}
