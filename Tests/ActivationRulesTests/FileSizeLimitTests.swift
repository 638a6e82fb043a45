import ActivationRules
import Foundation
import PredicateEvaluation
import Testing

/// `ActivationRule.load` and `ExtensionContext.load` refuse an oversized file by its size, before reading it.
@Suite struct FileSizeLimitTests {
  /// A fresh directory, removed when the test ends.
  private final class Directory {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-size-\(UUID().uuidString)")
    init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
    deinit { try? FileManager.default.removeItem(at: url) }

    /// A sparse file of `size` bytes starting with `head`: stat reports the size, nothing else is stored.
    func sparseFile(_ name: String, head: String, size: UInt64) throws -> URL {
      let file = url.appendingPathComponent(name)
      try Data(head.utf8).write(to: file)
      let handle = try FileHandle(forWritingTo: file)
      try handle.truncate(atOffset: size)
      try handle.close()
      return file
    }
  }

  @Test func aGigabyteRuleFileIsRefusedByItsSize() throws {
    let directory = try Directory()
    let file = try directory.sparseFile("1GB.predicate", head: "a == 1 OR ", size: 1 << 30)
    let error = try #require(throws: ActivationRuleError.self) { try ActivationRule.load(file) }
    // The exact size comes from stat: a reader that read first would have needed the whole gigabyte.
    #expect(
      error
        == .fileTooLarge(
          path: file.path,
          message: "the rule file is 1073741824 bytes, more than the limit of 16777216 bytes (16 MiB, "
            + "ActivationRule.maximumFileBytes); check that this is the rule you meant: a predicate file (at "
            + "most 1 MiB), a rule plist or an extension's Info.plist, each a few kilobytes at most"))
    #expect(error.description.hasPrefix("\(file.path): the rule file is 1073741824 bytes"))
  }

  @Test func aGigabyteContextIsRefusedByItsSize() throws {
    let directory = try Directory()
    let file = try directory.sparseFile("1GB.json", head: #"{"extensionItems":["#, size: 1 << 30)
    let error = try #require(throws: ActivationRuleError.self) { try ExtensionContext.load(file) }
    #expect(
      error
        == .fileTooLarge(
          path: file.path,
          message:
            "the extension context is 1073741824 bytes, more than the limit of 16777216 bytes (16 MiB, "
            + #"PredicateValue.JSONLimits.maximumBytes); check that this is the context you meant: "#
            + #"{"extensionItems":[{"attachments":[…]}]}, a few hundred bytes"#))
  }

  @Test func filesAtTheLimitsAreStillRead() throws {
    #expect(ActivationRule.maximumFileBytes == 16 << 20)
    let directory = try Directory()
    // A context padded with spaces to exactly the JSON limit.
    let context = #"{"extensionItems":[]}"#
    let file = directory.url.appendingPathComponent("padded.json")
    try Data(
      (context + String(repeating: " ", count: PredicateValue.JSONLimits.maximumBytes - context.utf8.count))
        .utf8
    ).write(to: file)
    #expect(try ExtensionContext.load(file) == ExtensionContext(extensionItems: []))
  }

  @Test func missingFilesAndDirectoriesKeepTheirErrors() throws {
    let directory = try Directory()
    let missing = directory.url.appendingPathComponent("missing.predicate")
    #expect(throws: ActivationRuleError.missingFile(missing.path)) { try ActivationRule.load(missing) }
    #expect(throws: ActivationRuleError.missingFile(missing.path)) { try ExtensionContext.load(missing) }
    #expect(
      throws: ActivationRuleError.inputOutput(
        path: directory.url.path, message: "cannot read: it is a directory; pass the file inside it")
    ) { try ActivationRule.load(directory.url) }
  }
}
