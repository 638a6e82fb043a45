import PredicateSyntax
import PropertyLists

/// Why a rule could not be read, converted or edited.
///
/// Positions are in the file the rule came from when there is one (see ``RuleFile``), otherwise in the
/// predicate text.
public enum ActivationRuleError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The file does not exist.
  case missingFile(String)
  /// The file exists but cannot be read or written.
  case inputOutput(path: String, message: String)
  /// The file is larger than the most RuleKit reads for its kind; it was refused after reading at most one
  /// byte past the limit. `message` gives its size, the limit and what file was expected.
  case fileTooLarge(path: String, message: String)
  /// The bytes are not a property list Foundation can read.
  case malformedPropertyList(message: String)
  /// The JSON is not an extension context (or an expectations file).
  case malformedJSON(message: String)
  /// The JSON text is not JSON, or exceeds a limit of `PredicateValue.JSONLimits`, at `position` in the file.
  case jsonSyntax(message: String, position: SourcePosition)
  /// The property list cannot be read: malformed, too large or deep, or not UTF-8; the error has the file,
  /// the line and column, and a hint.
  case propertyList(PropertyListError)
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
    case .inputOutput(let path, let message), .fileTooLarge(let path, let message): "\(path): \(message)"
    case .malformedPropertyList(let message): "malformed property list: \(message)"
    case .malformedJSON(let message): "malformed JSON: \(message)"
    case .jsonSyntax(let message, _): "malformed JSON: \(message)"
    case .propertyList(let error): error.description
    case .ruleNotFound:
      "no NSExtension › NSExtensionAttributes › NSExtensionActivationRule in the property list (an app's "
        + "Info.plist has none: pass the extension's)"
    case .unexpectedRuleValue(let written):
      "NSExtensionActivationRule is \(written == .integer || written == .array ? "an" : "a") \(written.rawValue); "
        + "it must be a string (a predicate) or a dictionary (NSExtensionActivationSupports… keys)"
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
