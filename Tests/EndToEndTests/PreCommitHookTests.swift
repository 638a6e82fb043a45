import CLITestSupport
import Foundation
import Testing

/// `.pre-commit-hooks.yaml` as pre-commit runs it: each hook's `files` pattern picks the files, and its
/// `entry` (with the built `rulekit` in place of the one on PATH) runs on them. A good rule file passes, a
/// bad one fails, an app's Info.plist (no rule) is skipped.
@Suite("pre-commit hooks")
struct PreCommitHookTests {
  struct Hook: Sendable {
    var id: String
    var entry: [String]
    var files: String
  }

  /// The hooks, read line by line: the file is a flat list of `- id:` blocks with scalar values.
  static func hooks() throws -> [Hook] {
    let text = try String(
      contentsOf: RuleKitBinary.packageRoot.appendingPathComponent(".pre-commit-hooks.yaml"), encoding: .utf8)
    var hooks: [Hook] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
      let trimmed = line.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "- id:", with: "id:")
      guard let colon = trimmed.firstIndex(of: ":") else { continue }
      let key = String(trimmed[..<colon])
      var value = trimmed[trimmed.index(after: colon)...].trimmingCharacters(in: .whitespaces)
      if value.hasPrefix("'") && value.hasSuffix("'") { value = String(value.dropFirst().dropLast()) }
      switch key {
      case "id": hooks.append(Hook(id: value, entry: [], files: ""))
      case "entry": hooks[hooks.count - 1].entry = value.split(separator: " ").map(String.init)
      case "files": hooks[hooks.count - 1].files = value
      default: break
      }
    }
    return hooks
  }

  static let candidates = [
    "Examples/SampleApp/App/Info.plist", "Examples/SampleApp/ShareExtension/Info.plist",
    "Examples/SampleApp/ActionExtension/Info.plist", "Examples/rules/immich-share-extension.predicate",
    "Examples/rules-with-errors/intune-guide-2018-open-in-rule.predicate", "README.md",
    "Examples/SampleApp/expectations.json",
  ]

  /// What `hook` would run on `paths`: the files its pattern selects, and the outcome.
  static func run(_ hook: Hook, on paths: [String]) throws -> (
    selected: [String], outcome: RuleKitBinary.Outcome
  ) {
    let pattern = try NSRegularExpression(pattern: hook.files)
    // pre-commit matches `files` with Python's re.search: anywhere in the path.
    let selected = paths.filter {
      pattern.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
    }
    #expect(hook.entry.first == "rulekit", "\(hook.id) runs \(hook.entry)")
    return (selected, try RuleKitBinary.run(Array(hook.entry.dropFirst()) + selected))
  }

  @Test("both hooks exist and pick Info.plist and .predicate files only")
  func selection() throws {
    let hooks = try Self.hooks()
    #expect(hooks.map(\.id) == ["rulekit-lint", "rulekit-lint-system"])
    for hook in hooks {
      let pattern = try NSRegularExpression(pattern: hook.files)
      let selected = Self.candidates.filter {
        pattern.firstMatch(in: $0, range: NSRange($0.startIndex..., in: $0)) != nil
      }
      #expect(selected == Array(Self.candidates.prefix(5)))
    }
  }

  @Test("good rules and an app's Info.plist pass")
  func accepts() throws {
    for hook in try Self.hooks() {
      let good = Array(Self.candidates.prefix(4)) + ["README.md"]
      let (selected, outcome) = try Self.run(hook, on: good)
      #expect(selected.count == 4)
      #expect(outcome.status == 0, "\(hook.id): \(outcome.standardOutput)\(outcome.standardError)")
    }
  }

  @Test("a bad rule file fails the commit, with a compiler-style finding")
  func rejects() throws {
    for hook in try Self.hooks() {
      let (_, outcome) = try Self.run(hook, on: Array(Self.candidates.prefix(5)))
      #expect(outcome.status != 0)
      let printed = outcome.standardOutput + outcome.standardError
      #expect(printed.contains("intune-guide-2018-open-in-rule.predicate:7:104: error:"), "\(printed)")
    }
  }
}
