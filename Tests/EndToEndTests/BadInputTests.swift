import CLITestSupport
import Foundation
import Testing

/// One case of the bad-input corpus in `BadInput/cases`: `NAME.golden` holds the command line, the exit
/// status and the exact standard error; the files `NAME.*` beside it are its inputs.
///
/// Golden format:
///
/// ```
/// $ rulekit parse --rule unclosed-quote.predicate
/// generate: huge-plist huge.plist          (optional: inputs made at run time, never committed)
/// exit: 65
/// stderr:
/// unclosed-quote.predicate:1:9: error: …
/// ```
///
/// When the command exits 1 (`lint` found problems) its findings are its output: a `stdout:` section
/// before `stderr:` holds them.
///
/// Each case runs in a fresh temporary directory holding copies of its inputs and of `BadInput/support`,
/// so paths in messages are the relative ones of the command line; the temporary directory's own path,
/// where a message shows it, is replaced with `$TMP`. `RULEKIT_UPDATE_GOLDEN=1` rewrites the `exit:` and
/// `stderr:` parts (review the diff: each message must say what, where and how to fix).
struct BadInputCase: CustomTestStringConvertible, Sendable {
  static let directory = RuleKitBinary.testDirectory.appendingPathComponent("BadInput")
  static let cases = directory.appendingPathComponent("cases")
  static let support = directory.appendingPathComponent("support")

  var name: String
  var arguments: [String]
  var generators: [(kind: String, path: String)]
  var exitStatus: Int32?
  var standardOutput: String?
  var standardError: String
  /// Why the golden could not be read; the case then fails rather than silently not running.
  var loadFailure: String?

  var testDescription: String { name }

  /// Every case in `directory` (by default `BadInput/cases`), by name. A golden that cannot be read, or a
  /// directory that cannot be listed, is a case carrying its ``loadFailure``, so it fails instead of vanishing.
  static func all(in directory: URL = cases) -> [BadInputCase] {
    let names: [String]
    do {
      names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
    } catch {
      return [BadInputCase(name: "(the corpus)", loadFailure: "cannot list \(directory.path): \(error)")]
    }
    return names.filter { $0.hasSuffix(".golden") }.sorted().map { file in
      let name = String(file.dropLast(".golden".count))
      do {
        return try BadInputCase(name: name, directory: directory)
      } catch {
        return BadInputCase(name: name, loadFailure: "cannot read \(file): \(error)")
      }
    }
  }

  /// A case that could not be loaded.
  private init(name: String, loadFailure: String) {
    self.name = name
    arguments = []
    generators = []
    standardError = ""
    self.loadFailure = loadFailure
  }

  init(name: String, directory: URL = cases) throws {
    self.name = name
    let text = try String(contentsOf: directory.appendingPathComponent("\(name).golden"), encoding: .utf8)
    var lines = text.components(separatedBy: "\n")
    arguments = []
    generators = []
    exitStatus = nil
    standardError = ""
    var output: [String]?
    while !lines.isEmpty {
      let line = lines.removeFirst()
      if line.hasPrefix("$ rulekit ") {
        arguments = Self.split(String(line.dropFirst("$ rulekit ".count)))
      } else if line.hasPrefix("generate: ") {
        let parts = line.dropFirst("generate: ".count).split(separator: " ").map(String.init)
        if parts.count == 2 { generators.append((parts[0], parts[1])) }
      } else if line.hasPrefix("exit: ") {
        exitStatus = Int32(line.dropFirst("exit: ".count))
      } else if line == "stdout:" {
        output = []
      } else if line == "stderr:" {
        standardError = lines.joined(separator: "\n")
        break
      } else if output != nil {
        output?.append(line)
      }
    }
    standardOutput = output.map { $0.isEmpty ? "" : $0.joined(separator: "\n") + "\n" }
  }

  /// The golden text for an outcome.
  func golden(status: Int32, standardOutput: String, standardError: String) -> String {
    var text = "$ rulekit " + arguments.map(Self.quote).joined(separator: " ") + "\n"
    for generator in generators { text += "generate: \(generator.kind) \(generator.path)\n" }
    text += "exit: \(status)\n"
    if status == 1 { text += "stdout:\n" + standardOutput }
    return text + "stderr:\n" + standardError
  }

  /// Splits a command line on spaces; single quotes group words and are removed.
  static func split(_ line: String) -> [String] {
    var words: [String] = []
    var current = ""
    var quoted = false
    var started = false
    for character in line {
      if character == "'" {
        quoted.toggle()
        started = true
      } else if character == " " && !quoted {
        if started { words.append(current) }
        current = ""
        started = false
      } else {
        current.append(character)
        started = true
      }
    }
    if started { words.append(current) }
    return words
  }

  static func quote(_ word: String) -> String {
    word.isEmpty || word.contains(" ") || word.contains("\"") || word.contains("$") ? "'\(word)'" : word
  }

  /// Copies the case's inputs and the support files into `directory` and makes the generated inputs.
  func prepare(in directory: URL) throws {
    let manager = FileManager.default
    for name in try manager.contentsOfDirectory(atPath: Self.support.path) {
      try manager.copyItem(
        at: Self.support.appendingPathComponent(name), to: directory.appendingPathComponent(name))
    }
    for file in try manager.contentsOfDirectory(atPath: Self.cases.path)
    where file.hasPrefix(name + ".") && !file.hasSuffix(".golden") {
      try manager.copyItem(
        at: Self.cases.appendingPathComponent(file), to: directory.appendingPathComponent(file))
    }
    for (kind, path) in generators {
      try Self.generate(kind, at: directory.appendingPathComponent(path))
    }
  }

  /// Inputs too big (or too odd) to commit.
  static func generate(_ kind: String, at url: URL) throws {
    switch kind {
    case "huge-plist":
      // 100 MB: an XML header, then zeros. Sparse on disk; the size limit refuses it before reading.
      try Data("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n".utf8)
        .write(to: url)
      let handle = try FileHandle(forWritingTo: url)
      try handle.truncate(atOffset: 100_000_000)
      try handle.close()
    case "sparse-gigabyte":
      // 1 GiB of zeros, sparse on disk: only a reader that refuses by size before reading stays fast.
      try Data().write(to: url)
      let handle = try FileHandle(forWritingTo: url)
      try handle.truncate(atOffset: 1 << 30)
      try handle.close()
    case "large-predicate":
      // One byte over the 1 MiB limit: 104 857 lines `a == 1 OR` (10 bytes each), then `a == 1` and a newline.
      let text = String(repeating: "a == 1 OR\n", count: 104_857) + "a == 1\n"
      try Data(text.utf8).write(to: url)
    case "large-json":
      // One byte over the 16 MiB limit: a JSON array padded with spaces.
      var bytes = Array("[1]".utf8)
      bytes += [UInt8](repeating: UInt8(ascii: " "), count: (16 << 20) + 1 - bytes.count)
      try Data(bytes).write(to: url)
    case "directory":
      try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    case "fifo":
      guard mkfifo(url.path, 0o644) == 0 else { throw GenerateError(kind: kind) }
    default:
      throw GenerateError(kind: kind)
    }
  }

  struct GenerateError: Error, CustomStringConvertible {
    var kind: String
    var description: String { "unknown generator '\(kind)'" }
  }
}

@Suite("Bad input: every malformed file ends in a clear error, never a crash or a hang")
struct BadInputTests {
  @Test("the corpus has at least 60 cases, of every kind the brief lists")
  func corpusSize() {
    let cases = BadInputCase.all()
    #expect(cases.count >= 60)
    #expect(cases.filter { $0.name.hasPrefix("predicate-") }.count >= 20)
    #expect(cases.filter { $0.name.hasPrefix("plist-") }.count >= 20)
    #expect(cases.filter { $0.name.hasPrefix("json-") }.count >= 10)
    #expect(cases.filter { $0.name.hasPrefix("entitlements-") }.count >= 8)
  }

  /// Under `swift test --sanitize=address --scratch-path .build-asan` that is the instrumented `rulekit`, so
  /// the corpus runs under AddressSanitizer, not `.build/debug/rulekit`.
  @Test("the cases run the rulekit built beside these tests")
  func runsTheBinaryBuiltWithTheTests() throws {
    let products = try #require(RuleKitBinary.productsDirectory, "the test bundle's folder is unknown")
    let binary = try RuleKitBinary.locate()
    #expect(binary.deletingLastPathComponent().path == products.path, "ran \(binary.path)")
  }

  @Test("exit status and standard error match the golden", arguments: BadInputCase.all())
  func badInput(_ badCase: BadInputCase) throws {
    if let failure = badCase.loadFailure {
      Issue.record("\(badCase.name): \(failure)")
      return
    }
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-bad-input-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try badCase.prepare(in: directory)

    let outcome = try Self.run(badCase.arguments, in: directory)
    // A signal (a crash: 134, 139) or the watchdog's kill is never an acceptable outcome.
    #expect(outcome.reason == .exit, "\(badCase.name): rulekit was killed by signal \(outcome.status)")
    #expect(![134, 139].contains(outcome.status), "\(badCase.name): rulekit crashed")
    let standardError = Self.placeholder(outcome.standardError, for: directory)
    let standardOutput = Self.placeholder(outcome.standardOutput, for: directory)
    let golden = BadInputCase.cases.appendingPathComponent("\(badCase.name).golden")
    if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
      try badCase.golden(status: outcome.status, standardOutput: standardOutput, standardError: standardError)
        .write(to: golden, atomically: true, encoding: .utf8)
      return
    }
    #expect(outcome.status == badCase.exitStatus, "\(badCase.name): exit status")
    #expect(standardError == badCase.standardError, "\(badCase.name): standard error")
    if let expected = badCase.standardOutput {
      #expect(standardOutput == expected, "\(badCase.name): standard output")
    }
    // Bad input is never accepted silently: an error exit, findings (exit 1), or at least a warning.
    #expect(outcome.status != 0 || standardError.contains("warning: "), "\(badCase.name): accepted silently")
    #expect(!standardError.isEmpty || outcome.status == 1, "\(badCase.name): no message at all")
  }

  @Test("a golden that cannot be read is a failing case, not a missing one")
  func unreadableGoldenFails() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-bad-goldens-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data("$ rulekit parse --rule a.predicate\nexit: 65\nstderr:\n".utf8)
      .write(to: directory.appendingPathComponent("readable.golden"))
    // Not UTF-8, so it cannot be read as a golden.
    try Data([0x24, 0x20, 0xFF, 0xFE, 0x0A]).write(to: directory.appendingPathComponent("unreadable.golden"))
    let cases = BadInputCase.all(in: directory)
    #expect(cases.map(\.name) == ["readable", "unreadable"])
    #expect(cases.first?.loadFailure == nil)
    #expect(cases.last?.loadFailure?.hasPrefix("cannot read unreadable.golden: ") == true)

    let missing = BadInputCase.all(in: directory.appendingPathComponent("missing"))
    #expect(missing.count == 1)
    #expect(missing.first?.loadFailure?.hasPrefix("cannot list ") == true)
  }

  /// `text` with the temporary directory's path, as given and with links resolved, replaced by `$TMP`.
  static func placeholder(_ text: String, for directory: URL) -> String {
    text.replacingOccurrences(of: directory.path, with: "$TMP")
      .replacingOccurrences(of: directory.resolvingSymlinksInPath().path, with: "$TMP")
  }

  /// Runs `rulekit` in `directory`; ``RuleKitBinary/run`` kills it after 120 s so a hang fails the case
  /// instead of the whole run (the duration itself is never asserted).
  static func run(_ arguments: [String], in directory: URL) throws -> RuleKitBinary.Outcome {
    try RuleKitBinary.run(arguments, currentDirectory: directory)
  }
}
