import CLITestSupport
import Foundation

/// The folders the end-to-end tests read; running `rulekit` is CLITestSupport's ``RuleKitBinary``.
extension RuleKitBinary {
  static let testDirectory = packageRoot.appendingPathComponent("Tests/EndToEndTests")
  static let fixtures = packageRoot.appendingPathComponent("Tests/Fixtures/intune-guide")
  static let golden = packageRoot.appendingPathComponent("Tests/Fixtures/printed-rules")
  static let corpus = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules")
}
