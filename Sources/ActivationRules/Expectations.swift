import PredicateSyntax
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An expectations file for `rulekit test`: rules × named contexts → whether each rule should activate.
///
/// ```json
/// {
///   "rules": {"share": "ShareExtension/Info.plist"},
///   "contexts": {"two-pdfs": "attachments/two-pdfs.json",
///                "a-url": {"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["public.url"]}]}]}},
///   "expectations": [{"rule": "share", "context": "files-pdf", "activates": true}]
/// }
/// ```
///
/// Rule paths and context paths are relative to the expectations file. A context name that is not defined
/// in `contexts` is looked up among the host presets (``HostPreset``).
public struct ExpectationsFile: Sendable, Hashable, Decodable {
  /// A context: a path to a JSON file, or the context itself.
  public enum ContextSource: Sendable, Hashable, Decodable {
    case path(String)
    case inline(ExtensionContext)

    /// Reads a JSON string as a path and a JSON object as an inline context.
    public init(from decoder: any Decoder) throws {
      let container = try decoder.singleValueContainer()
      if let path = try? container.decode(String.self) {
        self = .path(path)
      } else {
        self = .inline(try container.decode(ExtensionContext.self))
      }
    }
  }

  /// One expected outcome.
  public struct Expectation: Sendable, Hashable, Codable {
    /// A name from ``ExpectationsFile/rules``.
    public var rule: String
    /// A name from ``ExpectationsFile/contexts`` or a host preset.
    public var context: String
    /// Whether the rule should activate for the context.
    public var activates: Bool
  }

  /// Rule name → rule file path.
  public var rules: [String: String]
  /// Context name → context.
  public var contexts: [String: ContextSource]
  /// The expected outcomes, in the order they are checked and reported.
  public var expectations: [Expectation]

  private enum CodingKeys: String, CodingKey { case rules, contexts, expectations }

  /// Reads an expectations file; `contexts` may be left out.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    rules = try container.decode([String: String].self, forKey: .rules)
    contexts = try container.decodeIfPresent([String: ContextSource].self, forKey: .contexts) ?? [:]
    expectations = try container.decode([Expectation].self, forKey: .expectations)
  }

  /// Reads the JSON form.
  public init(json data: Data) throws(ActivationRuleError) {
    do {
      self = try JSONDecoder().decode(ExpectationsFile.self, from: data)
    } catch {
      throw .malformedJSON(message: String(describing: error))
    }
  }

  /// The outcome of one expectation.
  public struct Outcome: Sendable, Hashable {
    /// What was expected.
    public var expectation: Expectation
    /// What the rule did, or `nil` when the rule or context could not be loaded.
    public var actual: Bool?
    /// Why it could not be evaluated.
    public var problem: String?

    /// Whether the rule did what was expected.
    public var passed: Bool { actual == expectation.activates }
  }

  /// Runs every expectation. `loadRule` reads a rule file (path already resolved against `directory`) as a
  /// predicate; `loadContext` reads a context file.
  public func run(
    directory: URL, registry: TypeRegistry = .system,
    loadRule: (URL) throws(ActivationRuleError) -> PredicateNode,
    loadContext: (URL) throws(ActivationRuleError) -> ExtensionContext
  ) -> [Outcome] {
    run(
      directory: directory,
      loadEvaluator: { url throws(ActivationRuleError) in RuleEvaluator(try loadRule(url), registry: registry)
      },
      loadContext: loadContext)
  }

  /// Runs every expectation, each rule with the evaluator `loadEvaluator` makes for its file — for
  /// example with the types its Info.plist declares (``RuleFile/registry(extending:)``).
  public func run(
    directory: URL, loadEvaluator: (URL) throws(ActivationRuleError) -> RuleEvaluator,
    loadContext: (URL) throws(ActivationRuleError) -> ExtensionContext
  ) -> [Outcome] {
    var evaluators: [String: Result<RuleEvaluator, ActivationRuleError>] = [:]
    var resolved: [String: Result<ExtensionContext, ActivationRuleError>] = [:]
    return expectations.map { expectation in
      if evaluators[expectation.rule] == nil {
        evaluators[expectation.rule] = Result { () throws(ActivationRuleError) -> RuleEvaluator in
          guard let path = rules[expectation.rule] else {
            throw .malformedJSON(message: "no rule named \(expectation.rule) in \"rules\"")
          }
          return try loadEvaluator(directory.appendingPathComponent(path))
        }
      }
      if resolved[expectation.context] == nil {
        resolved[expectation.context] = Result { () throws(ActivationRuleError) -> ExtensionContext in
          switch contexts[expectation.context] {
          case .inline(let context)?: return context
          case .path(let path)?: return try loadContext(directory.appendingPathComponent(path))
          case nil:
            guard let preset = HostPreset.named(expectation.context) else {
              throw .malformedJSON(
                message: "no context named \(expectation.context) in \"contexts\" and no such preset")
            }
            return preset.context
          }
        }
      }
      switch (evaluators[expectation.rule], resolved[expectation.context]) {
      case (.success(let evaluator)?, .success(let context)?):
        return Outcome(expectation: expectation, actual: evaluator.accepts(context), problem: nil)
      case (.failure(let error)?, _), (_, .failure(let error)?):
        return Outcome(expectation: expectation, actual: nil, problem: error.summary)
      default:
        return Outcome(expectation: expectation, actual: nil, problem: "not evaluated")
      }
    }
  }

  /// A table of the failed outcomes (rule, context, expected, actual), or a one-line summary when all pass.
  public static func report(_ outcomes: [Outcome]) -> String {
    let failures = outcomes.filter { !$0.passed }
    guard !failures.isEmpty else { return "\(outcomes.count) expectations, all met" }
    func word(_ value: Bool?) -> String { value.map { $0 ? "activates" : "does not" } ?? "error" }
    let rows =
      [["rule", "context", "expected", "actual"]]
      + failures.map { outcome in
        [
          outcome.expectation.rule, outcome.expectation.context, word(outcome.expectation.activates),
          word(outcome.actual) + (outcome.problem.map { ": \($0)" } ?? ""),
        ]
      }
    let widths = (0..<4).map { column in rows.map { $0[column].count }.max() ?? 0 }
    let lines = rows.map { row in
      row.enumerated().map { column, cell in
        column == 3 ? cell : cell + String(repeating: " ", count: widths[column] - cell.count)
      }.joined(separator: "  ")
    }
    return (lines + ["\(failures.count) of \(outcomes.count) expectations not met"]).joined(separator: "\n")
  }
}
