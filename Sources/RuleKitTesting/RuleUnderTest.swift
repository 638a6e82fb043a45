import ActivationRules
import Foundation
import PredicateSyntax
import PropertyLists
import RuleKitFoundation
import UniformTypes

/// An activation rule loaded for a test: from an extension's Info.plist, a rule plist, a predicate file,
/// predicate text or a dictionary of `NSExtensionActivationSupports…` keys.
///
/// Load a rule once and check it against as many hosts as you like:
///
/// ```swift
/// let share = try RuleUnderTest(contentsOf: "../../ShareExtension/Info.plist")
/// expectActivation(share, for: .safariPage)
/// expectNoActivation(share, for: .photos(count: 6))
/// ```
public struct RuleUnderTest: Sendable {
  /// Where the rule came from, as failure messages show it: a path, `<predicate>` or `<dictionary>`.
  public let source: String
  /// The rule as written.
  public let rule: ActivationRule
  /// How a dictionary rule is read (ignored for predicates).
  public let style: DictionaryConversionStyle
  /// The file the rule was read from, so explanations can point at lines inside it.
  let file: RuleFile?
  /// The predicate that is evaluated and explained: the rule itself, or a dictionary's printed conversion
  /// (printed so every clause in an explanation has text to show).
  let explained: ActivationRule
  private let evaluator: RuleEvaluator

  /// Loads the rule a file holds.
  ///
  /// - Parameters:
  ///   - path: an extension's Info.plist (the rule is read from `NSExtension › NSExtensionAttributes ›
  ///     NSExtensionActivationRule`), a plist whose root is the rule, or a predicate file. A relative path is
  ///     resolved against the directory of `sourceFile`, so tests can name files beside them.
  ///   - sourceFile: the test's own file; leave the default (`#filePath`).
  ///   - style: how a dictionary rule is read: `.apple` (the system's matching) or `.intune`.
  /// - Throws: `ActivationRuleError` when the file is missing, malformed, holds no rule,
  ///   or its predicate does not parse (the error carries the position).
  public init(
    contentsOf path: String, relativeTo sourceFile: String = #filePath,
    style: DictionaryConversionStyle = .apple
  ) throws(ActivationRuleError) {
    let url =
      path.hasPrefix("/")
      ? URL(fileURLWithPath: path)
      : URL(fileURLWithPath: sourceFile).deletingLastPathComponent().appendingPathComponent(path)
    try self.init(url: url.standardizedFileURL, style: style)
  }

  /// Loads the rule in the file at `url` (see ``init(contentsOf:relativeTo:style:)``).
  public init(url: URL, style: DictionaryConversionStyle = .apple) throws(ActivationRuleError) {
    let loaded = try ActivationRule.load(url)
    try self.init(source: url.path, rule: loaded.rule, file: loaded.file, style: style)
  }

  /// A rule given as predicate text, as it would appear in `NSExtensionActivationRule`.
  ///
  /// - Throws: `ActivationRuleError.syntax(message:position:)` when the text does not parse.
  public init(predicate text: String) throws(ActivationRuleError) {
    let file = RuleFile(path: "<predicate>", predicate: text)
    try self.init(source: file.path, rule: ActivationRule(file: file), file: file, style: .apple)
  }

  /// A rule in the dictionary form, for example
  /// `["NSExtensionActivationSupportsWebURLWithMaxCount": 1]`.
  public init(dictionary: ActivationDictionary, style: DictionaryConversionStyle = .apple)
    throws(ActivationRuleError)
  {
    try self.init(source: "<dictionary>", rule: .dictionary(dictionary), file: nil, style: style)
  }

  /// A rule in the dictionary form, given as property-list values (`Int`, `Bool`, `String`, `[String: Any]`,
  /// or Foundation's numbers), as a dictionary literal or `PropertyListSerialization` gives them.
  public init(dictionary: [String: Any], style: DictionaryConversionStyle = .apple)
    throws(ActivationRuleError)
  {
    let value: PropertyListValue
    do {
      value = try PropertyListValue(foundationObject: dictionary)
    } catch {
      throw .propertyList(error)
    }
    try self.init(dictionary: ActivationDictionary(propertyList: value.dictionaryValue ?? [:]), style: style)
  }

  private init(
    source: String, rule: ActivationRule, file: RuleFile?, style: DictionaryConversionStyle
  ) throws(ActivationRuleError) {
    self.source = source
    self.rule = rule
    self.style = style
    switch rule {
    case .predicate:
      self.file = file
      self.explained = rule
    case .dictionary:
      // Positions would point into the printed conversion, not the file, so they are dropped.
      self.file = nil
      let text = rule.text(style: style)
      self.explained = .predicate(try ActivationRule.parsePredicate(text), text: text)
    }
    self.evaluator = RuleEvaluator(explained, style: style, registry: file?.registry() ?? .system)
  }

  /// Whether the rule activates the extension for `context`.
  public func activates(for context: ExtensionContext) -> Bool {
    evaluator.accepts(context)
  }

  /// Whether the rule activates the extension when `preset`'s host shares its items.
  public func activates(for preset: HostPreset) -> Bool {
    evaluator.accepts(preset.context)
  }

  /// Where the rule starts, as `path:line:column`, or just ``source`` when there is no file.
  var location: String {
    guard let file, file.form != .predicateFile || source != "<predicate>" else { return source }
    let position = file.rulePosition
    return "\(source):\(position.line):\(position.column)"
  }
}
