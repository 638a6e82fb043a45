import CLITestSupport
import Foundation
import Testing

@Suite("rulekit configure (end to end)")
struct ConfigureEndToEndTests {
  static let fixtures = RuleKitBinary.packageRoot.appendingPathComponent(
    "Tests/Fixtures/configurator/inputs")

  /// A scratch folder holding copies of the app fixtures.
  struct Scratch {
    let folder: URL
    var info: String { folder.appendingPathComponent("Info.plist").path }
    var entitlements: String { folder.appendingPathComponent("App.entitlements").path }

    init() throws {
      folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-configure-\(UUID())")
      try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent("App-Info.plist"), to: folder.appendingPathComponent("Info.plist")
      )
      try FileManager.default.copyItem(
        at: fixtures.appendingPathComponent("App.entitlements"),
        to: folder.appendingPathComponent("App.entitlements"))
    }

    func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }
  }

  @Test func dryRunWritesNothingAndShowsTheDiff() throws {
    let scratch = try Scratch()
    let before = try scratch.bytes(scratch.info)
    let result = try UtiCLI.run([
      "configure", "-i", scratch.info, "-e", scratch.entitlements, "--dry-run", "--diff",
    ])
    #expect(result.status == 0)
    #expect(result.stdout.contains("+\t\t\t\t<string>contoso-notes-intunemam</string>"))
    #expect(result.stderr.hasSuffix("dry run: nothing written\n"))
    #expect(try scratch.bytes(scratch.info) == before)
  }

  @Test func editsInPlaceAndASecondRunChangesNothing() throws {
    let scratch = try Scratch()
    let first = try UtiCLI.run([
      "configure", "-i", scratch.info, "-e", scratch.entitlements, "--fix-entitlements",
    ])
    #expect(first.status == 0)
    #expect(first.stderr.contains("wrote \(scratch.info)"))
    #expect(first.stderr.contains("wrote \(scratch.entitlements)"))
    let configured = try scratch.bytes(scratch.info)
    let golden = try Data(
      contentsOf: RuleKitBinary.packageRoot.appendingPathComponent(
        "Tests/Fixtures/configurator/golden/App-Info.configured.plist"))
    #expect(configured == golden)
    let second = try UtiCLI.run([
      "configure", "-i", scratch.info, "-e", scratch.entitlements, "--fix-entitlements",
    ])
    #expect(second.status == 0)
    #expect(second.stderr.contains("already configured for Intune; nothing to change"))
    #expect(try scratch.bytes(scratch.info) == configured)
  }

  @Test func outputFlagLeavesTheInputAlone() throws {
    let scratch = try Scratch()
    let before = try scratch.bytes(scratch.info)
    let out = scratch.folder.appendingPathComponent("Out.plist").path
    let result = try UtiCLI.run(["configure", "-i", scratch.info, "-e", scratch.entitlements, "-o", out])
    #expect(result.status == 0)
    #expect(try scratch.bytes(scratch.info) == before)
    #expect(try String(contentsOfFile: out, encoding: .utf8).contains("ms-outlook-intunemam"))
  }

  @Test func jsonReport() throws {
    let scratch = try Scratch()
    let result = try UtiCLI.run(
      ["configure", "-i", scratch.info, "-e", scratch.entitlements, "--dry-run", "--format", "json"])
    #expect(result.status == 0)
    let object = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(object["schemaVersion"] as? Int == 1)
    let changes = try #require(object["changes"] as? [[String: Any]])
    #expect(
      changes.map { $0["kind"] as? String } == [
        "url-scheme-twin", "queried-scheme", "document-type-twin", "app-group-identifiers",
        "face-id-usage-description",
      ])
    #expect((object["written"] as? [Any])?.isEmpty == true)
  }

  @Test("--format json: a configure error is a diagnostics record with file, line, column and hint fields")
  func jsonErrorsAreStructured() throws {
    let scratch = try Scratch()
    try Data("<plist><dict>\n<key>A</key>\n</dict></plist>\n".utf8).write(
      to: URL(fileURLWithPath: scratch.info))
    let result = try UtiCLI.run(
      ["configure", "-i", scratch.info, "-e", scratch.entitlements, "--dry-run", "--format", "json"])
    #expect(result.status == 65)
    #expect(result.stdout.isEmpty)
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stderr.utf8)) as? [String: Any])
    let records = try #require(document["diagnostics"] as? [[String: Any]])
    let record = try #require(records.first)
    #expect(records.count == 1)
    #expect(record["severity"] as? String == "error")
    #expect(record["file"] as? String == scratch.info)
    #expect(record["line"] as? Int == 2)
    #expect(record["column"] as? Int != nil)
    #expect(record["hint"] is String)
    // The message is the message alone: no path, no source line, no caret, no hint.
    let message = try #require(record["message"] as? String)
    #expect(!message.contains("\n") && !message.contains(scratch.info) && !message.contains("error:"))

    try FileManager.default.removeItem(atPath: scratch.info)
    let missing = try UtiCLI.run(
      ["configure", "-i", scratch.info, "-e", scratch.entitlements, "--dry-run", "--format", "json"])
    #expect(missing.status == 66)
    let missingRecord = try #require(
      (try JSONSerialization.jsonObject(with: Data(missing.stderr.utf8)) as? [String: Any])?["diagnostics"]
        as? [[String: Any]])
    #expect(missingRecord.first?["file"] as? String == scratch.info)
    #expect((missingRecord.first?["message"] as? String)?.hasPrefix("no such file (the Info.plist)") == true)
  }

  @Test("an activation rule that does not parse: positioned in text, file/line/column fields in JSON")
  func activationRuleSyntaxErrorIsPositioned() throws {
    let scratch = try Scratch()
    let share = try String(
      contentsOf: Self.fixtures.appendingPathComponent("Share-Info.plist"), encoding: .utf8)
    let broken = share.replacingOccurrences(
      of: #"(<key>NSExtensionActivationRule</key>\s*<string>)[^<]*(</string>)"#,
      with: "$1extensionItems.@count == $2", options: .regularExpression)
    #expect(broken != share)
    try Data(broken.utf8).write(to: URL(fileURLWithPath: scratch.info))
    let arguments = [
      "configure", "-i", scratch.info, "-e", scratch.entitlements, "--dry-run", "--containing-app", "com.x",
    ]
    let json = try UtiCLI.run(arguments + ["--format", "json"])
    #expect(json.status == 65)
    let records = try #require(
      (try JSONSerialization.jsonObject(with: Data(json.stderr.utf8)) as? [String: Any])?["diagnostics"]
        as? [[String: Any]])
    let record = try #require(records.first)
    #expect(record["file"] as? String == scratch.info)
    #expect(record["message"] as? String == "expected an expression, found end of input")
    let line = try #require(record["line"] as? Int)
    let column = try #require(record["column"] as? Int)
    let text = try UtiCLI.run(arguments)
    #expect(text.status == 65)
    #expect(
      text.stderr == "\(scratch.info):\(line):\(column): error: expected an expression, found end of input\n")
  }

  @Test(
    "bad invocations: one line, the right exit code, nothing written",
    arguments: [
      (
        ["-i", "/nonexistent/Info.plist", "-e", "E"], Int32(66),
        "rulekit: error: /nonexistent/Info.plist: no such file (the Info.plist)"
      ),
      (
        ["-i", "INFO", "-e", ""], 66,
        "rulekit: error: -e is empty: pass the path of the target's entitlements file (in Xcode: CODE_SIGN_ENTITLEMENTS)"
      ),
      (["-i", "INFO"], 2, "Error: Missing expected argument '-e <entitlements>'"),
    ])
  func badInvocations(_ arguments: [String], _ status: Int32, _ message: String) throws {
    let scratch = try Scratch()
    let before = try scratch.bytes(scratch.info)
    let resolved = arguments.map { $0 == "INFO" ? scratch.info : $0 == "E" ? scratch.entitlements : $0 }
    let result = try UtiCLI.run(["configure"] + resolved)
    #expect(result.status == status)
    #expect(result.stderr.hasPrefix(message))
    #expect(try scratch.bytes(scratch.info) == before)
  }

  @Test func malformedInputIsRefusedWithItsPosition() throws {
    let scratch = try Scratch()
    let broken =
      "<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>A</key>\n</dict>\n</plist>\n"
    try Data(broken.utf8).write(to: URL(fileURLWithPath: scratch.info))
    let result = try UtiCLI.run(["configure", "-i", scratch.info, "-e", scratch.entitlements])
    #expect(result.status == 65)
    // The location starts the line, where Xcode and editors look for it.
    #expect(result.stderr.hasPrefix("\(scratch.info):4:2: error: "))
    #expect(try String(contentsOfFile: scratch.info, encoding: .utf8) == broken)
  }

  @Test func unwritableDestinationFailsAndKeepsTheOriginal() throws {
    let scratch = try Scratch()
    let before = try scratch.bytes(scratch.info)
    let result = try UtiCLI.run(
      ["configure", "-i", scratch.info, "-e", scratch.entitlements, "-o", "/nonexistent-dir/Info.plist"])
    #expect(result.status == 74)
    #expect(result.stderr.hasPrefix("rulekit: "))
    #expect(try scratch.bytes(scratch.info) == before)
  }

  @Test func binaryPlistStaysBinary() throws {
    let scratch = try Scratch()
    let value = try PropertyListSerialization.propertyList(from: try scratch.bytes(scratch.info), format: nil)
    let binary = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    try binary.write(to: URL(fileURLWithPath: scratch.info))
    let result = try UtiCLI.run(["configure", "-i", scratch.info, "-e", scratch.entitlements])
    #expect(result.status == 0)
    let written = try scratch.bytes(scratch.info)
    #expect(written.starts(with: Data("bplist00".utf8)))
    let configured = try #require(
      try PropertyListSerialization.propertyList(from: written, format: nil) as? [String: Any])
    #expect((configured["LSApplicationQueriesSchemes"] as? [String])?.contains("intunemam-mtd") == true)
  }

  /// A share extension in `Share/`, the app fixture moved to `App/` beside it, its CFBundleIdentifier set to
  /// `identifier`.
  func extensionBesideApp(appBundleID identifier: String) throws -> (scratch: Scratch, share: String) {
    let scratch = try Scratch()
    let share = scratch.folder.appendingPathComponent("Share")
    let app = scratch.folder.appendingPathComponent("App")
    try FileManager.default.createDirectory(at: share, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    let text = try String(contentsOfFile: scratch.info, encoding: .utf8).replacingOccurrences(
      of: "<string>$(PRODUCT_BUNDLE_IDENTIFIER)</string>", with: "<string>\(identifier)</string>")
    try Data(text.utf8).write(to: app.appendingPathComponent("Info.plist"))
    try FileManager.default.removeItem(atPath: scratch.info)
    try FileManager.default.copyItem(
      at: Self.fixtures.appendingPathComponent("Share-Info.plist"),
      to: share.appendingPathComponent("Info.plist"))
    return (scratch, share.appendingPathComponent("Info.plist").path)
  }

  @Test func binaryPlistDiffIsReadable() throws {
    let scratch = try Scratch()
    let value = try PropertyListSerialization.propertyList(from: try scratch.bytes(scratch.info), format: nil)
    let binary = try PropertyListSerialization.data(fromPropertyList: value, format: .binary, options: 0)
    try binary.write(to: URL(fileURLWithPath: scratch.info))
    let result = try UtiCLI.run([
      "configure", "-i", scratch.info, "-e", scratch.entitlements, "--dry-run", "--diff",
    ])
    #expect(result.status == 0)
    #expect(
      result.stdout.hasPrefix(
        "--- a/\(scratch.info)\t(binary property list, shown as XML; written back as binary)\n"))
    #expect(result.stdout.contains("\n+\t\t\t\t<string>contoso-notes-intunemam</string>\n"))
    #expect(!result.stdout.contains("bplist00"))
    #expect(try scratch.bytes(scratch.info) == binary)
  }

  @Test func extensionFindsItsContainingAppBesideIt() throws {
    let (scratch, share) = try extensionBesideApp(appBundleID: "com.contoso.notes")
    let result = try UtiCLI.run(
      ["configure", "-i", share, "-e", scratch.entitlements, "--dry-run"])
    #expect(result.status == 0)
    #expect(
      result.stderr.contains(
        "containing-app-bundle-id  IntuneMAMSettings › ContainingAppBundleId: set to com.contoso.notes"))
  }

  /// Xcode's default `$(PRODUCT_BUNDLE_IDENTIFIER)` is expanded in each target's own build: copied into the
  /// extension it would name the extension. The run stops at the app's key and asks for --containing-app.
  @Test func anUnexpandedAppBundleIDIsNotCopiedIntoTheExtension() throws {
    let (scratch, share) = try extensionBesideApp(appBundleID: "$(PRODUCT_BUNDLE_IDENTIFIER)")
    let before = try scratch.bytes(share)
    let result = try UtiCLI.run(["configure", "-i", share, "-e", scratch.entitlements])
    #expect(result.status == 1)
    let app = scratch.folder.appendingPathComponent("App/Info.plist").path
    let message: String =
      "\(app):5:2: error: the containing app's CFBundleIdentifier is \"$(PRODUCT_BUNDLE_IDENTIFIER)\"; "
      + "Xcode expands $(PRODUCT_BUNDLE_IDENTIFIER) in each target's own build, so copied into the "
      + "extension's ContainingAppBundleId it would name the extension, not the app "
      + "[containing-app-build-setting]\n"
    let fix: String =
      "  fix: pass --containing-app with the app's bundle ID (the value of $(PRODUCT_BUNDLE_IDENTIFIER) in "
      + "the app target)\n"
    #expect(result.stderr.contains(message + fix), "\(result.stderr)")
    #expect(!result.stderr.contains("ContainingAppBundleId: set to"))
    #expect(try scratch.bytes(share) == before)
    let fixed = try UtiCLI.run(
      ["configure", "-i", share, "-e", scratch.entitlements, "--containing-app", "com.contoso.notes"])
    #expect(fixed.status == 0)
    #expect(try String(contentsOfFile: share, encoding: .utf8).contains("<string>com.contoso.notes</string>"))
  }
}
