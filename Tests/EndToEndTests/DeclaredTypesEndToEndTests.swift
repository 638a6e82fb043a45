import CLITestSupport
import Foundation
import Testing

/// `rulekit test` evaluates each rule with the types its Info.plist declares, as iOS does.
@Suite("rulekit test: types the extension's Info.plist declares")
struct DeclaredTypesEndToEndTests {
  /// A share extension that exports its own note type, declared to conform to public.plain-text; shared with
  /// the library's tests (Tests/RuleKitTestingTests/RuleLoadingTests.swift).
  static let info = RuleKitBinary.packageRoot.appendingPathComponent(
    "Tests/Fixtures/declared-types/Info.plist")

  static func expectations(_ type: String, activates: Bool) -> String {
    #"{"rules": {"notes": "Info.plist"}, "contexts": {"shared": {"extensionItems": [{"attachments": "#
      + #"[{"registeredTypeIdentifiers": [""# + type + #""]}]}]}}, "expectations": "#
      + #"[{"rule": "notes", "context": "shared", "activates": \#(activates)}]}"#
  }

  @Test(arguments: [("com.example.note", true), ("com.example.other", false)])
  func declaredTypeConformsToItsDeclaration(_ type: String, _ activates: Bool) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-declared-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    try FileManager.default.copyItem(at: Self.info, to: folder.appendingPathComponent("Info.plist"))
    let file = folder.appendingPathComponent("expectations.json")
    try Data(Self.expectations(type, activates: activates).utf8).write(to: file)
    let outcome = try RuleKitBinary.run(["test", file.path])
    #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
    #expect(outcome.standardOutput == "1 expectations, all met\n")
  }

  @Test func evalAndExplainSeeTheDeclarationsToo() throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-declared-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let info = folder.appendingPathComponent("Info.plist").path
    try FileManager.default.copyItem(at: Self.info, to: URL(fileURLWithPath: info))
    let eval = try RuleKitBinary.run(["eval", "--rule", info, "--attachment", "com.example.note"])
    #expect(eval.standardOutput == "true\n")
    let explain = try RuleKitBinary.run(["explain", "--rule", info, "--attachment", "com.example.note"])
    #expect(explain.standardOutput.contains("result: activates"), "\(explain.standardOutput)")
    // A rule that names the declared type beside public.text accepts nothing more than the Info.plist's.
    let wider = folder.appendingPathComponent("wider.predicate").path
    try Data(
      (#"SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers "#
        + #"UTI-CONFORMS-TO "public.text" || ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "#
        + #""com.example.note").@count == 1).@count == 1"#).utf8
    ).write(to: URL(fileURLWithPath: wider))
    let diff = try RuleKitBinary.run(["diff", info, wider, "--check"])
    #expect(diff.status == 0, "\(diff.standardOutput)")
  }
}
