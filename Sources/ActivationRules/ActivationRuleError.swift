import PredicateSyntax

/// Why a rule could not be read, converted or edited.
///
/// Positions are in the file the rule came from when there is one (see ``RuleFile``), otherwise in the
/// predicate text.
public enum ActivationRuleError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file does not exist.
  case missingFile(String)
  /// The file exists but cannot be read or written.
  case inputOutput(path: String, message: String)
  /// The bytes are not a property list Foundation can read.
  case malformedPropertyList(message: String)
  /// The JSON is not an extension context (or an expectations file).
  case malformedJSON(message: String)
  /// An Info.plist without `NSExtension › NSExtensionAttributes › NSExtensionActivationRule`.
  case ruleNotFound
  /// `NSExtensionActivationRule` holds neither a string nor a dictionary.
  case unexpectedRuleValue(ActivationDictionary.WrittenType)
  /// The predicate text does not parse.
  case syntax(message: String, position: SourcePosition)
  /// The injector produced text that does not parse to the tree it meant to build; nothing is written.
  case editVerificationFailed(String)

  public var description: String {
    switch self {
    case .missingFile(let path): "no such file: \(path)"
    case .inputOutput(let path, let message): "\(path): \(message)"
    case .malformedPropertyList(let message): "malformed property list: \(message)"
    case .malformedJSON(let message): "malformed JSON: \(message)"
    case .ruleNotFound:
      "no NSExtension › NSExtensionAttributes › NSExtensionActivationRule in the property list"
    case .unexpectedRuleValue(let written):
      "NSExtensionActivationRule is a \(written.rawValue); it must be a string or a dictionary"
    case .syntax(let message, _): message
    case .editVerificationFailed(let detail): "the edited rule does not say what was intended: \(detail)"
    }
  }

  /// Where the problem is, when it has a position.
  public var position: SourcePosition? {
    if case .syntax(_, let position) = self { return position }
    return nil
  }
}
