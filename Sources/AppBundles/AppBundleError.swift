import PropertyLists

/// Why a built app, or a file in it, could not be read.
public struct AppBundleError: Error, Sendable, Hashable, CustomStringConvertible {
  /// What went wrong, as a stable kind.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// Nothing at the path, or no such file inside the bundle.
    case notFound = "not-found"
    /// The path is not an `.app` folder, an `.xcarchive` folder or an `.ipa` (zip) file.
    case notABundle = "not-a-bundle"
    /// An archive or folder without an app where one belongs (`Payload/*.app`,
    /// `Products/Applications/*.app`).
    case noApplication = "no-application"
    /// The app sits inside another archive inside the archive, which is never opened.
    case nestedArchive = "nested-archive"
    /// A symbolic link inside an `.app` or `.xcarchive` folder, which is never followed.
    case symbolicLink = "symbolic-link"
    /// A file is larger than the limit it is read with.
    case tooLarge = "too-large"
    /// The zip archive was refused; ``AppBundleError/zip`` says why.
    case archive
    /// Reading from disk failed.
    case inputOutput = "input-output"
  }

  /// What went wrong.
  public var kind: Kind
  /// The file or folder it is about.
  public var path: String
  /// The explanation, with what to do.
  public var message: String
  /// The archive's own error, for kind ``Kind/archive`` (and `tooLarge` or `notFound` inside an archive).
  public var zip: ZipError?

  /// An error of `kind` about `path`, explained by `message`.
  public init(_ kind: Kind, path: String, _ message: String, zip: ZipError? = nil) {
    self.kind = kind
    self.path = path
    self.message = message
    self.zip = zip
  }

  init(_ error: ZipError) {
    let kind: Kind =
      switch error.kind {
      case .entryNotFound: .notFound
      case .tooLarge: .tooLarge
      default: .archive
      }
    self.init(kind, path: error.archive + (error.entry.map { "/\($0)" } ?? ""), error.message, zip: error)
  }

  init(_ failure: BoundedFileReader.Failure, limit: Int) {
    switch failure {
    case .notFound(let path): self.init(.notFound, path: path, "no such file")
    case .tooLarge(let path, let size, _):
      self.init(.tooLarge, path: path, "\(size.exceeding(limit: limit)) read for this file")
    case .isDirectory(let path), .unreadable(let path, _):
      self.init(.inputOutput, path: path, failure.reason)
    }
  }

  /// `path: message`.
  public var description: String { "\(path): \(message)" }
}
