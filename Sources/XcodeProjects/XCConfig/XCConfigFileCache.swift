import Locking

/// The xcconfig files a project's build settings were resolved from, each read once per project.
///
/// Resolving a target's settings reads its configurations' base xcconfig files and their `#include`s; a
/// project lint or configure resolves every target in every configuration (and per SDK), so brave's
/// `Base.xcconfig` was read and parsed 121 times in one `lint --project`. Files are taken as they were
/// first read, as the project's own `project.pbxproj` is (RuleKit never writes an xcconfig file).
/// Copies of an ``XcodeProject`` share the cache; it is safe to use from several threads.
final class XCConfigFileCache: Sendable {
  private struct Key: Hashable {
    var path: String
    var searchPaths: [String]
  }

  private let files = Locked<[Key: Result<XCConfigFile, XcodeProjectError>]>([:])

  /// ``XCConfigFile/read(path:missingIncludes:searchPaths:)`` with missing `#include`s recorded, or what
  /// it threw, from the first read of `path` with these search paths.
  func read(_ path: String, searchPaths: [String]) throws(XcodeProjectError) -> XCConfigFile {
    let key = Key(path: path, searchPaths: searchPaths)
    if let known = files.withLock({ $0[key] }) { return try known.get() }
    // Read outside the lock: two threads may read one file at once, and keep the same result.
    let result: Result<XCConfigFile, XcodeProjectError>
    do {
      result = .success(try XCConfigFile.read(path: path, missingIncludes: .record, searchPaths: searchPaths))
    } catch {
      result = .failure(error)
    }
    files.withLock { $0[key] = result }
    return try result.get()
  }
}
