import ActivationRules
import ArgumentParser
import IntuneConfigurator
import PredicateEvaluation
import PredicateSyntax
import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// `--rule FILE` | `--predicate TEXT` | standard input: how every subcommand that reads one rule takes it
/// (docs/design.md, "The CLI contract"). `format`, `parse`, `eval`, `convert`, `inject`, `explain` and `lint`
/// all read it through ``read(operands:)`` and ``RuleSource/read(_:)``, so a rule file, a failure and its
/// message are the same whichever of them reads it.
struct RuleInput: ParsableArguments {
  @Option(
    help: ArgumentHelp(
      "A predicate file, a rule plist, or an extension Info.plist ('-' reads standard input).",
      valueName: "FILE"),
    completion: .file())
  var rule: String?

  @Option(help: ArgumentHelp("The predicate text itself.", valueName: "TEXT"))
  var predicate: String?

  func validate() throws {
    if rule != nil && predicate != nil {
      throw ValidationError(
        "Give --rule FILE or --predicate TEXT, not both (with neither, the rule is read from standard input)."
      )
    }
  }

  /// Whether the rule comes from standard input: neither option, or `--rule -`.
  var readsStandardInput: Bool { predicate == nil && (rule.map(InputFile.isStandardInput) ?? true) }

  /// `--rule FILE` when FILE is a file that `--in-place` can write back (not standard input).
  var editablePath: String? { rule.flatMap { InputFile.isStandardInput($0) ? nil : $0 } }

  /// The rule, from `--rule`, `--predicate` or standard input.
  func read() throws -> RuleSource {
    guard let only = try read(operands: []).first else { throw RulesCLI.Exit.usage }
    return only
  }

  /// The rules `operands` (files, `-` for standard input: `lint FILE…`, written `operandSyntax` in messages)
  /// name, then the one `--rule` or `--predicate` gives; standard input when there is nothing else. Standard
  /// input on a terminal is then a usage error rather than a silent wait for typing (`--rule -` reads it).
  func read(operands: [String], operandSyntax: String? = nil) throws -> [RuleSource] {
    var sources = try operands.map(RuleSource.read)
    if let rule { sources.append(try RuleSource.read(rule)) }
    if let predicate { sources.append(RuleSource(predicate: predicate)) }
    guard sources.isEmpty else { return sources }
    guard isatty(STDIN_FILENO) != 1 else {
      throw RulesCLI.fail(
        "no rule given: pass " + (operandSyntax.map { "\($0), " } ?? "")
          + "--rule FILE or --predicate TEXT, or pipe the rule into standard input",
        code: RulesCLI.Exit.usage)
    }
    return [try RuleSource.read("-")]
  }
}

/// A rule as read from `--rule`, `--predicate`, standard input or a file operand.
struct RuleSource {
  /// The rule as its file holds it: a predicate file's text, or the plist and where the rule is in it.
  let file: RuleFile
  /// The file the rule came from (`--in-place` writes it back); `nil` for standard input and `--predicate`.
  let fileURL: URL?
  /// The predicate text the predicate subcommands (`format`, `parse`, `eval`) parse: a predicate file's own
  /// bytes (so invalid UTF-8 is reported, not replaced), a plist's rule string, or a dictionary rule as the
  /// predicate Apple evaluates for it.
  let bytes: [UInt8]

  /// `--predicate TEXT`.
  init(predicate: String) {
    file = RuleFile(path: "<predicate>", predicate: predicate)
    fileURL = nil
    bytes = Array(predicate.utf8)
  }

  /// Reads the rule in `path` (`-` is standard input): a predicate file, a rule plist, or an extension
  /// Info.plist (`NSExtension › NSExtensionAttributes › NSExtensionActivationRule`), whichever the bytes
  /// are. A missing file exits 66, an unreadable one 74, a malformed plist or one without a rule 65.
  static func read(_ path: String) throws -> RuleSource {
    let name = RulesCLI.displayName(path)
    let data = try RulesCLI.read(path)
    let file: RuleFile
    do {
      file = try RuleFile(path: name, data: data)
    } catch {
      // An Info.plist Xcode preprocesses (INFOPLIST_PREPROCESS = YES): read as its target's build reads it,
      // with the macros of the project beside it, as `configure -i` finds that project.
      guard error.propertyListError?.needsPreprocessing == true, !InputFile.isStandardInput(path),
        let preprocessing = projectPreprocessing(forInfoPlistAt: path)
      else { throw RulesCLI.report(error, path: name, data: data) }
      do {
        file = try RuleFile(path: name, data: data, preprocessing: preprocessing)
      } catch {
        throw RulesCLI.report(error, path: name, data: data)
      }
    }
    let source = RuleSource(
      file: file, fileURL: InputFile.isStandardInput(path) ? nil : URL(fileURLWithPath: path), data: data)
    // ActivationRules reads predicate files as text, replacing invalid UTF-8; the parser reads the bytes and
    // says which byte is wrong, for every subcommand alike.
    if file.form == .predicateFile, Array(file.contents.utf8) != source.bytes {
      try ParsingOptions.parse(source, lenient: false)
    }
    return source
  }

  /// The preprocessing of the Info.plist at `path` in the Xcode project beside it (found as `xcodebuild`
  /// finds one), when a target of that project builds with it and sets `INFOPLIST_PREPROCESS = YES`.
  private static func projectPreprocessing(forInfoPlistAt path: String) -> PropertyListPreprocessing? {
    guard let projectPath = AppConfigurator.locateProject(forFileAt: path),
      let project = try? XcodeProject(path: projectPath),
      let context = try? AppConfigurator().projectContext(forInfoPlist: path, in: project)
    else { return nil }
    return context.preprocessing
  }

  private init(file: RuleFile, fileURL: URL?, data: Data) {
    self.file = file
    self.fileURL = fileURL
    switch file.value {
    case .predicate(let text): bytes = file.form == .predicateFile ? Array(data) : Array(text.utf8)
    case .dictionary(let dictionary):
      bytes = Array(
        PredicatePrinter.pretty(DictionaryConverter.predicate(for: dictionary, style: .apple)).utf8)
    }
  }

  /// The name diagnostics print: the path, `<stdin>` or `<predicate>`.
  var displayName: String { file.path }

  /// The plist the rule was found in; `nil` for predicate text.
  var ruleFile: RuleFile? { file.form == .predicateFile ? nil : file }

  /// The predicate text.
  var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The text diagnostics quote: the whole plist when the rule came from one.
  var quotedText: String { ruleFile?.contents ?? text }

  /// The file and its rule parsed by ActivationRules, for the subcommands that convert, edit, explain or
  /// compare it. A syntax error is printed positioned in the file (inside the plist for a plist) and exits 65.
  func parsed() throws -> (file: RuleFile, rule: ActivationRule) {
    do {
      return (file, try ActivationRule(file: file))
    } catch {
      throw RulesCLI.report(error, in: file)
    }
  }

  /// Reports an error evaluating the rule as every subcommand that evaluates one (`eval`, `explain`) reports
  /// it: `file:line:column: error: message`, the source line and a caret (a record with `file`, `line` and
  /// `column` in JSON mode), positioned in the file the user gave. Returns the exit status, 65.
  func report(_ error: EvaluationError) -> ExitCode {
    let diagnostic = PredicateDiagnostic(severity: .error, message: error.message, range: error.range)
    CommandOutput.report([located(diagnostic)], source: quotedText, fileName: displayName)
    return RulesCLI.Exit.invalidInput
  }

  /// `diagnostic` with its positions in the file the user gave (the plist, not the decoded predicate).
  func located(_ diagnostic: PredicateDiagnostic) -> PredicateDiagnostic {
    guard let ruleFile else { return diagnostic }
    var located = diagnostic
    located.range = fileRange(diagnostic.range, in: ruleFile)
    if var fix = located.fix {
      fix.range = fileRange(fix.range, in: ruleFile)
      located.fix = fix
    }
    return located
  }

  private func fileRange(_ range: SourceRange, in file: RuleFile) -> SourceRange {
    guard case .predicate = file.value else {
      return SourceRange(start: file.rulePosition, end: file.rulePosition)
    }
    return SourceRange(
      start: file.filePosition(ofPredicateOffset: range.start.offset),
      end: file.filePosition(ofPredicateOffset: range.end.offset))
  }
}

/// Options for reading predicate text, shared by the subcommands that parse; how they write is their
/// ``OutputOptions`` (`format`) or ``ResultOutputOptions`` (`parse`, `eval`) with ``DiagnosticFormat``.
struct ParsingOptions: ParsableArguments {
  @Flag(help: "Accept typographic quotes (“ ” ‘ ’) as string delimiters, with a warning.")
  var lenient = false

  /// Parses the rule, printing warnings and errors the chosen way; a syntax error exits with 65.
  func parse(_ source: RuleSource) throws -> PredicateNode {
    try Self.parse(source, lenient: lenient)
  }

  @discardableResult
  static func parse(_ source: RuleSource, lenient: Bool) throws -> PredicateNode {
    let options = PredicateParser.Options(lenient: lenient)
    do {
      let result = try PredicateParser.parse(utf8: source.bytes, options: options)
      report(result.warnings, source: source)
      return result.predicate
    } catch {
      report(error.warnings + [error.diagnostic], source: source)
      throw RulesCLI.Exit.invalidInput
    }
  }

  private static func report(_ diagnostics: [PredicateDiagnostic], source: RuleSource) {
    CommandOutput.report(
      diagnostics.map(source.located), source: source.quotedText, fileName: source.displayName)
  }
}

/// Predicate diagnostics, written through ``Console``.
enum CommandOutput {
  /// Predicate diagnostics: compiler-style in text mode, records in JSON mode.
  static func report(_ diagnostics: [PredicateDiagnostic], source text: String, fileName: String) {
    guard !diagnostics.isEmpty else { return }
    Console.diagnostic(
      diagnostics.map { $0.rendered(source: text, fileName: fileName) }.joined(separator: "\n"),
      records: diagnostics.compactMap {
        try? Console.jsonObject($0.record(fileName: fileName)) as? [String: Any]
      }
    )
  }
}
