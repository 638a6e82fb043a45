import Foundation

/// Runs the `rulekit` executable that `swift build` / `swift test` put under `.build`.
struct RuleKitBinary {
  struct Outcome {
    var status: Int32
    var standardOutput: String
    var standardError: String
  }

  struct NotBuilt: Error, CustomStringConvertible {
    var description: String { "rulekit is not built: run `swift build` (swift test builds it too)" }
  }

  static let testDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  static let packageRoot = testDirectory.deletingLastPathComponent().deletingLastPathComponent()
  static let fixtures = packageRoot.appendingPathComponent("Tests/PredicateSyntaxTests/Fixtures")
  static let golden = packageRoot.appendingPathComponent("Tests/PredicateSyntaxTests/Golden")
  static let corpus = packageRoot.deletingLastPathComponent().appendingPathComponent(
    "shared/corpus/real-rules")

  /// `.build/debug/rulekit`, or the first `.build/<triple>/debug/rulekit`.
  static func locate() throws -> URL {
    let build = packageRoot.appendingPathComponent(".build")
    var candidates = [build.appendingPathComponent("debug/rulekit")]
    let triples = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
    candidates += triples.sorted().map { build.appendingPathComponent("\($0)/debug/rulekit") }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else {
      throw NotBuilt()
    }
    return found
  }

  /// Runs `rulekit` with `arguments`, in `currentDirectory` when given (relative paths then print as given).
  /// `environment` entries are added to this process's environment. `executable` runs another copy of the
  /// binary (under another name).
  static func run(
    _ arguments: [String], standardInput: String? = nil, currentDirectory: URL? = nil,
    environment: [String: String] = [:], executable: URL? = nil
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = try executable ?? locate()
    process.arguments = arguments
    if let currentDirectory { process.currentDirectoryURL = currentDirectory }
    if !environment.isEmpty {
      process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    }
    let output = Pipe()
    let error = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardError = error
    process.standardInput = input
    try process.run()
    if let standardInput { input.fileHandleForWriting.write(Data(standardInput.utf8)) }
    try input.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    let errorData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return Outcome(
      status: process.terminationStatus, standardOutput: String(decoding: outputData, as: UTF8.self),
      standardError: String(decoding: errorData, as: UTF8.self))
  }
}
