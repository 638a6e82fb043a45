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
    let fileManager = FileManager.default
    var isDirectory: ObjCBool = false
    let exists = fileManager.fileExists(atPath: target, isDirectory: &isDirectory)
    if exists, isDirectory.boolValue {
      throw PropertyListError(.io, "cannot write: it is a directory", path: path)
    }
    let permissions =
      exists ? (try? fileManager.attributesOfItem(atPath: target))?[.posixPermissions] as? NSNumber : nil
    let directory = (target as NSString).deletingLastPathComponent
    let name = (target as NSString).lastPathComponent
    let temporary = (directory.isEmpty ? "." : directory) + "/.\(name).\(UUID().uuidString).tmp"
    do {
      try data.write(to: URL(fileURLWithPath: temporary), options: .withoutOverwriting)
    } catch {
      try? fileManager.removeItem(atPath: temporary)
      throw PropertyListError(.io, "cannot write: \(reason(error))", path: path)
    }
    do {
      if let permissions {
        try fileManager.setAttributes([.posixPermissions: permissions], ofItemAtPath: temporary)
      }
      guard rename(temporary, target) == 0 else {
        throw PropertyListError(
          .io, "cannot replace the file: \(String(cString: strerror(errno)))", path: path)
      }
    } catch {
      try? fileManager.removeItem(atPath: temporary)
      if let error = error as? PropertyListError { throw error }
      throw PropertyListError(.io, "cannot write: \(reason(error))", path: path)
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
