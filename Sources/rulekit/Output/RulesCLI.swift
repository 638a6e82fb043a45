import ActivationRules
import ArgumentParser
import PredicateSyntax
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Shared plumbing of the rule subcommands: exit codes and diagnostics as docs/design.md's CLI contract says.
enum RulesCLI {
  /// Says which keys of a dictionary rule the predicate leaves out: undocumented keys the system does not
  /// read (`…SupportsFileWithType` and its list of types), which a dictionary-to-string rewrite drops.
  static func noteLeftOutKeys(of dictionary: ActivationDictionary) {
    guard !dictionary.undocumentedKeys.isEmpty else { return }
    // Escaped: a key with a line break in it would otherwise split the note over two lines.
    let names = dictionary.undocumentedKeys.map { ActivationDictionary.escapedKey($0.name) }
      .joined(separator: ", ")
    Console.info("left out of the predicate: \(names) (not a key the system reads)")
  }

  /// Warns, at the rule's `file:line:column`, when `dictionary` (the rule of `file`) accepts nothing, so the
  /// predicate that replaces it is `FALSEPREDICATE` and the extension never activates: a `<dict/>` (a shipping
  /// app's, its keys written beside it) is otherwise rewritten without a word. A warning like lint's, so the
  /// exit status stays 0, as after the other notes of `convert` and `inject`.
  static func warnIfAcceptsNothing(_ dictionary: ActivationDictionary, in file: RuleFile) {
    guard case .falsePredicate = DictionaryConverter.predicate(for: dictionary, style: .apple).kind else {
      return
    }
    let supports = dictionary.values.keys.filter { $0.rawValue.hasPrefix("NSExtensionActivationSupports") }
    func list(_ keys: [String]) -> String {
      keys.map(ActivationDictionary.escapedKey).joined(separator: ", ")
    }
    var message = "the rule accepts nothing, so the extension never activates: "
    if supports.isEmpty {
      message += "the dictionary has no NSExtensionActivationSupports… key the system reads"
      let undocumented = dictionary.undocumentedKeys.map(\.name)
      if !undocumented.isEmpty {
        message += " (\(list(undocumented)) \(undocumented.count == 1 ? "is not one" : "are not"))"
      }
    } else {
      message +=
        "its NSExtensionActivationSupports… keys allow no content (a count of 0, <false/>, or a minimum "
        + "above the maximum)"
    }
    let outside = file.facts.activationKeysOutsideRule.compactMap { path -> String? in
      guard case .key(let key)? = path.components.last else { return nil }
      return key
    }
    let add =
      supports.isEmpty
      ? "give it the NSExtensionActivationSupports… keys of the types the extension handles"
      : "give a …WithMaxCount key a count above 0, or NSExtensionActivationSupportsText <true/>, for what the "
        + "extension handles"
    message +=
      outside.isEmpty
      ? "; " + add
      : "; \(list(outside)) \(outside.count == 1 ? "is" : "are") outside it, where the system does not read "
        + "\(outside.count == 1 ? "it" : "them"): move \(outside.count == 1 ? "it" : "them") into the dictionary"
    let position = file.rulePosition
    CommandOutput.report(
      [
        PredicateDiagnostic(
          severity: .warning, message: message, range: SourceRange(start: position, end: position))
      ],
      source: file.contents, fileName: file.path)
  }

  /// Says on standard error where IntuneMAMConfigurator's form of `dictionary` (`--style intune`) accepts other
  /// shares than the dictionary, twins aside; returns the change for JSON output.
  static func noteMeaningChange(of dictionary: ActivationDictionary) -> DictionaryMeaningChange? {
    guard let change = DictionaryConverter.meaningChange(of: dictionary) else { return nil }
    Console.info(
      "the intune style does not accept the same shares as the dictionary (as RuleKit models Apple's "
        + "matching), twins aside: \(change.summary); --style apple keeps the dictionary's meaning")
    return change
  }

  /// Exit codes of the CLI contract.
  enum Exit {
    static let problemsFound = ExitCode(1)
    static let usage = ExitCode(2)
    static let invalidInput = ExitCode(65)
    static let missingInput = ExitCode(66)
    static let ioError = ExitCode(74)
  }

  /// Prints `message` as an error about no file in particular (`rulekit: error: message`, or a JSON record)
  /// and returns `code` to throw.
  static func fail(_ message: String, code: ExitCode) -> ExitCode {
    Console.report(InputDiagnostic(message: message))
    return code
  }

  /// The usage error of `--in-place` on a rule it cannot write back: `path` is `nil` for standard input and
  /// `--predicate`; otherwise the file is a binary or old-style (OpenStep) property list, which `--in-place`
  /// does not edit (it changes the rule's own text and keeps every other byte, which only an XML plist or a
  /// predicate file has). The sweep met a built `.appex`'s binary Info.plist committed under `build/`, and
  /// the old message, "needs --rule with an XML plist", did not say the file was not one.
  static func notEditableInPlace(_ path: String?) -> ExitCode {
    guard let path else {
      return fail(
        "--in-place needs --rule FILE: a rule from standard input or --predicate has no file to write back",
        code: Exit.usage)
    }
    // Read again quietly (not through read(_:), which reports): the file was read a moment ago.
    var bytes: [UInt8] = []
    if case .success(let data) = InputFile.read(path) { bytes = Array(data.prefix(4096)) }
    let first = bytes.first { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }
    let format: String
    if bytes.starts(with: Array("bplist".utf8)) {
      format = "a binary property list"
    } else if first == UInt8(ascii: "{") || first == UInt8(ascii: "/") {
      format = "an old-style (OpenStep) property list"
    } else {
      return fail(
        InputDiagnostic(
          message: "--in-place cannot locate the rule's text in this file to write it back",
          file: displayName(path)),
        code: Exit.usage)
    }
    var diagnostic = InputDiagnostic(
      message: "\(format): --in-place edits the rule in an XML plist or a predicate file as text",
      file: displayName(path))
    diagnostic.hint =
      "convert it to XML first (plutil -convert xml1 \(displayName(path))), or leave out --in-place to print "
      + "the rule"
    return fail(diagnostic, code: Exit.usage)
  }

  /// Prints `diagnostic` and returns `code` to throw.
  static func fail(_ diagnostic: InputDiagnostic, code: ExitCode) -> ExitCode {
    Console.report(diagnostic)
    return code
  }

  /// Reads an input file (`-` is standard input, shown as `<stdin>`). A missing file exits 66 and an
  /// unreadable one 74, with the same message whichever subcommand or option named the file.
  static func read(_ path: String) throws -> Data {
    switch InputFile.read(path) {
    case .success(let data): return data
    case .failure(.notFound):
      throw fail(
        InputDiagnostic(
          message: "no such file; check the path (relative paths start at the current directory)",
          file: displayName(path)), code: Exit.missingInput)
    case .failure(.tooLarge(_, let size, let limit)):
      var diagnostic = InputDiagnostic(
        message: "the \(path == "-" ? "input" : "file") \(size.exceeding(limit: limit)) "
          + "(\(BoundedFileReader.describe(limit: InputFile.maximumBytes)), the most rulekit reads of any input)",
        file: displayName(path))
      diagnostic.hint =
        "check that this is the file you meant: rules, property lists and JSON contexts are far smaller"
      throw fail(diagnostic, code: Exit.invalidInput)
    case .failure(let failure):
      // A directory or a read error; the text keeps the hint on the message's line, as the rule loaders do.
      throw fail(
        InputDiagnostic(
          message: failure.reason + (failure.hint.map { "; \($0)" } ?? ""), file: displayName(path)),
        code: Exit.ioError)
    }
  }

  /// The name messages use for an input: the path as given, or `<stdin>` for standard input.
  static func displayName(_ path: String) -> String {
    InputFile.isStandardInput(path) ? "<stdin>" : path
  }

  /// Prints an ``ActivationRuleError`` about the input `path` (whose bytes are `data`) and returns the exit
  /// code it maps to: 66 missing, 74 unreadable, 65 anything malformed.
  ///
  /// Problems in a plist point at what is wrong (`file:line:column`): the syntax error's position, the value
  /// that is neither a string nor a dictionary, or, for an Info.plist without a rule, the deepest of
  /// `NSExtension › NSExtensionAttributes` it has (the root dictionary when it has neither).
  static func report(_ error: ActivationRuleError, path: String, data: Data) -> ExitCode {
    var diagnostic = InputDiagnostic(message: error.summary, file: path, source: [UInt8](data))
    var code = Exit.invalidInput
    switch error.kind {
    case .propertyList:
      guard let plistError = error.propertyListError else { break }
      diagnostic = InputDiagnostic(plistError, file: path, source: [UInt8](data))
      if plistError.kind == .fileNotFound { code = Exit.missingInput }
      if plistError.kind == .io { code = Exit.ioError }
    case .jsonSyntax:
      diagnostic.position = error.position.map { ($0.line, $0.column) }
    case .ruleNotFound, .ruleMisplaced, .unexpectedRuleValue, .malformedPropertyList:
      // The library places some of these itself (NSExtensionAttributes at the root); else found here.
      if let line = error.location?.line, let column = error.location?.column {
        diagnostic.position = (line, column)
      } else {
        diagnostic.position = RulePlacement.position(of: error, in: data).map { ($0.line, $0.column) }
      }
      if let hint = error.hint { diagnostic.hint = hint }
    case .missingFile:
      code = Exit.missingInput
    case .inputOutput:
      diagnostic.message = error.message
      code = Exit.ioError
    case .fileTooLarge:
      diagnostic.message = error.message
    case .malformedJSON, .syntax, .editVerificationFailed:
      break
    }
    return fail(diagnostic, code: code)
  }

  /// Prints an error in the rule `file` holds (a syntax error, an edit that does not verify), positioned in
  /// the file where the error has a position, and returns exit code 65.
  static func report(_ error: ActivationRuleError, in file: RuleFile) -> ExitCode {
    var diagnostic = InputDiagnostic(
      message: error.summary, file: file.path, source: Array(file.contents.utf8))
    if let position = error.position {
      let filePosition = file.filePosition(ofPredicateOffset: position.offset)
      diagnostic.position = (filePosition.line, filePosition.column)
    }
    return fail(diagnostic, code: Exit.invalidInput)
  }

  /// Writes `text` to `path` atomically, keeping the file's permissions and following symbolic links;
  /// failures map to exit code 74 and leave the file as it was.
  static func write(_ text: String, to path: String) throws {
    do {
      try AtomicFileWriter.write(Data(text.utf8), to: path)
    } catch {
      throw fail(
        InputDiagnostic(message: "cannot write: \(error.description)", file: path), code: Exit.ioError)
    }
  }
}

/// An error, about an input or none, printed as the running subcommand's `--format` asks (see ``Console/report(_:)``).
struct InputDiagnostic {
  /// What is wrong, and how to fix it where a hint does not say so.
  var message: String
  /// The input it is about: a path, `<stdin>` or `<predicate>`; `nil` for an error about no input.
  var file: String?
  /// Where in `file` (1-based line and column), when known.
  var position: (line: Int, column: Int)?
  /// The file's bytes, for the source line and caret under a positioned message.
  var source: [UInt8] = []
  /// How to fix it, when that is a sentence of its own.
  var hint: String?

  init(message: String, file: String? = nil, source: [UInt8] = []) {
    self.message = message
    self.file = file
    self.source = source
  }

  /// A ``PropertyListError`` as a diagnostic: its message, hint and position, about `file` (the error's
  /// own path when `nil`); `source` is the file's bytes, for the source line and caret.
  init(_ error: PropertyListError, file: String? = nil, source: [UInt8]) {
    self.init(message: error.message, file: file ?? error.path, source: source)
    hint = error.hint
    position = error.position.map { ($0.line, $0.column) }
  }

  /// The compiler-style text: `file:line:column: error: message` with the source line and a caret when the
  /// position is known; otherwise `rulekit: error: file: message`, or in Xcode's form (`xcode`)
  /// `file:1:1: error: message` (Xcode files an issue under a file only with a line) and `error: message`.
  /// The hint follows on a line of its own.
  func rendered(xcode: Bool) -> String {
    var text: String
    if let file, let position {
      // PropertyLists renders the header, the source line (shortened when very long) and the caret.
      let located = PropertyListError(
        .malformed, message, path: file,
        position: PropertyListPosition(line: position.line, column: position.column, offset: 0))
      text = source.isEmpty ? located.description : located.rendered(source: source)
    } else if xcode {
      // Xcode files an issue for `error: message`, under the file when the line starts with file:line:column.
      text = (file.map { "\($0):1:1: " } ?? "") + "error: \(message)"
    } else {
      text = "rulekit: error: " + (file.map { "\($0): " } ?? "") + message
    }
    if let hint { text += "\nhint: \(hint)" }
    return text
  }

  /// The JSON record (docs/json-output.md, the diagnostics document).
  var record: [String: Any] {
    var record: [String: Any] = ["severity": "error", "message": message]
    if let file { record["file"] = file }
    if let position {
      record["line"] = position.line
      record["column"] = position.column
    }
    if let hint { record["hint"] = hint }
    return record
  }
}

/// Where in a plist an ``ActivationRuleError`` about the rule's place is: ActivationRules reports these
/// without a position, and Xcode and editors need one.
enum RulePlacement {
  static func position(of error: ActivationRuleError, in data: Data) -> PropertyListPosition? {
    guard let document = try? PropertyListDocument(data: data, duplicateKeys: .keepLast) else { return nil }
    let root = document.root
    switch error.kind {
    case .ruleNotFound:
      // The deepest of NSExtension › NSExtensionAttributes that is there, else the root dictionary.
      var path: PropertyListPath = []
      var found: PropertyListNodeEntry?
      for key in ["NSExtension", "NSExtensionAttributes"] {
        path = path.appending(.key(key))
        guard let entry = document.entry(at: path) else { break }
        found = entry
      }
      return found?.keyPosition ?? root.position
    case .unexpectedRuleValue:
      let places: [PropertyListPath] = [
        ["NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule"], ["NSExtensionActivationRule"],
      ]
      return places.lazy.compactMap { document.node(at: $0)?.position }.first ?? root.position
    case .malformedPropertyList:
      // The root that is not a dictionary; Foundation's other refusals have no position.
      return root.kind == .dictionary ? nil : root.position
    default:
      return nil
    }
  }
}
