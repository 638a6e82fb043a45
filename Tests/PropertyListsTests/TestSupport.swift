import Foundation
import PropertyLists
import RuleKitFoundation
import TestSupport
import Testing

/// Paths of fixtures, golden files and the shared corpus, found from this file's location.
enum TestPaths {
  static let testsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let fixtures = testsDirectory.appendingPathComponent("Fixtures")
  static let golden = testsDirectory.appendingPathComponent("Golden")
  /// The real-rule corpus, `Tests/Fixtures/real-rules`.
  static let corpus = testsDirectory.deletingLastPathComponent().appendingPathComponent("Fixtures/real-rules")

  static func plistNames(in directory: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { $0.hasSuffix(".plist") }.sorted()
  }

  static var corpusPlists: [String] { plistNames(in: corpus) }

  /// The package's `Examples/` folder.
  static let examples =
    testsDirectory.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Examples")

  /// Every property list under `Examples/` (Info.plist and entitlements files), relative to it.
  static var examplePlists: [String] {
    guard let walker = FileManager.default.enumerator(atPath: examples.path) else { return [] }
    return walker.compactMap { $0 as? String }
      .filter { !$0.contains(".build") && ($0.hasSuffix(".plist") || $0.hasSuffix(".entitlements")) }
      .sorted()
  }
  static var fixturePlists: [String] { plistNames(in: fixtures) }

  /// The shared real Info.plists, `Tests/Fixtures/info-plists`.
  static let infoPlists = testsDirectory.deletingLastPathComponent().appendingPathComponent(
    "Fixtures/info-plists")

  /// A fixture of this target's folder, or of the shared `info-plists/` when `name` starts with it.
  static func fixture(_ name: String) throws -> PropertyListDocument {
    let url =
      name.hasPrefix("info-plists/")
      ? infoPlists.appendingPathComponent(String(name.dropFirst("info-plists/".count)))
      : fixtures.appendingPathComponent(name)
    return try PropertyListDocument(data: try Data(contentsOf: url), path: name)
  }
}

/// Compares `actual` with the golden file `name`; `RULEKIT_UPDATE_GOLDEN=1` rewrites the golden file.
func expectGolden(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation)
  throws
{
  let url = TestPaths.golden.appendingPathComponent(name)
  if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
    try Data(actual.utf8).write(to: url)
    return
  }
  let expected = try String(decoding: Data(contentsOf: url), as: UTF8.self)
  #expect(actual == expected, "differs from Golden/\(name)", sourceLocation: sourceLocation)
}

/// The value Foundation's `PropertyListSerialization` reads from `data`, keys sorted.
func foundationValue(of data: Data) throws -> PropertyListValue {
  let object = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
  return try PropertyListValue(foundationObject: object)
}

/// A temporary directory removed when the test ends.
final class TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-plist-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String { url.appendingPathComponent(name).path }

  deinit {
    try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
    try? FileManager.default.removeItem(at: url)
  }
}
