import CLITestSupport
import Foundation
import Testing

/// `rulekit configure` writes every file it changes or none: a failure on any of them leaves all of them
/// byte-identical and leaves no temporary file behind.
@Suite("rulekit configure: no data loss (end to end)")
struct ConfigureNoDataLossTests {
  typealias Scratch = ConfigureEndToEndTests.Scratch

  /// The folder's entries, to check that no temporary file was left.
  private func entries(_ folder: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted()
  }

  private func chmod(_ path: String, _ mode: Int) throws {
    try FileManager.default.setAttributes([.posixPermissions: mode], ofItemAtPath: path)
  }

  @Test func malformedEntitlementsWriteNothing() throws {
    let scratch = try Scratch()
    let info = try scratch.bytes(scratch.info)
    let broken = Data("<?xml version=\"1.0\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>a</key>\n".utf8)
    try broken.write(to: URL(fileURLWithPath: scratch.entitlements))
    let result = try UtiCLI.run(["configure", "-i", scratch.info, "-e", scratch.entitlements])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("\(scratch.entitlements):5:1: error: "))
    #expect(try scratch.bytes(scratch.info) == info)
    #expect(try scratch.bytes(scratch.entitlements) == broken)
    #expect(try entries(scratch.folder) == ["App.entitlements", "Info.plist"])
  }

  @Test func whenTheSecondFileCannotBeWrittenTheFirstIsNotWrittenEither() throws {
    let scratch = try Scratch()
    let info = try scratch.bytes(scratch.info)
    let entitlements = try scratch.bytes(scratch.entitlements)
    // --fix-entitlements changes both files; the entitlements file is read-only.
    try chmod(scratch.entitlements, 0o444)
    let result = try UtiCLI.run([
      "configure", "-i", scratch.info, "-e", scratch.entitlements, "--fix-entitlements",
    ])
    #expect(result.status == 74)
    #expect(
      result.stderr.hasSuffix(
        "rulekit: error: \(scratch.entitlements): cannot write: the file is read-only\n"
          + "hint: make it writable (chmod u+w) or write the result elsewhere\n"))
    #expect(!result.stderr.contains("wrote "))
    #expect(try scratch.bytes(scratch.info) == info)
    #expect(try scratch.bytes(scratch.entitlements) == entitlements)
    #expect(try entries(scratch.folder) == ["App.entitlements", "Info.plist"])
  }

  @Test func anUnwritableOutputWritesNeitherFile() throws {
    let scratch = try Scratch()
    let info = try scratch.bytes(scratch.info)
    let entitlements = try scratch.bytes(scratch.entitlements)
    let locked = scratch.folder.appendingPathComponent("locked")
    try FileManager.default.createDirectory(at: locked, withIntermediateDirectories: true)
    try chmod(locked.path, 0o555)
    defer { try? chmod(locked.path, 0o755) }
    let output = locked.appendingPathComponent("Info.plist").path
    let result = try UtiCLI.run([
      "configure", "-i", scratch.info, "-e", scratch.entitlements, "--fix-entitlements", "-o", output,
    ])
    #expect(result.status == 74)
    #expect(result.stderr.hasPrefix("rulekit: error: "))
    #expect(result.stderr.contains(": cannot write: the directory \(locked.path) is read-only"))
    #expect(try scratch.bytes(scratch.info) == info)
    #expect(try scratch.bytes(scratch.entitlements) == entitlements)
    #expect(try entries(locked) == [])
  }

  @Test func aReadOnlyInfoPlistIsRefusedAndKept() throws {
    let scratch = try Scratch()
    let info = try scratch.bytes(scratch.info)
    try chmod(scratch.info, 0o444)
    let result = try UtiCLI.run(["configure", "-i", scratch.info, "-e", scratch.entitlements])
    #expect(result.status == 74)
    #expect(result.stderr.contains("rulekit: error: \(scratch.info): cannot write: the file is read-only"))
    #expect(try scratch.bytes(scratch.info) == info)
    #expect(try entries(scratch.folder) == ["App.entitlements", "Info.plist"])
  }

  @Test func aReadOnlyDirectoryIsRefusedAndKept() throws {
    let scratch = try Scratch()
    let info = try scratch.bytes(scratch.info)
    try chmod(scratch.folder.path, 0o555)
    defer { try? chmod(scratch.folder.path, 0o755) }
    let result = try UtiCLI.run(["configure", "-i", scratch.info, "-e", scratch.entitlements])
    #expect(result.status == 74)
    #expect(result.stderr.contains("is read-only"))
    #expect(try scratch.bytes(scratch.info) == info)
    #expect(try entries(scratch.folder) == ["App.entitlements", "Info.plist"])
  }

  @Test func aSymlinkedInfoPlistIsWrittenThroughAndStaysALink() throws {
    let scratch = try Scratch()
    let real = scratch.folder.appendingPathComponent("Real-Info.plist").path
    try FileManager.default.moveItem(atPath: scratch.info, toPath: real)
    try FileManager.default.createSymbolicLink(atPath: scratch.info, withDestinationPath: "Real-Info.plist")
    let result = try UtiCLI.run(["configure", "-i", scratch.info, "-e", scratch.entitlements])
    #expect(result.status == 0)
    #expect(try FileManager.default.destinationOfSymbolicLink(atPath: scratch.info) == "Real-Info.plist")
    #expect(try String(contentsOfFile: real, encoding: .utf8).contains("ms-outlook-intunemam"))
    #expect(try entries(scratch.folder) == ["App.entitlements", "Info.plist", "Real-Info.plist"])
  }
}
