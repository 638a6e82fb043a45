import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The `rulekit` executable built with the running tests, and one way to run it. Every test that runs the
/// CLI goes through here, so a sanitizer build (`swift test --sanitize=address --scratch-path .build-asan`)
/// runs its own instrumented `rulekit`, not whichever one `.build` happens to hold.
public enum RuleKitBinary {
  /// How one run ended.
  public struct Outcome: Sendable {
    public var status: Int32
    /// `.exit`, or `.uncaughtSignal` when `rulekit` crashed or the watchdog killed it.
    public var reason: Process.TerminationReason
    public var standardOutput: String
    public var standardError: String
  }

  struct NotBuilt: Error, CustomStringConvertible {
    var description: String {
      "rulekit is not built beside the tests (\(productsDirectory?.path ?? "products directory unknown")) "
        + "nor under .build: run `swift build` (swift test builds it too)"
    }
  }

  /// The package's root folder.
  public static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  /// The folder the running tests were built into, which holds the `rulekit` built with them: the folder of
  /// the test bundle, `<Package>PackageTests.xctest` (on Linux an executable, on macOS a bundle whose binary
  /// is `Contents/MacOS/<Package>PackageTests`). Found on Linux from the running executable
  /// (`/proc/self/exe`: `swift test` runs XCTest and Swift Testing tests in the bundle itself), on macOS,
  /// where a helper (`xctest`, `swiftpm-testing-helper`) loads the bundle, from the image this code is linked
  /// into and the loaded bundles. `nil` when none of them is inside a `.xctest`.
  public static let productsDirectory: URL? = {
    var images: [String] = []
    #if canImport(Darwin)
      // The bundle's binary this code is linked into (Glibc does not export dladdr to Swift).
      var info = Dl_info()
      if dladdr(#dsohandle, &info) != 0, let name = info.dli_fname {
        images.append(String(cString: name))
      }
    #else
      if let executable = try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
        images.append(executable)
      }
    #endif
    images += Bundle.allBundles.map(\.bundlePath)
    if let main = Bundle.main.executablePath { images.append(main) }
    for image in images where image.hasPrefix("/") {
      var url = URL(fileURLWithPath: image).standardizedFileURL
      while url.pathComponents.count > 1 {
        if url.pathExtension == "xctest" { return url.deletingLastPathComponent() }
        url.deleteLastPathComponent()
      }
    }
    return nil
  }()

  /// `rulekit` in ``productsDirectory``; only when that has none (a test runner that is not `swift test`),
  /// `.build/debug/rulekit` or the first `.build/<triple>/debug/rulekit`.
  public static func locate() throws -> URL {
    var candidates = productsDirectory.map { [$0.appendingPathComponent("rulekit")] } ?? []
    let build = packageRoot.appendingPathComponent(".build")
    candidates.append(build.appendingPathComponent("debug/rulekit"))
    let triples = (try? FileManager.default.contentsOfDirectory(atPath: build.path)) ?? []
    candidates += triples.sorted().map { build.appendingPathComponent("\($0)/debug/rulekit") }
    guard let found = candidates.first(where: { FileManager.default.isExecutableFile(atPath: $0.path) })
    else { throw NotBuilt() }
    return found
  }

  /// Runs `rulekit` (or `executable`) with `arguments` in `currentDirectory` (the package root unless
  /// given), `standardInput` piped in (empty when `nil`), and this process's environment without `COLUMNS`
  /// (help wraps to it) and `NO_COLOR`, plus `environment`. Standard output and error are read concurrently
  /// so neither pipe fills up; a watchdog kills a run that takes over `timeout` seconds, so a hang fails one
  /// test instead of the whole run.
  public static func run(
    _ arguments: [String], standardInput: String? = nil, currentDirectory: URL? = nil,
    environment: [String: String] = [:], executable: URL? = nil, timeout: TimeInterval = 120
  ) throws -> Outcome {
    let process = Process()
    process.executableURL = try executable ?? locate()
    process.arguments = arguments
    process.currentDirectoryURL = currentDirectory ?? packageRoot
    process.environment = ProcessInfo.processInfo.environment
      .filter { $0.key != "COLUMNS" && $0.key != "NO_COLOR" }
      .merging(environment) { $1 }
    let output = Pipe()
    let errors = Pipe()
    let input = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = input
    try process.run()
    // The queue keeps a cancelled item until its deadline: holding the process weakly lets the process and
    // its pipes go when the run ends, instead of keeping their descriptors open for `timeout` seconds.
    let watchdog = DispatchWorkItem { [weak process] in
      if let process, process.isRunning { process.terminate() }
    }
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout, execute: watchdog)
    let errorData = PipeReader(errors.fileHandleForReading)
    if let standardInput { input.fileHandleForWriting.write(Data(standardInput.utf8)) }
    try input.fileHandleForWriting.close()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    watchdog.cancel()
    let errorText = String(decoding: errorData.wait(), as: UTF8.self)
    try output.fileHandleForReading.close()
    try errors.fileHandleForReading.close()
    return Outcome(
      status: process.terminationStatus, reason: process.terminationReason,
      standardOutput: String(decoding: outputData, as: UTF8.self), standardError: errorText)
  }
}

/// Reads a pipe to its end on a thread of its own.
private final class PipeReader: @unchecked Sendable {
  private let condition = NSCondition()
  private var data: Data?

  init(_ handle: FileHandle) {
    Thread.detachNewThread { [self] in
      let read = handle.readDataToEndOfFile()
      condition.lock()
      data = read
      condition.broadcast()
      condition.unlock()
    }
  }

  func wait() -> Data {
    condition.lock()
    defer { condition.unlock() }
    while data == nil { condition.wait() }
    return data ?? Data()
  }
}
