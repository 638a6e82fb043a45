import CLITestSupport
import Foundation
import Testing

/// The `rulekit` binary uses FoundationEssentials only: all of Foundation would bring CoreFoundation and
/// ICU's data (34 MB) with it, which is where most of its start-up time and memory used to go
/// (scripts/bench-configure). A Foundation API reached for in any module the CLI links fails this test.
@Suite("Linkage")
struct LinkageTests {
  #if os(Linux)
    @Test("rulekit loads no Foundation beyond FoundationEssentials, and no ICU")
    func noFullFoundation() throws {
      let binary = try RuleKitBinary.locate()
      let ldd = Process()
      ldd.executableURL = URL(fileURLWithPath: "/usr/bin/ldd")
      ldd.arguments = [binary.path]
      let output = Pipe()
      ldd.standardOutput = output
      try ldd.run()
      let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
      ldd.waitUntilExit()
      #expect(ldd.terminationStatus == 0, "ldd failed: \(text)")
      let libraries = text.split(separator: "\n").compactMap {
        $0.split(separator: " ").first.map(String.init)
      }
      // A build with the Swift runtime linked in (--static-swift-stdlib) lists none of Foundation's libraries.
      let forbidden = [
        "libFoundation.so", "libFoundationInternationalization", "lib_FoundationICU", "libCoreFoundation",
      ]
      let found = libraries.filter { library in forbidden.contains { library.hasPrefix($0) } }
      #expect(
        found.isEmpty, "rulekit links \(found); use FoundationEssentials APIs only (see RuleKitFoundation)")
    }
  #endif
}
