import CLITestSupport
import Foundation
import Testing

/// `rulekit audit` on synthetic `.ipa` files built from `Examples/SampleApp`: as shipped (not configured
/// for Intune) and after `rulekit configure` (``ConfiguredSampleApp``). Info.plists are packed as binary
/// property lists and entitlements as the code signature of a stand-in executable, as Xcode ships them.
@Suite("rulekit audit")
struct AuditEndToEndTests {
  static let bundles = [
    ("App", "Payload/Sample.app"), ("ShareExtension", "Payload/Sample.app/PlugIns/Share.appex"),
    ("ActionExtension", "Payload/Sample.app/PlugIns/Action.appex"),
    ("OpenInExtension", "Payload/Sample.app/PlugIns/OpenIn.appex"),
  ]

  /// The sample app in `folder`, as an `.ipa` in `directory`.
  static func ipa(from files: SampleAppFiles, in directory: URL, name: String) throws -> URL {
    // As codesign signs them: Xcode has replaced $(AppIdentifierPrefix) with the team's prefix.
    let entitlements = try files.plist("App/App.entitlements").mapValues { value -> Any in
      guard let groups = value as? [String] else { return value }
      return groups.map { $0.replacingOccurrences(of: "$(AppIdentifierPrefix)", with: "ABCDE12345.") }
    }
    var entries: [TestZipWriter.Entry] = []
    for (target, path) in bundles {
      var info = try files.plist("\(target)/Info.plist")
      let executable = String(path.split(separator: "/").last?.split(separator: ".").first ?? "Sample")
      info["CFBundleExecutable"] = executable
      entries.append(.init("\(path)/Info.plist", SyntheticApp.binaryPlist(info)))
      entries.append(.init("\(path)/\(executable)", SyntheticApp.executable(entitlements: entitlements)))
    }
    let url = directory.appendingPathComponent(name)
    try Data(TestZipWriter(entries).bytes()).write(to: url)
    return url
  }

  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-audit-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  @Test("an app whose share extension lacks twins: exit 1, naming the extension, the types and the fix")
  func unconfigured() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let ipa = try Self.ipa(from: ConfiguredSampleApp.get().before, in: directory, name: "Sample.ipa")
    let outcome = try RuleKitBinary.run(["audit", ipa.path])
    #expect(outcome.status == 1, "\(outcome.standardError)")
    let text = outcome.standardOutput
    #expect(text.contains("Payload/Sample.app/PlugIns/Share.appex: share extension"), "\(text)")
    #expect(text.contains("missing Intune twins: com.microsoft.intune.mam.public.url"), "\(text)")
    #expect(text.contains("fix: run `rulekit configure`"), "\(text)")
    #expect(text.contains("[activation-rule]"), "\(text)")
  }

  @Test("the same app after rulekit configure: exit 0")
  func configured() throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let ipa = try Self.ipa(from: ConfiguredSampleApp.get().after, in: directory, name: "Sample.ipa")
    let outcome = try RuleKitBinary.run(["audit", ipa.path])
    #expect(outcome.status == 0, "\(outcome.standardOutput)\(outcome.standardError)")
    #expect(outcome.standardOutput.contains("no problems found in 4 bundles"), "\(outcome.standardOutput)")
    // The entitlements came from the stand-in executable's code signature, keychain groups included.
    #expect(outcome.standardOutput.contains("entitlements: code-signature"))
    #expect(outcome.standardOutput.contains("keychain groups: ABCDE12345.com.example.notes"))
  }

  /// Every layout of the report on the sample app as shipped and configured is golden
  /// (`Golden/audit/`); `RULEKIT_UPDATE_GOLDEN=1` rewrites them.
  @Test("text, JSON and xcode output are golden", arguments: ["text", "json", "xcode"])
  func golden(_ format: String) throws {
    let directory = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let app = try ConfiguredSampleApp.get()
    var output = ""
    for (name, files) in [("Shipped.ipa", app.before), ("Configured.ipa", app.after)] {
      _ = try Self.ipa(from: files, in: directory, name: name)
      let outcome = try RuleKitBinary.run(["audit", "--format", format, name], currentDirectory: directory)
      output +=
        "$ rulekit audit --format \(format) \(name) (exit \(outcome.status))\n\(outcome.standardOutput)\n"
    }
    let url = RuleKitBinary.packageRoot.appendingPathComponent(
      "Tests/EndToEndTests/Golden/audit/\(format).txt")
    if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(output.utf8).write(to: url)
    }
    #expect(
      output == (try String(contentsOf: url, encoding: .utf8)), "differs from Golden/audit/\(format).txt")
  }
}

/// Hostile archives given to `rulekit audit`: a clear error, exit 65, and nothing written — not beside the
/// archive, not in the working directory, not in the temporary directory.
@Suite("rulekit audit: hostile archives")
struct AuditHostileArchiveTests {
  static let info = SyntheticApp.binaryPlist(["CFBundleIdentifier": "com.example.evil"])

  static let archives: [(name: String, words: String, entries: [TestZipWriter.Entry])] = [
    ("zip bomb", "zip bomb", [.init("Payload/Evil.app/Info.plist", [UInt8](repeating: 0, count: 30 << 20))]),
    (
      "parent-folder traversal", "path traversal",
      [.init("Payload/Evil.app/Info.plist", info), .init("Payload/../../../tmp/evil", text: "owned")]
    ),
    ("absolute path", "absolute path", [.init("/tmp/rulekit-evil", text: "owned")]),
    (
      "symbolic link", "symbolic link",
      [.init("Payload/Evil.app/Info.plist", Array("/etc/passwd".utf8), unixMode: 0o120777)]
    ),
  ]

  @Test("refused with a clear error and nothing written", arguments: 0..<archives.count)
  func refused(_ index: Int) throws {
    let archive = Self.archives[index]
    let directory = try AuditEndToEndTests.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let temporary = directory.appendingPathComponent("tmp")
    try FileManager.default.createDirectory(at: temporary, withIntermediateDirectories: true)
    let ipa = directory.appendingPathComponent("Evil.ipa")
    try Data(TestZipWriter(archive.entries).bytes()).write(to: ipa)
    let before = try Self.listing(directory)
    let outcome = try RuleKitBinary.run(
      ["audit", ipa.path], currentDirectory: directory, environment: ["TMPDIR": temporary.path])
    #expect(outcome.status == 65, "\(archive.name): \(outcome.standardError)")
    #expect(outcome.standardError.contains(archive.words), "\(outcome.standardError)")
    #expect(outcome.standardError.contains("Evil.ipa"), "\(outcome.standardError)")
    #expect(outcome.standardOutput.isEmpty)
    #expect(try Self.listing(directory) == before)
    #expect(!FileManager.default.fileExists(atPath: "/tmp/rulekit-evil"))
  }

  @Test("a truncated central directory is refused as damaged")
  func truncated() throws {
    let directory = try AuditEndToEndTests.scratch()
    defer { try? FileManager.default.removeItem(at: directory) }
    let bytes = TestZipWriter([.init("Payload/A.app/Info.plist", Self.info), .init("b", text: "x")]).bytes()
    let end = bytes.count - 22
    let ipa = directory.appendingPathComponent("Cut.ipa")
    try Data(Array(bytes[..<(end - 10)]) + Array(bytes[end...])).write(to: ipa)
    let outcome = try RuleKitBinary.run(["audit", ipa.path])
    #expect(outcome.status == 65)
    #expect(outcome.standardError.contains("damaged"), "\(outcome.standardError)")
  }

  /// Every path under `folder` with its size.
  static func listing(_ folder: URL) throws -> [String] {
    let paths = FileManager.default.enumerator(atPath: folder.path)?.allObjects as? [String] ?? []
    return try paths.sorted().map { path in
      let size = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent(path).path)[
        .size]
      return "\(path) \(size ?? "-")"
    }
  }
}
