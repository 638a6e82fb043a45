import PredicateEvaluation
import PredicateSyntax
import UniformTypes

extension ExtensionContext {
  /// The object a rule is evaluated against: `{extensionItems: [{attachments: [{registeredTypeIdentifiers:
  /// […]}], attributedContentText: …}]}`, the shape Apple's PDF example shows (spec §B.6).
  public var predicateValue: PredicateValue {
    .dictionary([
      "extensionItems": .array(
        extensionItems.map { item in
          var fields: PredicateDictionary = [
            "attachments": .array(
              item.attachments.map {
                .dictionary([
                  "registeredTypeIdentifiers": .array($0.registeredTypeIdentifiers.map(PredicateValue.string))
                ])
              })
          ]
          if let text = item.attributedContentText { fields["attributedContentText"] = .string(text) }
          if let title = item.attributedTitle { fields["attributedTitle"] = .string(title) }
          return .dictionary(fields)
        })
    ])
  }
}

/// A rule ready to be evaluated many times (compiled once).
public struct RuleEvaluator: Sendable {
  /// The predicate evaluated (a dictionary rule's conversion in the chosen style).
  public let predicate: PredicateNode
  private let compiled: CompiledPredicate

  /// Compiles `predicate` against `registry`.
  public init(_ predicate: PredicateNode, registry: TypeRegistry = .system) {
    self.predicate = predicate
    self.compiled = PredicateEvaluator.compile(predicate, registry: registry)
  }

  /// Compiles `rule`, converting a dictionary in `style`.
  public init(
    _ rule: ActivationRule, style: DictionaryConversionStyle = .apple, registry: TypeRegistry = .system
  ) {
    self.init(rule.predicate(style: style), registry: registry)
  }

  /// Whether the rule activates for `context`. An evaluation error (a rule comparing a string with a
  /// number, say) means the system would not activate the extension either, so it reads as `false`.
  public func accepts(_ context: ExtensionContext) -> Bool {
    (try? compiled.evaluate(on: context.predicateValue)) ?? false
  }

  /// Whether the rule activates for a context already converted with ``ExtensionContext/predicateValue``
  /// (convert once when several rules look at the same context).
  public func accepts(value: PredicateValue) -> Bool {
    (try? compiled.evaluate(on: value)) ?? false
  }

  /// Whether the rule activates, with the evaluation error when there is one.
  public func evaluate(_ context: ExtensionContext) throws(EvaluationError) -> Bool {
    try compiled.evaluate(on: context.predicateValue)
  }
}
