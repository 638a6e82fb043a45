import CLITestSupport
import Foundation
import Testing

/// No input is read past the backstop above every input limit (32 MiB): standard input that never ends is
/// refused as soon as it passes it, instead of being read until memory runs out.
@Suite("Input bound (end to end)")
struct InputBoundTests {
  @Test(
    "endless standard input is refused at the limit",
    arguments: [
      ["eval", "--predicate", "TRUEPREDICATE", "--input", "-"],
      ["parse"],
      ["lint", "-"],
    ])
  func endlessStandardInput(_ arguments: [String]) throws {
    let process = Process()
    process.executableURL = try RuleKitBinary.locate()
    process.arguments = arguments
    let zeros = try #require(FileHandle(forReadingAtPath: "/dev/zero"))
    process.standardInput = zeros
    let errors = Pipe()
    process.standardError = errors
    process.standardOutput = FileHandle.nullDevice
    try process.run()
    let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    try zeros.close()
    #expect(process.terminationStatus == 65)
    #expect(
      message.hasPrefix(
        "rulekit: error: <stdin>: the input goes on past the limit of 33554432 bytes (32 MiB, the most rulekit reads of "
          + "any input)\nhint: check that this is the file you meant"), "\(message)")
  }
}
