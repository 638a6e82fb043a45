import PropertyLists
import XcodeProjects

/// Why a plan could not be made: the same shape as ``/XcodeProjects/XcodeProjectError`` and the other
/// RuleKit errors (docs/design.md, "Errors").
///
/// Every error has a ``kind`` (a stable code, for an exit status or a script), a one-line ``message``, the
/// ``location`` it is about where there is one, a ``hint`` where the fix is clear, and the ``underlying``
/// error of the module that found the problem (a ``/PropertyLists/PropertyListError``, an
/// ``/XcodeProjects/XcodeProjectError``, a `PredicateSyntaxError` or an `ActivationRuleError`).
/// ``description`` is the compiler-style `file:line:column: error: message`.
///
/// A new kind is not a breaking change: switch over ``kind`` with a `default`.
public struct ConfiguratorError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The class of problem; the raw values are stable.
  public enum Kind: String, Sendable, Hashable {
    /// The Info.plist or entitlements file holds something other than a dictionary at its top level.
    case notADictionary = "not-a-dictionary"
    /// The extension's activation rule cannot be read (a syntax error) or edited.
    case activationRule = "activation-rule"
    /// The Xcode project cannot be read, or a target or configuration is not in it.
    case project
    /// A file cannot be read, parsed or written.
    case file
  }

  /// Where the problem is: a file, and the line and column when known.
  public typealias Location = FileLocation

  /// The class of problem.
  public var kind: Kind
  /// What is wrong, in one line.
  public var message: String
  /// Where, when the problem is in a file.
  public var location: Location?
  /// How to fix it, when there is an obvious way.
  public var hint: String?
  /// The error of the module that found the problem, when there is one. Not part of equality.
  public var underlying: (any Error & Sendable)?

  /// Creates an error.
  public init(
    _ kind: Kind, _ message: String, location: Location? = nil, hint: String? = nil,
    underlying: (any Error & Sendable)? = nil
  ) {
    self.kind = kind
    self.message = message
    self.location = location
    self.hint = hint
    self.underlying = underlying
  }

  /// `file:line:column: error: message`, `file: error: message`, or `error: message` without a location.
  public var description: String {
    (location.map { "\($0): " } ?? "") + "error: " + message
  }

  /// Equal when kind, message, location and hint are.
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.kind == rhs.kind && lhs.message == rhs.message && lhs.location == rhs.location && lhs.hint == rhs.hint
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(message)
    hasher.combine(location)
    hasher.combine(hint)
  }
}

extension ConfiguratorError {
  /// The file's top level is not a dictionary.
  static func notADictionary(file: String) -> Self {
    ConfiguratorError(
      .notADictionary, "the top level is not a dictionary; an Info.plist or entitlements file holds <dict>",
      location: Location(file: file))
  }

  /// An Xcode project error, with its message, location and hint.
  public static func project(_ error: XcodeProjectError) -> Self {
    ConfiguratorError(
      .project, error.message,
      location: error.location,
      hint: error.hint, underlying: error)
  }

  /// A property-list error (a file that cannot be read, parsed or written), with its path and position.
  public static func file(_ error: PropertyListError) -> Self {
    ConfiguratorError(
      .file, error.message,
      location: error.path.map {
        Location(file: $0, line: error.position?.line, column: error.position?.column)
      },
      hint: error.hint, underlying: error)
  }

  /// The underlying ``/XcodeProjects/XcodeProjectError`` of a ``Kind/project`` error.
  public var projectError: XcodeProjectError? { underlying as? XcodeProjectError }
  /// The underlying ``/PropertyLists/PropertyListError`` of a ``Kind/file`` error.
  public var propertyListError: PropertyListError? { underlying as? PropertyListError }
}
