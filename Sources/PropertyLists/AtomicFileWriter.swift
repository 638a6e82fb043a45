import Foundation

/// Writes a file so that readers see either the old or the new content, never a part.
///
/// The data goes to a temporary file in the target's directory, takes the target's permissions, and is
/// renamed over the target. A symbolic link is followed, so its target is replaced and the link stays.
/// When anything fails nothing is replaced and the temporary file is removed.
public enum AtomicFileWriter {
  /// Writes `data` to `path` atomically.
  ///
  /// - Throws: ``PropertyListError/Kind/io`` naming the file and the reason.
  public static func write(_ data: Data, to path: String) throws(PropertyListError) {
    let target = try resolvingSymbolicLinks(path)
    // The permissions of the file being replaced, so the new file has the same; none for a new file.
    let permissions =
      ((try? FileManager.default.attributesOfItem(atPath: target))?[.posixPermissions] as? NSNumber)?
      .uint16Value
    let directory = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).\(UUID().uuidString).tmp"
    // O_EXCL: never follow or reuse something already at the temporary name.
    let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o666)
    guard descriptor >= 0 else {
      throw PropertyListError(.io, "cannot write: \(String(cString: strerror(errno)))", path: path)
    }
    var failure: String?
    if let permissions, fchmod(descriptor, mode_t(permissions)) != 0 {
      failure = "cannot set permissions: \(String(cString: strerror(errno)))"
    }
    if failure == nil { failure = writeAll(data, to: descriptor) }
    if failure == nil, fsync(descriptor) != 0 {
      failure = "cannot write: \(String(cString: strerror(errno)))"
    }
    if close(descriptor) != 0, failure == nil {
      failure = "cannot write: \(String(cString: strerror(errno)))"
    }
    if failure == nil, rename(temporary, target) != 0 {
      failure = "cannot replace the file: \(String(cString: strerror(errno)))"
    }
    if let failure {
      unlink(temporary)
      throw PropertyListError(.io, failure, path: path)
    }
  }

  /// Writes all of `data`, retrying short writes; returns the failure reason, if any.
  static func writeAll(_ data: Data, to descriptor: Int32) -> String? {
    data.withUnsafeBytes { buffer -> String? in
      guard let base = buffer.baseAddress else { return nil }
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(descriptor, base + offset, buffer.count - offset)
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
        current = ((current as NSString).deletingLastPathComponent as NSString).appendingPathComponent(
          destination)
      }
    }
    throw PropertyListError(.io, "too many levels of symbolic links", path: path)
  }

  /// A short reason for a Foundation file error: the POSIX message when there is one.
  static func reason(_ error: Error) -> String {
    let nsError = error as NSError
    if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError,
      underlying.domain == NSPOSIXErrorDomain
    {
      return String(cString: strerror(Int32(underlying.code)))
    }
    if nsError.domain == NSPOSIXErrorDomain { return String(cString: strerror(Int32(nsError.code))) }
    switch CocoaError.Code(rawValue: nsError.code) {
    case .fileNoSuchFile, .fileReadNoSuchFile: return "No such file or directory"
    case .fileWriteNoPermission, .fileReadNoPermission: return "Permission denied"
    case .fileWriteOutOfSpace: return "No space left on device"
    case .fileWriteVolumeReadOnly: return "Read-only file system"
    default: return nsError.localizedDescription
    }
  }
}

/// POSIX `write(2)`, reachable by this name inside ``AtomicFileWriter`` whose own `write` would shadow it.
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int {
  write(descriptor, buffer, count)
}
