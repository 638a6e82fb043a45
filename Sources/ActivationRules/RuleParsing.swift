import Foundation
import PredicateSyntax

extension ActivationRuleError {
  /// The error for a predicate that does not parse, positioned in the predicate text.
  init(_ error: PredicateSyntaxError) {
    var message = error.diagnostic.message
    if let fix = error.diagnostic.fix { message += " (fix: \(fix.title))" }
    self = .syntax(message: message, position: error.diagnostic.range.start)
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
  /// Syntax errors are positioned in the predicate text; ``RuleFile/filePosition(ofPredicateOffset:)`` maps
  /// them into the file.
  public init(file: RuleFile) throws(ActivationRuleError) {
    switch file.value {
    case .predicate(let text): self = .predicate(try Self.parsePredicate(text), text: text)
    case .dictionary(let dictionary): self = .dictionary(dictionary)
    }
  }

  /// Reads a rule file (predicate, rule plist or extension Info.plist) from disk.
  public static func load(_ url: URL) throws(ActivationRuleError) -> (file: RuleFile, rule: ActivationRule) {
    guard FileManager.default.fileExists(atPath: url.path) else { throw .missingFile(url.path) }
    let data: Data
    do {
      data = try Data(contentsOf: url)
    } catch {
      throw .inputOutput(path: url.path, message: error.localizedDescription)
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
