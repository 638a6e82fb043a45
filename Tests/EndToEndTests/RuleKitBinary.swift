import CLITestSupport
import Foundation

/// The folders the end-to-end tests read; running `rulekit` is CLITestSupport's ``RuleKitBinary``.
extension RuleKitBinary {
  static let testDirectory = packageRoot.appendingPathComponent("Tests/EndToEndTests")
  static let fixtures = packageRoot.appendingPathComponent("Tests/PredicateSyntaxTests/Fixtures")
  static let golden = packageRoot.appendingPathComponent("Tests/PredicateSyntaxTests/Golden")
  static let corpus = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules")
}
