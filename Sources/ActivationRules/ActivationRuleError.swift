import PredicateSyntax
import PropertyLists

/// Why a rule could not be read, converted or edited: the same shape as the other RuleKit errors
/// (docs/design.md, "Errors").
///
/// Every error has a ``kind`` (a stable code), a one-line ``message``, the ``location`` in the file it came
/// from where there is one (file, line, column), a ``hint`` where the fix is clear and the ``underlying``
/// error of the module that found the problem (a `PropertyListError`, a `PredicateSyntaxError`). A syntax
/// error also has its ``position`` in the predicate text; ``RuleFile/filePosition(ofPredicateOffset:)``
/// maps it into the file, and ``ActivationRule/load(_:)`` does so into ``location``.
///
/// A new kind is not a breaking change: switch over ``kind`` with a `default`. The static members named
/// like the kinds (``missingFile(_:)``, ``ruleNotFound``, …) make the error of each kind.
public struct ActivationRuleError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The class of problem; the raw values are stable.
  public enum Kind: String, Sendable, Hashable {
    /// The file does not exist.
    case missingFile = "missing-file"
    /// The file exists but cannot be read or written.
    case inputOutput = "input-output"
    /// The file is larger than the most RuleKit reads for its kind; it was refused after reading at most
    /// one byte past the limit.
    case fileTooLarge = "file-too-large"
    /// The bytes are not a property list Foundation can read.
    case malformedPropertyList = "malformed-property-list"
    /// The JSON is not an extension context (or an expectations file).
    case malformedJSON = "malformed-json"
    /// The JSON text is not JSON, or exceeds a limit of `PredicateValue.JSONLimits`, at ``position``.
    case jsonSyntax = "json-syntax"
    /// The property list cannot be read: malformed, too large or deep, or not UTF-8; the underlying
    /// `PropertyListError` has the file, the line and column, and a hint.
    case propertyList = "property-list"
    /// An Info.plist without `NSExtension › NSExtensionAttributes › NSExtensionActivationRule`.
    case ruleNotFound = "rule-not-found"
    /// The rule or its keys are in the Info.plist, but where the system does not read them (at the root,
    /// directly in `NSExtension`, or loose in `NSExtensionAttributes`), at ``location``.
    case ruleMisplaced = "rule-misplaced"
    /// `NSExtensionActivationRule` holds neither a string nor a dictionary.
    case unexpectedRuleValue = "unexpected-rule-value"
    /// The predicate text does not parse, at ``position``.
    case syntax
    /// The injector produced text that does not parse to the tree it meant to build; nothing is written.
    case editVerificationFailed = "edit-verification-failed"
  }

  /// Where the problem is in a file: the file, and the line and column when known.
  public typealias Location = FileLocation

  /// The class of problem.
  public var kind: Kind
  /// What is wrong, in one line (without the file; see ``summary`` and ``description``).
  public var message: String
  /// Where in the file, when the error is about one.
  public var location: Location?
  /// For ``Kind/syntax`` and ``Kind/jsonSyntax``: the position in the predicate or JSON text.
  public var position: SourcePosition?
  /// How to fix it, when there is an obvious way.
  public var hint: String?
  /// The error of the module that found the problem, when there is one. Not part of equality.
  public var underlying: (any Error & Sendable)?

  /// Creates an error.
  public init(
    _ kind: Kind, _ message: String, location: Location? = nil, position: SourcePosition? = nil,
    hint: String? = nil, underlying: (any Error & Sendable)? = nil
  ) {
    self.kind = kind
    self.message = message
    self.location = location
    self.position = position
    self.hint = hint
    self.underlying = underlying
  }

  /// The compiler-style one-liner `file:line:column: error: summary`, as `ConfiguratorError` and
  /// `PropertyListError` print themselves, so `print(error)` keeps the place; just ``summary`` when the
  /// error has no ``location`` or its summary names the file already (I/O errors, property-list errors).
  public var description: String {
    switch kind {
    case .missingFile, .inputOutput, .fileTooLarge, .propertyList: return summary
    default:
      guard let location else { return summary }
      return "\(location): error: \(summary)"
    }
  }

  /// What is wrong, without a location: for callers that show the place themselves (RuleKit's CLI
  /// renders the source line and a caret). With the path for I/O errors, a prefix naming the format for
  /// malformed input, the property-list error's own text. Stable: reports and tests quote it.
  public var summary: String {
    switch kind {
    case .missingFile: "no such file: \(location?.file ?? "")"
    case .inputOutput, .fileTooLarge: "\(location?.file ?? ""): \(message)"
    case .malformedPropertyList: "malformed property list: \(message)"
    case .malformedJSON, .jsonSyntax: "malformed JSON: \(message)"
    case .propertyList: (underlying as? PropertyListError)?.description ?? message
    case .ruleNotFound, .ruleMisplaced, .unexpectedRuleValue, .syntax: message
    case .editVerificationFailed: "the edited rule does not say what was intended: \(message)"
    }
  }

  /// Equal when kind, message, location, position and hint are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.location == rhs.location
      && lhs.position == rhs.position && lhs.hint == rhs.hint
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(message)
    hasher.combine(location)
    hasher.combine(position)
    hasher.combine(hint)
  }

  /// The underlying `PropertyListError` of a ``Kind/propertyList`` error.
  public var propertyListError: PropertyListError? { underlying as? PropertyListError }
}

extension ActivationRuleError {
  /// The file at `path` does not exist.
  public static func missingFile(_ path: String) -> Self {
    Self(.missingFile, "no such file", location: Location(file: path))
  }

  /// The file at `path` cannot be read or written; `message` says why.
  public static func inputOutput(path: String, message: String) -> Self {
    Self(.inputOutput, message, location: Location(file: path))
  }

  /// The file at `path` is over the limit; `message` gives its size, the limit and what was expected.
  public static func fileTooLarge(path: String, message: String) -> Self {
    Self(.fileTooLarge, message, location: Location(file: path))
  }

  /// The bytes are not a property list; `message` says why.
  public static func malformedPropertyList(message: String) -> Self {
    Self(.malformedPropertyList, message)
  }

  /// The JSON is not what was expected; `message` says why.
  public static func malformedJSON(message: String) -> Self {
    Self(.malformedJSON, message)
  }

  /// The JSON text does not parse at `position`.
  public static func jsonSyntax(message: String, position: SourcePosition) -> Self {
    Self(.jsonSyntax, message, position: position)
  }

  /// A property list that cannot be read, at the error's file, line and column.
  public static func propertyList(_ error: PropertyListError) -> Self {
    Self(
      .propertyList, error.message,
      location: error.path.map {
        Location(file: $0, line: error.position?.line, column: error.position?.column)
      },
      hint: error.hint, underlying: error)
  }

  /// An Info.plist without `NSExtension › NSExtensionAttributes › NSExtensionActivationRule`.
  public static var ruleNotFound: Self {
    Self(
      .ruleNotFound,
      "no NSExtension › NSExtensionAttributes › NSExtensionActivationRule in the property list (an app's "
        + "Info.plist has none: pass the extension's)")
  }

  /// An extension's Info.plist without `NSExtensionActivationRule`, said for its kind of extension
  /// (`extensionPoint`, its `NSExtensionPointIdentifier`): a keyboard, widget or notification extension has
  /// no rule by design, while a share or action extension (or one that names no point) lacks the rule iOS
  /// offers it by.
  public static func ruleNotFound(extensionPoint: String?) -> Self {
    if let extensionPoint, !ExtensionPoint.activatedByRule.contains(extensionPoint) {
      return Self(
        .ruleNotFound,
        "this is the Info.plist of a \(extensionPoint) extension, a kind without NSExtensionActivationRule "
          + "(share and action extensions have one): there is no rule to check",
        hint: "name the share or action extension's Info.plist; --skip-files-without-rule passes over files "
          + "without a rule")
    }
    return Self(
      .ruleNotFound,
      "no NSExtensionActivationRule in NSExtension › NSExtensionAttributes: a share or action extension is "
        + "offered only where its rule accepts what is shared",
      hint: "add NSExtensionActivationRule to NSExtensionAttributes (a predicate string, or a dictionary of "
        + "NSExtensionActivationSupports… keys)")
  }

  /// `NSExtensionActivationRule` holds a `written` value, neither a string nor a dictionary.
  public static func unexpectedRuleValue(_ written: ActivationDictionary.WrittenType) -> Self {
    Self(
      .unexpectedRuleValue,
      "NSExtensionActivationRule is \(written == .integer || written == .array ? "an" : "a") \(written.rawValue); "
        + "it must be a string (a predicate) or a dictionary (NSExtensionActivationSupports… keys)")
  }

  /// The predicate text does not parse: `message` at `position` in the text.
  public static func syntax(message: String, position: SourcePosition) -> Self {
    Self(.syntax, message, position: position)
  }

  /// The injector's edit does not verify; `detail` says how.
  public static func editVerificationFailed(_ detail: String) -> Self {
    Self(.editVerificationFailed, detail)
  }
}
