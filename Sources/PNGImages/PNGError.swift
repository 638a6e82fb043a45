/// Why a PNG file could not be read or written.
///
/// Every error names the file (when there is one), the byte offset of the chunk it is about (when the problem
/// is inside the file), that chunk's type, a message, and where one exists a hint at the fix.
/// ``description`` is the one-liner `file: byte N (chunk IDAT): message`.
public struct PNGError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The class of problem; callers map it to an exit status.
  public enum Kind: String, Sendable, Hashable {
    /// The bytes do not start with the PNG signature.
    case notPNG
    /// The file ends inside a chunk, or before `IEND`.
    case truncated
    /// A chunk's CRC does not match its bytes.
    case badCRC
    /// A chunk is malformed, misplaced, missing or has invalid values.
    case malformed
    /// The compressed image data is damaged, too short or too long for the header's size.
    case badImageData
    /// A valid PNG feature the reader does not implement (an unknown critical chunk).
    case unsupported
    /// The file or image exceeds a bound of ``PNGLimits``.
    case limitExceeded
    /// zlib could not compress image data while writing (it could not allocate its state).
    case encodingFailed
  }

  /// The class of problem.
  public var kind: Kind
  /// What is wrong, in a sentence.
  public var message: String
  /// The file the problem is in, when there is one.
  public var file: String?
  /// The 0-based byte offset of the chunk (its length field) the problem is in, when there is one.
  public var offset: Int?
  /// The four-letter type of that chunk.
  public var chunk: String?
  /// How to fix it, when there is something to say.
  public var hint: String?

  /// Creates an error.
  public init(
    _ kind: Kind, _ message: String, file: String? = nil, offset: Int? = nil, chunk: String? = nil,
    hint: String? = nil
  ) {
    self.kind = kind
    self.message = message
    self.file = file
    self.offset = offset
    self.chunk = chunk
    self.hint = hint
  }

  /// The error with `file` filled in.
  public func inFile(_ file: String?) -> PNGError {
    var copy = self
    copy.file = file
    return copy
  }

  /// `file: byte N (chunk IDAT): message`.
  public var description: String {
    var place: [String] = []
    if let offset { place.append("byte \(offset)") }
    if let chunk { place.append("(chunk \(chunk))") }
    let prefix = [file.map { $0 + ":" }, place.isEmpty ? nil : place.joined(separator: " ") + ":"]
      .compactMap { $0 }.joined(separator: " ")
    return (prefix.isEmpty ? "" : prefix + " ") + message
  }
}

/// The bounds the reader enforces, so a hostile file cannot take unbounded memory or time.
///
/// A decoded image takes `width × height × 4` bytes, and the inflated data about as much again; the pixel
/// bound keeps both near 64 MiB. App icons are at most 1024 × 1024 pixels.
public enum PNGLimits {
  /// The largest file read, in bytes (32 MiB).
  public static let maximumFileBytes = 32 << 20
  /// The largest width or height, in pixels.
  public static let maximumDimension = 16_384
  /// The most pixels an image may have (4096 × 4096).
  public static let maximumPixels = 16_777_216
  /// The most chunks a file may have.
  public static let maximumChunks = 100_000
}
