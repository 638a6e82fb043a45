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

/// Reads a whole file, but never more than a size limit.
///
/// Reading first and checking the size afterwards lets a 1 GB file cost a gigabyte of memory and a minute
/// of reading before it is refused. This reader checks before it reads: a regular file's size comes from
/// `fstat` on the open file, and a larger one is refused without reading a byte. Input without a size (a
/// pipe, a FIFO, standard input, a character device) is read in chunks that stop one byte past the limit.
/// Either way an oversized input costs at most `limit + 1` bytes of reading and memory.
///
/// Every RuleKit loader reads through it, each with its own limit (`PropertyListLimits.maximumFileBytes`,
/// `PredicateValue.JSONLimits.maximumBytes`, …), and turns a ``Failure`` into its own error with the
/// limit's name and how to get under it:
///
/// ```swift
/// do {
///   let data = try BoundedFileReader.read(contentsOf: path, limit: PropertyListLimits.maximumFileBytes)
/// } catch {
///   print(error)  // "huge.plist is 1073741824 bytes, more than the limit of 16777216 bytes"
/// }
/// ```
public enum BoundedFileReader {
  /// How large a refused input is.
  public enum Size: Sendable, Hashable, CustomStringConvertible {
    /// The size `fstat` reported for a regular file.
    case exactly(Int)
    /// Input without a size (a pipe, a FIFO) that went on past the limit; reading stopped there.
    case moreThan(Int)

    /// `1073741824 bytes` or `more than 16777216 bytes`.
    public var description: String {
      switch self {
      case .exactly(let bytes): "\(bytes) bytes"
      case .moreThan(let bytes): "more than \(bytes) bytes"
      }
    }

    /// The size against `limit`, to follow the name of what was read: `is 1073741824 bytes, more than the
    /// limit of 16777216 bytes`, or `goes on past the limit of 16777216 bytes` for input without a size.
    public func exceeding(limit: Int) -> String {
      switch self {
      case .exactly(let bytes): "is \(bytes) bytes, more than the limit of \(limit) bytes"
      case .moreThan: "goes on past the limit of \(limit) bytes"
      }
    }
  }

  /// Why a file was not read.
  public enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
    /// Nothing exists at the path (or a symbolic link there points nowhere).
    case notFound(path: String)
    /// The path names a directory.
    case isDirectory(path: String)
    /// The input is larger than the limit; at most `limit + 1` bytes of it were read.
    case tooLarge(path: String, size: Size, limit: Int)
    /// Opening or reading failed; `reason` is the system's (`Permission denied`).
    case unreadable(path: String, reason: String)

    /// The path the failure is about.
    public var path: String {
      switch self {
      case .notFound(let path), .isDirectory(let path), .tooLarge(let path, _, _), .unreadable(let path, _):
        path
      }
    }

    /// What went wrong, without the path, for a caller to put after the file's name: `no such file`,
    /// `cannot read: it is a directory`, `is 1073741824 bytes, more than the limit of 16777216 bytes`
    /// (`goes on past the limit of …` for input without a size), `cannot read: Permission denied`.
    ///
    /// Callers that know what the file should be word ``tooLarge(path:size:limit:)`` themselves, with the
    /// limit's name and how to get under it.
    public var reason: String {
      switch self {
      case .notFound: "no such file"
      case .isDirectory: "cannot read: it is a directory"
      case .tooLarge(_, let size, let limit): size.exceeding(limit: limit)
      case .unreadable(_, let reason): "cannot read: \(reason)"
      }
    }

    /// How to fix it, when that follows from the failure alone (`pass the file inside it` for a
    /// directory); `nil` when only the caller knows (which file was meant, which limit applies).
    public var hint: String? {
      switch self {
      case .isDirectory: "pass the file inside it"
      case .notFound, .tooLarge, .unreadable: nil
      }
    }

    /// `path: reason` (`path reason` for a size), then `; hint` when there is one.
    public var description: String {
      let separator = if case .tooLarge = self { " " } else { ": " }
      return path + separator + reason + (hint.map { "; \($0)" } ?? "")
    }
  }

  /// `limit` for people: `16 MiB` when it is a whole number of mebibytes, else `1000 bytes`.
  public static func describe(limit: Int) -> String {
    limit > 0 && limit % (1 << 20) == 0 ? "\(limit >> 20) MiB" : "\(limit) bytes"
  }

  /// How much one `read` asks for; large enough that a 16 MiB file takes a few dozen calls.
  static let chunkBytes = 1 << 20

  /// The whole file at `path`, when it is at most `limit` bytes.
  ///
  /// A regular file larger than `limit` is refused after an `fstat`, unread
  /// (``Failure/tooLarge(path:size:limit:)`` with its exact size). Anything else is read until it ends or
  /// passes `limit`. Opening a FIFO waits for a writer, as any reader of it does.
  public static func read(contentsOf path: String, limit: Int) throws(Failure) -> Data {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else {
      let code = errno
      if code == ENOENT || code == ENOTDIR { throw .notFound(path: path) }
      throw .unreadable(path: path, reason: String(cString: strerror(code)))
    }
    defer { close(descriptor) }
    var status = stat()
    guard fstat(descriptor, &status) == 0 else {
      throw .unreadable(path: path, reason: String(cString: strerror(errno)))
    }
    switch status.st_mode & S_IFMT {
    case S_IFDIR:
      throw .isDirectory(path: path)
    case S_IFREG:
      let size = Int(status.st_size)
      if size > limit { throw .tooLarge(path: path, size: .exactly(size), limit: limit) }
      return try read(descriptor, limit: limit, expected: size, path: path)
    default:
      return try read(descriptor, limit: limit, expected: nil, path: path)
    }
  }

  /// Everything `fileDescriptor` (standard input, a pipe) yields until it ends, when that is at most
  /// `limit` bytes; `path` names it in errors (`<stdin>`). The descriptor is left open.
  ///
  /// Input that goes on past `limit` is refused as soon as byte `limit + 1` arrives, without waiting for
  /// its end (``Failure/tooLarge(path:size:limit:)`` with ``Size/moreThan(_:)``).
  public static func read(fileDescriptor: Int32, limit: Int, path: String) throws(Failure) -> Data {
    try read(fileDescriptor, limit: limit, expected: nil, path: path)
  }

  /// Reads until the end or `limit + 1` bytes; `expected` sizes the buffer for a regular file.
  private static func read(_ descriptor: Int32, limit: Int, expected: Int?, path: String) throws(Failure)
    -> Data
  {
    // One byte past the limit tells "exactly at the limit" from "over it".
    let ceiling = limit < Int.max ? Swift.max(limit, 0) + 1 : Int.max
    var data = Data()
    data.reserveCapacity(Swift.min(expected.map { $0 + 1 } ?? chunkBytes, ceiling))
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: chunkBytes, alignment: 1)
    defer { buffer.deallocate() }
    while data.count < ceiling {
      let wanted = Swift.min(chunkBytes, ceiling - data.count)
      let count = systemRead(descriptor, buffer.baseAddress, wanted)
      if count < 0 {
        if errno == EINTR { continue }
        throw .unreadable(path: path, reason: String(cString: strerror(errno)))
      }
      if count == 0 { return data }
      data.append(contentsOf: UnsafeRawBufferPointer(rebasing: buffer[0..<count]))
    }
    // A regular file that grew after `fstat` ends here too.
    throw .tooLarge(path: path, size: .moreThan(limit), limit: limit)
  }
}

/// The C library's `read`, named apart from ``BoundedFileReader``'s own `read` functions.
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
  read(descriptor, buffer, count)
}
