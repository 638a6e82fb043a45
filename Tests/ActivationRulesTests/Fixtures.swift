import Foundation

/// Paths to shared fixtures, computed from this file's location so tests run from any directory.
enum Fixtures {
  /// The package root (…/Tests/ActivationRulesTests/Fixtures.swift → …).
  static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
  static let corpus = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules")
  /// Rules gathered after the exact analysis was built (`real-rules-holdout`).
  static let holdout = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules-holdout")
  /// The second hold-out set, which the exact analysis is never tuned against (`real-rules-holdout2`).
  static let holdout2 = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules-holdout2")
  /// The third hold-out set: real rules with the rare constructs (NOT, UTI-EQUALS, a count of 0), never tuned
  /// against (`real-rules-holdout3`).
  static let holdout3 = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules-holdout3")
  static let goldens = packageRoot.appendingPathComponent("Tests/ActivationRulesTests/Goldens")

  /// Every corpus file name (`01.predicate`, `02.plist`, …), sorted.
  static let corpusFiles = ruleFiles(in: corpus)

  /// Every rule file name in `folder` (`01.predicate`, `02.plist`, …), sorted; empty if it cannot be read.
  static func ruleFiles(in folder: URL) -> [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
    return names.filter { $0.hasSuffix(".predicate") || $0.hasSuffix(".plist") }.sorted()
  }

  static let dictionaryFiles = corpusFiles.filter { $0.hasSuffix(".plist") }
  static let predicateFiles = corpusFiles.filter { $0.hasSuffix(".predicate") }

  /// The Intune guide's example rule `letter` (A, B or C; 2020, as `docs/spec/intune-guide-requirements.md` §1.4
  /// quotes it) from `Tests/Fixtures/intune-guide`, without its final line break; empty if it cannot be read,
  /// which fails every test that uses it.
  static func guideRule(_ letter: String) -> String {
    let url = packageRoot.appendingPathComponent("Tests/Fixtures/intune-guide")
      .appendingPathComponent("intune-guide-\(letter).predicate")
    var text = (try? String(contentsOf: url, encoding: .utf8)) ?? ""
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }

  static func data(_ name: String) throws -> Data {
    try Data(contentsOf: corpus.appendingPathComponent(name))
  }
}
