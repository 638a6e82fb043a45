#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Finds a file as a case-insensitive volume finds it. Xcode runs on macOS, whose APFS volumes are
/// case-insensitive unless formatted otherwise, so a build setting naming `shareExtension/Info.plist` builds
/// with `ShareExtension/Info.plist` there (Anx Reader's share extension); on Linux, or on a case-sensitive
/// volume, the lexical path names nothing.
enum CaseInsensitivePath {
  /// `path` itself when it exists; else the one existing path whose components equal `path`'s but for
  /// letter case; `nil` when there is none, or more than one (a case-sensitive folder holding both
  /// `a` and `A`: no single file is the one Xcode would find).
  static func existing(_ path: String) -> String? {
    let files = FileManager.default
    if files.fileExists(atPath: path) { return path }
    let absolute = XcodePath.isAbsolute(path)
    var found = absolute ? "/" : ""
    for component in path.split(separator: "/", omittingEmptySubsequences: true).map(String.init) {
      let candidate = XcodePath.join(found, component)
      if files.fileExists(atPath: candidate) {
        found = candidate
        continue
      }
      let folder = found.isEmpty ? "." : found
      guard let entries = try? files.contentsOfDirectory(atPath: folder) else { return nil }
      let wanted = component.lowercased()
      let matches = entries.filter { $0.lowercased() == wanted }
      guard matches.count == 1, let match = matches.first else { return nil }
      found = XcodePath.join(found, match)
    }
    return found
  }
}
