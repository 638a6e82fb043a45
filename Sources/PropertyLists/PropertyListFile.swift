#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// The on-disk format of a property list.
public enum PropertyListFormat: String, Sendable, Hashable {
  /// XML (`<?xml … <plist>`), read and edited as text by ``PropertyListDocument``.
  case xml
  /// Binary (`bplist00`), read and written by this module (``PropertyListFile``).
  case binary
  /// Old-style (OpenStep) text, `{ key = value; }`, read and written by this module.
  case openStep
}

/// A property list file in any of the three formats, edited and written back in its own format.
///
/// XML files keep their text and positions (``document``) and are edited as minimal text changes.
/// Binary and OpenStep files have no positions: edits change the value, and writing rewrites the file
/// from it. All three formats are read and written by this module, without Foundation's
/// `PropertyListSerialization`.
public struct PropertyListFile: Sendable {
  /// What a file holds: a positioned XML document, or a value read from a binary or OpenStep file.
  public enum Content: Sendable {
    /// An XML file, with its text and positions.
    case xml(PropertyListDocument)
    /// A value and the format to write it in (`.xml` writes a new file in Apple's layout).
    case value(PropertyListValue, PropertyListFormat)
  }

  /// What the file holds.
  public let content: Content
  /// The file it was read from, for messages and as the default place to write.
  public let path: String?
  /// Duplicate keys an OpenStep file was read with (the document keeps an XML file's).
  private var openStepDuplicateKeys: [PropertyListDuplicateKey] = []

  /// A file with the given content, to be written to `path`.
  public init(content: Content, path: String?) {
    self.content = content
    self.path = path
  }

  /// Keys that appear twice in one dictionary, accepted under ``PropertyListDuplicateKeyPolicy/keepLast``
  /// (the later value is the one kept), with the positions of both, for XML and OpenStep files as read.
  /// Always empty for binary files, which have no positions to name (their readers keep the last value, as
  /// Foundation does), and after an edit of a binary or OpenStep file.
  public var duplicateKeyWarnings: [PropertyListDuplicateKey] {
    if case .xml(let document) = content { return document.duplicateKeyWarnings }
    return openStepDuplicateKeys
  }

  /// Reads a property list of any format from memory, detecting the format from the first bytes.
  ///
  /// With `preprocessing`, an XML file is read as Xcode reads an Info.plist it preprocesses
  /// (``PropertyListPreprocessing``); binary and OpenStep files are read as they are.
  public init(
    data: Data, path: String? = nil, duplicateKeys: PropertyListDuplicateKeyPolicy = .error,
    preprocessing: PropertyListPreprocessing? = nil
  ) throws(PropertyListError) {
    self.path = path
    if data.count > PropertyListLimits.maximumFileBytes {
      throw PropertyListLimits.fileTooLarge(size: .exactly(data.count), path: path)
    }
    if Self.looksLikeUnmarkedUTF16(data) {
      throw PropertyListError(
        .invalidEncoding, "the property list is UTF-16 without a byte order mark", path: path,
        hint: "save the file as UTF-8 (plutil -convert xml1 writes UTF-8)")
    }
    if let encoding = Self.unicodeByteOrderMark(data) {
      throw PropertyListError(
        .invalidEncoding, "the property list is \(encoding) (it starts with a byte order mark)", path: path,
        hint: "save the file as UTF-8 (plutil -convert xml1 writes UTF-8)")
    }
    switch Self.detectFormat(data, preprocessed: preprocessing != nil) {
    case .xml:
      content = .xml(
        try PropertyListDocument(
          data: data, path: path, duplicateKeys: duplicateKeys, preprocessing: preprocessing))
    case .binary:
      do {
        content = .value(
          try BinaryPropertyListReader.read([UInt8](data), duplicateKeys: duplicateKeys), .binary)
      } catch {
        throw error.inFile(path)
      }
    case .openStep:
      do {
        let read = try OpenStepReader.readListingDuplicates([UInt8](data), duplicateKeys: duplicateKeys)
        content = .value(read.value, .openStep)
        openStepDuplicateKeys = read.duplicates
      } catch {
        throw error.inFile(path)
      }
    }
  }

  /// The encoding a UTF-16 or UTF-32 byte order mark announces, which no reader here takes (Apple's tools
  /// write UTF-8), so the message says how to convert rather than that the bytes are no property list.
  static func unicodeByteOrderMark(_ data: Data) -> String? {
    if data.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
      return "UTF-32"
    }
    if data.starts(with: [0xFE, 0xFF]) || data.starts(with: [0xFF, 0xFE]) { return "UTF-16" }
    return nil
  }

  /// UTF-16 text without a byte order mark: every other byte of `<?xml` or `<plist` is zero.
  static func looksLikeUnmarkedUTF16(_ data: Data) -> Bool {
    let head = Array(data.prefix(8))
    guard head.count == 8 else { return false }
    let even = stride(from: 0, to: 8, by: 2).map { head[$0] }
    let odd = stride(from: 1, to: 8, by: 2).map { head[$0] }
    return (odd.allSatisfy { $0 == 0 } && even[0] == UInt8(ascii: "<"))
      || (even.allSatisfy { $0 == 0 } && odd[0] == UInt8(ascii: "<"))
  }

  /// Reads the property list file at `path`.
  ///
  /// A file larger than ``PropertyListLimits/maximumFileBytes`` is refused before it is read (see
  /// ``BoundedFileReader``).
  ///
  /// - Throws: ``PropertyListError/Kind/fileNotFound`` when there is no such file, ``PropertyListError/Kind/io``
  ///   when it cannot be read, ``PropertyListError/Kind/limitExceeded`` when it is too large, and parse errors
  ///   with line and column.
  public static func read(
    contentsOf path: String, duplicateKeys: PropertyListDuplicateKeyPolicy = .error,
    preprocessing: PropertyListPreprocessing? = nil
  ) throws(PropertyListError) -> PropertyListFile {
    try PropertyListFile(
      data: readData(contentsOf: path), path: path, duplicateKeys: duplicateKeys, preprocessing: preprocessing
    )
  }

  /// The bytes of the property list file at `path`, read as ``read(contentsOf:duplicateKeys:preprocessing:)`` reads them,
  /// for a caller that parses them with ``init(data:path:duplicateKeys:preprocessing:)`` and keeps them (to show the
  /// source line under a parse error without reading the file again).
  ///
  /// - Throws: ``PropertyListError/Kind/fileNotFound``, ``PropertyListError/Kind/io`` (a directory, a FIFO
  ///   or other non-regular file, a read error) or ``PropertyListError/Kind/limitExceeded`` (too large).
  public static func readData(contentsOf path: String) throws(PropertyListError) -> Data {
    if let kind = nonRegularFileKind(path) {
      // Checked with stat before opening: opening a FIFO blocks until something writes to it, and a file
      // written back in place must be a regular file.
      throw PropertyListError(
        .io, "cannot read: it is not a regular file but \(kind)", path: path,
        hint: "pass the path of the property list file itself")
    }
    // The size is checked before reading (fstat), so a 100 MB file costs a stat, not a read.
    do {
      return try BoundedFileReader.read(contentsOf: path, limit: PropertyListLimits.maximumFileBytes)
    } catch {
      switch error {
      case .notFound: throw PropertyListError(.fileNotFound, error.reason, path: path, hint: error.hint)
      case .tooLarge(_, let size, _): throw PropertyListLimits.fileTooLarge(size: size, path: path)
      case .isDirectory, .unreadable: throw PropertyListError(.io, error.reason, path: path, hint: error.hint)
      }
    }
  }

  /// What `path` is when it exists and is neither a regular file nor a directory ("a named pipe (FIFO)",
  /// "a socket", "a character device", "a block device"), following symbolic links; `nil` otherwise.
  static func nonRegularFileKind(_ path: String) -> String? {
    var status = stat()
    guard stat(path, &status) == 0 else { return nil }
    switch status.st_mode & S_IFMT {
    case S_IFIFO: return "a named pipe (FIFO)"
    case S_IFSOCK: return "a socket"
    case S_IFCHR: return "a character device"
    case S_IFBLK: return "a block device"
    default: return nil
    }
  }

  /// The format from the first bytes: `bplist` is binary, markup is XML, anything else OpenStep.
  ///
  /// Lines starting with `#` before the first markup (preprocessor directives) are passed over: `#`
  /// starts no OpenStep value, and reading such a file as XML gives the error that explains them.
  public static func detectFormat(_ data: Data) -> PropertyListFormat {
    detectFormat(data, preprocessed: false)
  }

  /// ``detectFormat(_:)``, also passing over comments when the file is preprocessed (cpp strips them).
  static func detectFormat(_ data: Data, preprocessed: Bool) -> PropertyListFormat {
    if data.starts(with: Array("bplist".utf8)) { return .binary }
    var bytes = data[...]
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
    while let first = bytes.firstIndex(where: { !$0.isXMLWhitespace }) {
      let rest = bytes[first...]
      let skipped: Data.SubSequence?
      if rest.first == UInt8(ascii: "#") {
        skipped = rest.drop { $0 != 10 && $0 != 13 }
      } else if preprocessed, rest.starts(with: Array("//".utf8)) {
        skipped = rest.drop { $0 != 10 && $0 != 13 }
      } else if preprocessed, rest.starts(with: Array("/*".utf8)),
        let close = rest.dropFirst(2).indices.first(where: {
          rest[$0] == UInt8(ascii: "*") && $0 + 1 < rest.endIndex && rest[$0 + 1] == UInt8(ascii: "/")
        })
      {
        skipped = rest[(close + 2)...]
      } else {
        skipped = nil
      }
      guard let skipped else { break }
      bytes = skipped
    }
    guard let first = bytes.firstIndex(where: { !$0.isXMLWhitespace }) else { return .xml }
    guard bytes[first] == UInt8(ascii: "<"), first + 1 < bytes.endIndex else { return .openStep }
    let next = bytes[first + 1]
    let isMarkup =
      next == UInt8(ascii: "?") || next == UInt8(ascii: "!")
      || (next.isXMLNameByte && !(next >= UInt8(ascii: "0") && next <= UInt8(ascii: "9"))
        && !Self.isHexData(bytes[first...]))
    return isMarkup ? .xml : .openStep
  }

  /// Whether the text starts with OpenStep data, `<0fa3 …>`, rather than a tag.
  static func isHexData(_ bytes: Data.SubSequence) -> Bool {
    guard let close = bytes.firstIndex(of: UInt8(ascii: ">")) else { return false }
    return bytes[(bytes.startIndex + 1)..<close].allSatisfy { byte in
      byte.isXMLWhitespace || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
        || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
  }

  /// The file's format.
  public var format: PropertyListFormat {
    switch content {
    case .xml: .xml
    case .value(_, let format): format
    }
  }

  /// The value the file holds.
  public var value: PropertyListValue {
    switch content {
    case .xml(let document): document.value
    case .value(let value, _): value
    }
  }

  /// The positioned document of an XML file; `nil` for binary and OpenStep files.
  public var document: PropertyListDocument? {
    if case .xml(let document) = content { return document }
    return nil
  }

  /// The file with `edits` applied: as text edits for XML, to the value otherwise.
  public func applying(_ edits: [PropertyListEdit]) throws(PropertyListError) -> PropertyListFile {
    switch content {
    case .xml(let document):
      return PropertyListFile(content: .xml(try document.applying(edits)), path: path)
    case .value(var value, let format):
      for edit in edits {
        do {
          value = try value.applying(edit)
        } catch {
          throw error.inFile(path)
        }
      }
      return PropertyListFile(content: .value(value, format), path: path)
    }
  }

  /// The bytes to write, in the file's own format.
  ///
  /// - Throws: ``PropertyListError/Kind/unsupportedValue`` when the value cannot be written in the format.
  public func serialized() throws(PropertyListError) -> Data {
    switch content {
    case .xml(let document):
      return document.data
    case .value(let value, .binary):
      return BinaryPropertyListWriter.data(value)
    case .value(let value, .openStep):
      do {
        return Data(try OpenStepWriter.document(value).utf8)
      } catch {
        throw error.inFile(path)
      }
    case .value(let value, .xml):
      return Data(PropertyListSerializer.xmlDocument(value).utf8)
    }
  }

  /// Writes the file atomically to `destination`, or back to where it was read from.
  public func write(to destination: String? = nil) throws(PropertyListError) {
    guard let target = destination ?? path else {
      throw PropertyListError(.io, "there is no file to write to: pass a destination")
    }
    try AtomicFileWriter.write(try serialized(), to: target)
  }

  /// Writes several files atomically and all or none: when one cannot be serialized or written, no file
  /// changes (see ``AtomicFileWriter/write(_:)``). Each goes to its destination, or back to where it was
  /// read from.
  public static func write(_ files: [(file: PropertyListFile, destination: String?)])
    throws(PropertyListError)
  {
    var writes: [(data: Data, path: String)] = []
    for (file, destination) in files {
      guard let target = destination ?? file.path else {
        throw PropertyListError(.io, "there is no file to write to: pass a destination")
      }
      writes.append((try file.serialized(), target))
    }
    try AtomicFileWriter.write(writes)
  }
}
