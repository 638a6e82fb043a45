/// Lexical path arithmetic on `/`-separated strings, as build settings do it: no file system access, so a
/// path into a checkout that lacks the file (a gitignored xcconfig) resolves all the same.
enum XcodePath {
  /// Whether `path` starts at the root.
  static func isAbsolute(_ path: String) -> Bool { path.hasPrefix("/") }

  /// `base/relative`, or `relative` alone when it is absolute or `base` is empty.
  static func join(_ base: String, _ relative: String) -> String {
    if relative.isEmpty { return base }
    if base.isEmpty || isAbsolute(relative) { return relative }
    return base.hasSuffix("/") ? base + relative : base + "/" + relative
  }

  /// Everything before the last component, without a trailing slash: `a/b` for `a/b/c`, `/` for `/a`, the
  /// empty string for `c`.
  static func dirname(_ path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return "" }
    if slash == trimmed.startIndex { return "/" }
    return trimmingTrailingSlashes(String(trimmed[..<slash]))
  }

  /// The last component: `c.txt` for `a/b/c.txt` (trailing slashes ignored).
  static func basename(_ path: String) -> String {
    let trimmed = trimmingTrailingSlashes(path)
    guard let slash = trimmed.lastIndex(of: "/") else { return trimmed }
    return String(trimmed[trimmed.index(after: slash)...])
  }

  /// The extension of the last component without its dot: `gz` for `a.tar.gz`, empty when there is none.
  static func fileExtension(_ path: String) -> String {
    let name = basename(path)
    guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "" }
    return String(name[name.index(after: dot)...])
  }

  /// The path without the extension of its last component: `a/b.tar` for `a/b.tar.gz`.
  static func removingExtension(_ path: String) -> String {
    let suffix = fileExtension(path)
    guard !suffix.isEmpty else { return path }
    let trimmed = trimmingTrailingSlashes(path)
    return String(trimmed.dropLast(suffix.count + 1))
  }

  /// `/` and `.` components removed, `..` resolved against what precedes it; a relative path keeps leading
  /// `..` components (nothing to resolve them against).
  static func normalize(_ path: String) -> String {
    let absolute = isAbsolute(path)
    var components: [Substring] = []
    for component in path.split(separator: "/", omittingEmptySubsequences: true) {
      switch component {
      case ".": continue
      case "..":
        if let last = components.last, last != ".." {
          components.removeLast()
        } else if !absolute {
          components.append(component)
        }
      default: components.append(component)
      }
    }
    let joined = components.joined(separator: "/")
    if absolute { return "/" + joined }
    return joined.isEmpty ? "." : joined
  }

  /// `path` without its `.` components (`a/./b/./c` is `a/b/c`); `..` and repeated slashes are kept, so
  /// the file named is the same one however symbolic links lie.
  static func droppingCurrentDirectoryComponents(_ path: String) -> String {
    guard path.contains("./") || path.hasSuffix("/.") else { return path }
    let joined = path.split(separator: "/", omittingEmptySubsequences: false).filter { $0 != "." }
      .joined(separator: "/")
    return joined.isEmpty ? "." : joined
  }

  private static func trimmingTrailingSlashes(_ path: String) -> String {
    var result = Substring(path)
    while result.count > 1, result.hasSuffix("/") { result = result.dropLast() }
    return String(result)
  }
}
