import ArgumentParser
import Locking

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc

  private let systemWrite = Glibc.write
#elseif canImport(Musl)
  import Musl

  private let systemWrite = Musl.write
#elseif canImport(Darwin)
  import Darwin

  private let systemWrite = Darwin.write
#endif

/// When to colour output (`--color`).
enum ColorChoice: String, ExpressibleByArgument, CaseIterable, Sendable {
  /// Colour a stream only when it is a terminal, `NO_COLOR` is unset or empty and `TERM` is not `dumb`.
  case auto
  /// Colour even into a pipe or a file, and even when `NO_COLOR` is set: the flag is the more specific wish.
  case always
  /// Never colour.
  case never
}

/// `--color`, which every subcommand takes.
struct ColorOption: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "When to use colour: auto (only on a terminal, and not when NO_COLOR is set), always or never.",
      valueName: "when"))
  var color: ColorChoice = .auto
}

/// `-q`/`--quiet`, on the subcommands that print progress or summaries besides their result.
struct QuietOption: ParsableArguments {
  @Flag(name: .shortAndLong, help: "Print only errors and the result: no progress, summary or 'wrote' lines.")
  var quiet = false
}

/// How the running subcommand writes: JSON or text, quiet or not, in colour or not.
struct ConsoleSettings: Sendable {
  var json = false
  var quiet = false
  var color: ColorChoice = .auto
  /// `--format xcode`: errors about inputs are `file:line:column: error: message`, as Xcode files issues.
  var xcode = false
}

/// A subcommand whose output settings `main` hands to ``Console`` before running it, so no subcommand
/// decides colour, quietness or where JSON errors go on its own.
protocol ConsoleConfigurable {
  var consoleSettings: ConsoleSettings { get }
}

/// Everything `rulekit` writes goes through here. The rules (documented in docs/json-output.md and the
/// README):
///
/// - Standard output carries the result; standard error carries diagnostics and informational lines.
/// - `--quiet` drops the informational lines, never an error or the result.
/// - In JSON mode standard output holds one JSON document, the result, and standard error at most one, the
///   command's warnings and errors as `{"schemaVersion": 1, "diagnostics": […]}` (written when the command
///   ends, so warnings and a later error share one document); informational lines are dropped because the
///   result document says the same.
/// - Colour is decided once per stream by ``usesColor(_:isTerminal:environment:)``.
enum Console {
  /// The `schemaVersion` of every JSON document `rulekit` writes; see docs/json-output.md for the policy.
  static let schemaVersion = 1

  private static let state = ConsoleState()

  /// Applies a subcommand's settings; colour is decided here, once, for each standard stream.
  static func configure(
    _ settings: ConsoleSettings,
    environment: [String: String] = EnvironmentVariables.values(of: Console.environmentVariables)
  ) {
    state.update {
      $0.settings = settings
      $0.colorOutput = usesColor(
        settings.color, isTerminal: isatty(STDOUT_FILENO) == 1, environment: environment)
      // Xcode reads the errors of --format xcode itself: never coloured.
      $0.colorErrors =
        !settings.xcode
        && usesColor(settings.color, isTerminal: isatty(STDERR_FILENO) == 1, environment: environment)
    }
  }

  /// The variables ``usesColor(_:isTerminal:environment:)`` reads.
  static let environmentVariables = ["NO_COLOR", "TERM"]

  /// The single colour decision. `NO_COLOR` (https://no-color.org) wins over `auto`; an explicit
  /// `--color always` wins over `NO_COLOR`, as no-color.org allows for command-line flags.
  static func usesColor(_ choice: ColorChoice, isTerminal: Bool, environment: [String: String]) -> Bool {
    switch choice {
    case .never: return false
    case .always: return true
    case .auto:
      return isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }
  }

  static var isJSON: Bool { state.read { $0.settings.json } }
  static var isQuiet: Bool { state.read { $0.settings.quiet } }

  /// The result, on standard output.
  static func result(_ text: String, terminator: String = "\n") {
    write(text, terminator: terminator, to: .standardOutput)
  }

  /// A result made of compiler-style lines (`lint`), coloured like diagnostics when standard output is.
  static func diagnosticResult(_ text: String) {
    let colored = state.read { $0.colorOutput }
    write(colored ? DiagnosticStyle.highlight(text) : text, to: .standardOutput)
  }

  /// A result with ✓ and ✗ marks (`explain`), the marks green and red when standard output is coloured.
  static func markedResult(_ text: String) {
    let colored = state.read { $0.colorOutput }
    write(colored ? DiagnosticStyle.highlightMarks(text) : text, to: .standardOutput)
  }

  /// An informational line on standard error (`wrote X`, `dry run: nothing written`); dropped by `--quiet`
  /// and in JSON mode.
  static func info(_ text: String) {
    guard !isQuiet, !isJSON else { return }
    // configure's report carries its warnings as compiler-style lines among the informational ones.
    let colored = state.read { $0.colorErrors }
    write(colored ? DiagnosticStyle.highlight(text) : text, to: .standardError)
  }

  /// A diagnostic: `text` (compiler-style, coloured on a terminal) in text mode; `records` in JSON mode.
  static func diagnostic(_ text: String, records: @autoclosure () -> [[String: Any]]) {
    if isJSON {
      let records = records()
      state.update { $0.pendingDiagnostics += records }
      return
    }
    let colored = state.read { $0.colorErrors }
    write(colored ? DiagnosticStyle.highlight(text) : text, to: .standardError)
  }

  /// An error, about an input or none: compiler-style text (in Xcode's form with `--format xcode`), or a
  /// record in JSON mode.
  static func report(_ diagnostic: InputDiagnostic) {
    let xcode = state.read { $0.settings.xcode }
    Console.diagnostic(diagnostic.rendered(xcode: xcode), records: [diagnostic.record])
  }

  /// An error without a position: `text` as printed in text mode, `message` in the JSON record.
  static func error(_ text: String, message: String, file: String? = nil) {
    var record: [String: Any] = ["severity": "error", "message": message]
    if let file { record["file"] = file }
    diagnostic(text, records: [record])
  }

  /// Prints `document` plus `schemaVersion` as the JSON result on standard output.
  static func json(_ document: [String: Any]) {
    var document = document
    document["schemaVersion"] = schemaVersion
    write(serialize(document), to: .standardOutput)
  }

  /// Writes the JSON diagnostics collected so far, as one document on standard error. `main` calls it once,
  /// however the command ends.
  static func finish() {
    let pending = state.update { state -> [[String: Any]] in
      defer { state.pendingDiagnostics = [] }
      return state.pendingDiagnostics
    }
    guard !pending.isEmpty else { return }
    write(serialize(["schemaVersion": schemaVersion, "diagnostics": pending]), to: .standardError)
  }

  /// An `Encodable` value as an `Any` tree, so it can be merged into a document.
  static func jsonObject(_ value: some Encodable) throws -> Any {
    try JSONTree(encoding: value).anyValue
  }

  /// Whether a command line asked for JSON; used only for usage errors, which happen before any subcommand
  /// exists to say so.
  static func argumentsRequestJSON(_ arguments: [String]) -> Bool {
    request(format: "json", in: arguments)
  }

  private static func request(format: String, in arguments: [String]) -> Bool {
    arguments.contains("--format=\(format)")
      || zip(arguments, arguments.dropFirst()).contains { $0 == "--format" && $1 == format }
  }

  /// swift-argument-parser's usage error `text` as printed: with `--format xcode` its `Error:` is `error:`,
  /// which Xcode files as an issue (it looks for a lowercase `error:`).
  static func usageError(_ text: String, arguments: [String]) -> String {
    guard request(format: "xcode", in: arguments), text.hasPrefix("Error: ") else { return text }
    return "error: " + text.dropFirst("Error: ".count)
  }

  private enum Stream { case standardOutput, standardError }

  private static func write(_ text: String, terminator: String = "\n", to stream: Stream) {
    writeUnbuffered(text + terminator, to: stream == .standardOutput ? STDOUT_FILENO : STDERR_FILENO)
  }

  /// Writes all of `text` with write(2), unbuffered like `FileHandle` (so standard output and standard error
  /// interleave in the order they were written); stops quietly when the reader has gone (EPIPE).
  static func writeUnbuffered(_ text: String, to descriptor: Int32) {
    let bytes = Array(text.utf8)
    bytes.withUnsafeBytes { buffer in
      guard let base = buffer.baseAddress else { return }
      var offset = 0
      while offset < buffer.count {
        let written = systemWrite(descriptor, base + offset, buffer.count - offset)
        if written > 0 {
          offset += written
        } else if written < 0 && errno == EINTR {
          continue
        } else {
          return
        }
      }
    }
  }

  private static func serialize(_ document: [String: Any]) -> String {
    guard let tree = JSONTree(document) else { return #"{"schemaVersion": \#(schemaVersion)}"# }
    return tree.prettyPrinted
  }
}

/// The console's mutable state behind a lock: written once by `main`, read by whoever prints.
private final class ConsoleState: @unchecked Sendable {
  struct Values {
    var settings = ConsoleSettings()
    var colorOutput = false
    var colorErrors = false
    var pendingDiagnostics: [[String: Any]] = []
  }

  private let values = Locked(Values())

  func read<T>(_ body: (Values) -> T) -> T {
    values.withLock { body($0) }
  }

  @discardableResult
  func update<T>(_ body: (inout Values) -> T) -> T {
    values.withLock { body(&$0) }
  }
}

/// Colours compiler-style diagnostics the way swiftc and clang do: the location and message bold, the
/// `error:` label red, `warning:` magenta, `note:` dark grey, the caret line and a fix-it under it green;
/// and `explain`'s ✓ and ✗ marks.
enum DiagnosticStyle {
  static let reset = "\u{1B}[0m"
  static let bold = "\u{1B}[1m"
  static let green = "\u{1B}[1;32m"
  static let labels = [("error", "\u{1B}[1;31m"), ("warning", "\u{1B}[1;35m"), ("note", "\u{1B}[1;90m")]

  static func highlight(_ text: String) -> String {
    var previousWasCaret = false
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
      let line = String(line)
      let trimmed = line.drop { $0 == " " || $0 == "\t" }
      if let styled = styledHeader(line) {
        previousWasCaret = false
        return styled
      }
      if trimmed.first == "^", trimmed.dropFirst().allSatisfy({ $0 == "~" }) {
        previousWasCaret = true
        return line.dropLast(trimmed.count) + green + trimmed + reset
      }
      if previousWasCaret, !trimmed.isEmpty {
        previousWasCaret = false
        return line.dropLast(trimmed.count) + green + trimmed + reset
      }
      previousWasCaret = false
      return line
    }
    return lines.joined(separator: "\n")
  }

  /// ✓ green and ✗ red, as test runners print passes and failures.
  static func highlightMarks(_ text: String) -> String {
    text.replacing("✓", with: green + "✓" + reset).replacing("✗", with: "\u{1B}[1;31m✗" + reset)
  }

  /// `LOCATION: LABEL: MESSAGE` or `LABEL: MESSAGE`, styled; nil for any other line.
  private static func styledHeader(_ line: String) -> String? {
    var best: (range: Range<String.Index>, label: String, color: String)?
    for (label, color) in labels {
      if line.hasPrefix("\(label): ") {
        let range = line.startIndex..<line.index(line.startIndex, offsetBy: label.count + 2)
        if best == nil || range.lowerBound < (best?.range.lowerBound ?? line.endIndex) {
          best = (range, label, color)
        }
      } else if let range = line.firstRange(of: ": \(label): "),
        best == nil || range.lowerBound < (best?.range.lowerBound ?? line.endIndex)
      {
        best = (range, label, color)
      }
    }
    guard let best else { return nil }
    let location = line[..<best.range.lowerBound]
    let message = line[best.range.upperBound...]
    let head = location.isEmpty ? "" : bold + location + ": " + reset
    return head + best.color + best.label + ":" + reset + " " + bold + message + reset
  }
}
