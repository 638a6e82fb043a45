import Foundation

/// Paths of fixture files, found from this source file so tests run from any working directory.
enum Fixtures {
  /// …/Tests/PredicateSyntaxTests
  static let testDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  /// The package root.
  static let packageRoot = testDirectory.deletingLastPathComponent().deletingLastPathComponent()
  /// The real-rule corpus, `Tests/Fixtures/real-rules` (its README gives each rule's source).
  static let corpusDirectory = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules")
  /// The Intune guide's rules, `Tests/Fixtures/intune-guide` (shared with the end-to-end tests of `rulekit format`).
  static let guideDirectory = packageRoot.appendingPathComponent("Tests/Fixtures/intune-guide")
  /// The printer's output for each rule, `Tests/Fixtures/printed-rules`: what `rulekit format` prints too.
  static let printedDirectory = packageRoot.appendingPathComponent("Tests/Fixtures/printed-rules")

  /// The 15 real-world `.predicate` rules, by file name.
  static let corpusRuleNames: [String] = [
    "01", "03", "05", "07", "09", "13", "16", "18", "21", "29", "32", "33", "34", "38", "39",
  ].map { "\($0).predicate" }

  /// The Intune guide's clean (2020) rules A, B and C.
  static let guideRuleNames = ["intune-guide-A", "intune-guide-B", "intune-guide-C"]

  static func corpusRule(_ name: String) throws -> String {
    try String(contentsOf: corpusDirectory.appendingPathComponent(name), encoding: .utf8)
  }

  static func localRule(_ name: String) throws -> String {
    try String(
      contentsOf: guideDirectory.appendingPathComponent("\(name).predicate"), encoding: .utf8)
  }

  /// Every rule that must parse: the corpus and the guide's clean rules, keyed by a display name.
  static func allRules() throws -> [(name: String, text: String)] {
    try corpusRuleNames.map { ($0, try corpusRule($0)) } + guideRuleNames.map { ($0, try localRule($0)) }
  }

  static var allRuleNames: [String] { corpusRuleNames + guideRuleNames }

  static func rule(named name: String) throws -> String {
    name.hasSuffix(".predicate") ? try corpusRule(name) : try localRule(name)
  }
}
