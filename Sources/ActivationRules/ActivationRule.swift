import PredicateSyntax

/// An `NSExtensionActivationRule` value: a predicate string or the dictionary of
/// `NSExtensionActivationSupports…` keys.
public enum ActivationRule: Sendable, Hashable {
  /// A predicate, with the text it was parsed from (text edits need the original bytes).
  case predicate(PredicateNode, text: String)
  /// The dictionary form.
  case dictionary(ActivationDictionary)

  /// The rule as a predicate: itself, or the dictionary converted in `style`.
  public func predicate(style: DictionaryConversionStyle) -> PredicateNode {
    switch self {
    case .predicate(let node, _): node
    case .dictionary(let dictionary): DictionaryConverter.predicate(for: dictionary, style: style)
    }
  }
}
