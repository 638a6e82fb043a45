import Foundation

/// Paths to shared fixtures, computed from this file's location so tests run from any directory.
enum Fixtures {
  /// The package root (…/Tests/ActivationRulesTests/Fixtures.swift → …).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let corpus = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules")
  static let goldens = packageRoot.appendingPathComponent("Tests/ActivationRulesTests/Goldens")

  /// Every corpus file name (`01.predicate`, `02.plist`, …), sorted.
  static let corpusFiles: [String] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? []
    return names.filter { $0.hasSuffix(".predicate") || $0.hasSuffix(".plist") }.sorted()
  }()

  static let dictionaryFiles = corpusFiles.filter { $0.hasSuffix(".plist") }
  static let predicateFiles = corpusFiles.filter { $0.hasSuffix(".predicate") }

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: corpus.appendingPathComponent(name))
  }
}
