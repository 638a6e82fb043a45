import PredicateSyntax
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ActivationRuleError {
  /// The error for a predicate that does not parse, positioned in the predicate text.
  init(_ error: PredicateSyntaxError) {
    var message = error.diagnostic.message
    if let fix = error.diagnostic.fix { message += " (fix: \(fix.title))" }
    self = .syntax(message: message, position: error.diagnostic.range.start)
    underlying = error
  }
}

extension ActivationRule {
  /// Parses predicate text into a rule.
  public static func parsePredicate(_ text: String) throws(ActivationRuleError) -> PredicateNode {
    do {
      return try PredicateParser.parse(text)
    } catch {
      throw ActivationRuleError(error)
    }
  }

  /// The rule a file holds: its predicate parsed, or its dictionary.
  ///
  /// Syntax errors are positioned in the predicate text (``ActivationRuleError/position``) and in the file
  /// (``ActivationRuleError/location``).
  /// A syntax error's ``ActivationRuleError/location`` is its place in the file (line and column).
  public init(file: RuleFile) throws(ActivationRuleError) {
    switch file.value {
    case .predicate(let text):
      do {
        self = .predicate(try Self.parsePredicate(text), text: text)
      } catch {
        var located = error
        if let position = error.position {
          let inFile = file.filePosition(ofPredicateOffset: position.offset)
          located.location = ActivationRuleError.Location(
            file: file.path, line: inFile.line, column: inFile.column)
        }
        throw located
      }
    case .dictionary(let dictionary): self = .dictionary(dictionary)
    }
  }

  /// The largest rule file read: a property list's limit, which is above a predicate's, so either kind
  /// fits. A predicate file past `PredicateParser.Options.defaultMaximumInputBytes` is then refused by the
  /// parser with a position.
  public static let maximumFileBytes = Swift.max(
    PropertyListLimits.maximumFileBytes, PredicateParser.Options.defaultMaximumInputBytes)

  /// Reads a rule file (predicate, rule plist or extension Info.plist) from disk.
  ///
  /// A file larger than ``maximumFileBytes`` is refused before it is read
  /// (``ActivationRuleError/fileTooLarge(path:message:)``).
  public static func load(_ url: URL) throws(ActivationRuleError) -> (file: RuleFile, rule: ActivationRule) {
    let data = try FileLoading.data(at: url, limit: maximumFileBytes) { size in
      "the rule file \(size.exceeding(limit: maximumFileBytes)) "
        + "(\(BoundedFileReader.describe(limit: maximumFileBytes)), ActivationRule.maximumFileBytes); "
        + "check that this is the rule you meant: a predicate file (at most 1 MiB), a rule plist or an "
        + "extension's Info.plist, each a few kilobytes at most"
    }
    let file = try RuleFile(path: url.path, data: data)
    return (file, try ActivationRule(file: file))
  }

  /// The rule as text in the Intune guide's layout: a predicate's own text, or a dictionary converted in
  /// `style` and pretty-printed.
  public func text(style: DictionaryConversionStyle) -> String {
    switch self {
    case .predicate(_, let text): text
    case .dictionary(let dictionary):
      PredicatePrinter.pretty(DictionaryConverter.predicate(for: dictionary, style: style))
    }
  }
}

extension RuleLinter {
  /// Every finding for `file`, reading predicates with the package's parser.
  public func lint(_ file: RuleFile) -> [LintFinding] {
    lint(file, parse: ActivationRule.parsePredicate)
  }
}

extension TwinInjector {
  /// Adds twins to predicate text, verifying the edit with the package's parser.
  public static func inject(text: String) throws(ActivationRuleError) -> Result {
    let tree = try ActivationRule.parsePredicate(text)
    return try inject(text: text, tree: tree) { edited throws(ActivationRuleError) in
      try ActivationRule.parsePredicate(edited)
    }
  }
}

/// How the module's loaders read a file.
enum FileLoading {
  /// The bytes of the file at `url`, read through `BoundedFileReader` so a file over `limit` costs at most
  /// `limit + 1` bytes; `tooLarge` words the refusal from the file's size.
  static func data(at url: URL, limit: Int, tooLarge: (BoundedFileReader.Size) -> String)
    throws(ActivationRuleError) -> Data
  {
    do {
      return try BoundedFileReader.read(contentsOf: url.path, limit: limit)
    } catch {
      switch error {
      case .notFound: throw .missingFile(url.path)
      case .tooLarge(_, let size, _): throw .fileTooLarge(path: url.path, message: tooLarge(size))
      case .isDirectory, .unreadable:
        // ActivationRuleError has no field for a hint, so it follows the reason.
        throw .inputOutput(path: url.path, message: error.reason + (error.hint.map { "; \($0)" } ?? ""))
      }
    }
  }
}
