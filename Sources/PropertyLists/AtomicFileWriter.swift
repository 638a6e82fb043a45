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

/// Writes files so that readers see either the old or the new content, never a part.
///
/// The data goes to a temporary file in the target's directory, takes the target's permissions, and is
/// renamed over the target. A symbolic link is followed, so its target is replaced and the link stays.
/// When anything fails nothing is replaced and the temporary file is removed. A target without write
/// permission, or in a directory without it, is refused even when the process could override that (as
/// root), because the permission says the file is not meant to change.
public enum AtomicFileWriter {
  /// Writes `data` to `path` atomically.
  ///
  /// - Throws: ``PropertyListError/Kind/io`` naming the file and the reason.
  public static func write(_ data: Data, to path: String) throws(PropertyListError) {
    try write([(data, path)])
  }

  /// Writes several files, all or none: every temporary file is written and synced before the first
  /// rename, and when a later rename fails the files already replaced get their old content back (or are
  /// removed when they did not exist).
  ///
  /// - Throws: ``PropertyListError/Kind/io`` naming the file that failed and the reason.
  public static func write(_ files: [(data: Data, path: String)]) throws(PropertyListError) {
    try write(files, using: .system)
  }

  /// The system calls the writer makes that can fail mid-way, replaceable so tests can interrupt a write.
  struct Operations: Sendable {
    var write: @Sendable (_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int
    var rename: @Sendable (_ from: String, _ to: String) -> Int32

    static let system = Operations(
      write: { descriptor, buffer, count in systemWrite(descriptor, buffer, count) },
      rename: { from, to in systemRename(from, to) })
  }

  /// A temporary file written and synced, waiting to replace its target.
  private struct Staged {
    var path: String
    var target: String
    var temporary: String
    /// The target's bytes before the write, to put back if a later file fails; `nil` for a new file.
    var original: Data?
  }

  static func write(_ files: [(data: Data, path: String)], using operations: Operations)
    throws(PropertyListError)
  {
    var staged: [Staged] = []
    do {
      for file in files {
        staged.append(try stage(file.data, to: file.path, using: operations))
      }
    } catch {
      for file in staged { unlink(file.temporary) }
      throw error
    }
    for (index, file) in staged.enumerated() where operations.rename(file.temporary, file.target) != 0 {
      let reason = String(cString: strerror(errno))
      for later in staged[index...] { unlink(later.temporary) }
      for earlier in staged[..<index].reversed() { restore(earlier) }
      throw PropertyListError(
        .io, "cannot replace the file: \(reason)", path: file.path,
        hint: staged.count > 1 ? "no file was changed" : nil)
    }
  }

  /// Writes `data` to a temporary file beside `path`'s target, with the target's permissions.
  private static func stage(_ data: Data, to path: String, using operations: Operations)
    throws(PropertyListError) -> Staged
  {
    let target = try resolvingSymbolicLinks(path)
    let directory = PathText.deletingLastComponent(target)
    let directoryPath = directory.isEmpty ? "." : directory
    // One stat (following symbolic links) says whether the directory exists, is one, and may be written.
    var directoryStatus = stat()
    guard stat(directoryPath, &directoryStatus) == 0 else {
      throw PropertyListError(
        .io, "cannot write: the directory \(directoryPath) does not exist", path: path,
        hint: "create it first (mkdir -p \(directoryPath)) or write to a directory that exists")
    }
    guard directoryStatus.st_mode & S_IFMT == S_IFDIR else {
      throw PropertyListError(
        .io, "cannot write: \(directoryPath) is a file, not a directory", path: path,
        hint: "check the path; a file cannot hold another file")
    }
    // The permissions of the file being replaced, so the new file has the same; none for a new file.
    var targetStatus = stat()
    let exists = stat(target, &targetStatus) == 0
    let permissions = exists ? UInt16(targetStatus.st_mode & 0o7777) : nil
    if let permissions, !isWritable(target, permissions: permissions) {
      throw PropertyListError(
        .io, "cannot write: the file is read-only", path: path,
        hint: "make it writable (chmod u+w) or write the result elsewhere")
    }
    if !isWritable(directoryPath, permissions: UInt16(directoryStatus.st_mode & 0o7777)) {
      throw PropertyListError(
        .io, "cannot write: the directory \(directoryPath) is read-only", path: path,
        hint: "make the directory writable (chmod u+w); the file is replaced by a new one beside it")
    }
    let original = exists ? FileManager.default.contents(atPath: target) : nil
    let name = PathText.lastComponent(target)
    let temporary = directoryPath + "/.\(name).\(UUID().uuidString).tmp"
    // O_EXCL: never follow or reuse something already at the temporary name.
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o666)
    guard descriptor >= 0 else {
      throw PropertyListError(.io, "cannot write: \(String(cString: strerror(errno)))", path: path)
    }
    var failure: String?
    if let permissions, fchmod(descriptor, mode_t(permissions)) != 0 {
      failure = "cannot set permissions: \(String(cString: strerror(errno)))"
    }
    if failure == nil { failure = writeAll(data, to: descriptor, using: operations) }
    if failure == nil, fsync(descriptor) != 0 {
      failure = "cannot write: \(String(cString: strerror(errno)))"
    }
    if close(descriptor) != 0, failure == nil {
      failure = "cannot write: \(String(cString: strerror(errno)))"
    }
    if let failure {
      unlink(temporary)
      throw PropertyListError(.io, failure, path: path)
    }
    return Staged(path: path, target: target, temporary: temporary, original: original)
  }

  /// Whether the process may write `path` and its permission bits allow somebody to.
  private static func isWritable(_ path: String, permissions: UInt16) -> Bool {
    access(path, W_OK) == 0 && permissions & 0o222 != 0
  }

  /// Puts a replaced file's old content back (best effort: the original error is what gets reported).
  private static func restore(_ file: Staged) {
    guard let original = file.original else {
      unlink(file.target)
      return
    }
    try? write([(original, file.target)], using: .system)
  }

  /// Writes all of `data`, retrying short writes; returns the failure reason, if any.
  static func writeAll(_ data: Data, to descriptor: Int32, using operations: Operations = .system) -> String?
  {
    data.withUnsafeBytes { buffer -> String? in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let written = operations.write(descriptor, base + offset, buffer.count - offset)
        if written < 0 {
          if errno == EINTR { continue }
          return "cannot write: \(String(cString: strerror(errno)))"
        }
        offset += written
      }
      return nil
    }
  }

  /// The path a chain of symbolic links ends at (the path itself when it is not a link).
  static func resolvingSymbolicLinks(_ path: String) throws(PropertyListError) -> String {
    var current = path
    for _ in 0..<32 {
      guard let destination = try? FileManager.default.destinationOfSymbolicLink(atPath: current) else {
        return current
      }
      if destination.hasPrefix("/") {
        current = destination
      } else {
        current = PathText.appending(destination, to: PathText.deletingLastComponent(current))
      }
    }
    throw PropertyListError(.io, "too many levels of symbolic links", path: path)
  }
}

/// NSString's path helpers for "/"-separated paths, which FoundationEssentials does not have.
enum PathText {
  /// The path without its last component: `/a/b` → `/a`, `b` → ``, `/b` → `/`; trailing slashes are not
  /// a component.
  static func deletingLastComponent(_ path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    let head = withoutTrailingSlashes(trimmed[..<slash])
    return head.isEmpty ? "/" : String(head)
  }

  /// The last component: `/a/b/` → `b`, `b` → `b`, `/` → `/`.
  static func lastComponent(_ path: String) -> String {
    let trimmed = withoutTrailingSlashes(path)
    guard trimmed != "/", let slash = trimmed.lastIndex(of: "/") else { return String(trimmed) }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// `component` inside `directory`: `a` + `b` → `a/b`, `` + `b` → `b`, `/` + `b` → `/b`.
  static func appending(_ component: String, to directory: String) -> String {
    if directory.isEmpty { return component }
    return directory.hasSuffix("/") ? directory + component : directory + "/" + component
  }

  /// The path without trailing slashes, except a lone `/` (the root).
  private static func withoutTrailingSlashes(_ path: some StringProtocol) -> Substring {
    var trimmed = Substring(path)
    while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed.removeLast() }
    return trimmed
  }
}

/// POSIX `write(2)`, reachable by this name inside ``AtomicFileWriter`` whose own `write` would shadow it.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}

/// POSIX `rename(2)`, reachable by this name inside ``AtomicFileWriter``.
private func systemRename(_ from: String, _ to: String) -> Int32 {
  rename(from, to)
}
