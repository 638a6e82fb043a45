import PropertyLists

/// Why an Xcode project, an xcconfig file or a build-setting request could not be read.
///
/// Every error has a ``kind`` (a stable code a caller maps to an exit status), a one-line ``message``, the
/// ``location`` it is about where there is one (file, line, column) and, where the fix is clear, a ``hint``.
/// ``description`` is the compiler-style `file:line:column: error: message`.
public struct XcodeProjectError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The class of problem.
  public enum Kind: String, Sendable, Hashable {
    /// The project, pbxproj or xcconfig file does not exist.
    case fileNotFound = "file-not-found"
    /// The file exists but could not be read (a directory, permissions, too large).
    case unreadable
    /// A workspace or folder given for a project holds several projects; the hint lists them.
    case ambiguousProject = "ambiguous-project"
    /// The pbxproj is not a property list, or not one shaped like a project (no `objects`, no `rootObject`).
    case malformed
    /// An object id names no object in `objects`.
    case danglingReference = "dangling-reference"
    /// An id names an object of an unexpected `isa` (a target list that is not an `XCConfigurationList`).
    case unexpectedObject = "unexpected-object"
    /// A line of an xcconfig file Xcode would reject.
    case xcconfigSyntax = "xcconfig-syntax"
    /// A required `#include` names a file that does not exist.
    case includeNotFound = "include-not-found"
    /// Files that `#include` each other.
    ///
    /// Deprecated, no longer thrown: Xcode skips such an `#include` with a warning and reads on, and so does
    /// ``XCConfigFile`` (the line is listed in ``XCConfigFile/includeCycles``, and resolution warns with
    /// ``BuildSettingDiagnostic/Kind/includeCycle``). Kept so code that names it still compiles.
    case includeCycle = "include-cycle"
    /// No target has the name asked for.
    case targetNotFound = "target-not-found"
    /// The target has no build configuration with the name asked for.
    case configurationNotFound = "configuration-not-found"
    /// Input past a limit (nesting, include depth, file size).
    case limitExceeded = "limit-exceeded"
  }

  /// The class of problem.
  public var kind: Kind
  /// What is wrong, in one line.
  public var message: String
  /// Where, when the problem is in a file.
  public var location: BuildSettingLocation?
  /// How to fix it, when there is an obvious way.
  public var hint: String?

  /// Creates an error.
  public init(_ kind: Kind, _ message: String, location: BuildSettingLocation? = nil, hint: String? = nil) {
    self.kind = kind
    self.message = message
    self.location = location
    self.hint = hint
  }

  /// `file:line:column: error: message`, or `error: message` without a location.
  public var description: String {
    (location.map { "\($0): " } ?? "") + "error: " + message
  }
}

/// A warning or note found while resolving build settings; resolution went on.
public struct BuildSettingDiagnostic: Sendable, Hashable, CustomStringConvertible {
  /// How serious it is.
  public enum Severity: String, Sendable, Hashable {
    /// Xcode would warn (or the value may be wrong) but builds.
    case warning
    /// Information asked for, such as variables that expanded to nothing.
    case note
  }

  /// What it is about.
  public enum Kind: String, Sendable, Hashable {
    /// A base configuration (xcconfig) file is not in the checkout.
    case missingBaseConfiguration = "missing-base-configuration"
    /// A required `#include` of a base configuration names a missing file.
    case missingInclude = "missing-include"
    /// An `#include` of a base configuration skipped because it would read a file again while that file is
    /// being read (``XCConfigFile/IncludeCycle``); Xcode skips it too, with a warning.
    case includeCycle = "include-cycle"
    /// A line of a base configuration (xcconfig) that is not a setting or an `#include`
    /// (``XCConfigFile/problems``). Xcode reports it as an error and leaves the line out; so does
    /// resolution here, which goes on with the rest of the file.
    case xcconfigSyntax = "xcconfig-syntax"
    /// A base configuration, or a file it `#include`s, found only under another letter case
    /// (`Version.public.xcconfig` for `Version.Public.xcconfig`): read, as Xcode on macOS's case-insensitive
    /// volumes reads it; a case-sensitive checkout stops the build.
    case pathCaseMismatch = "path-case-mismatch"
    /// Settings that refer to each other in a loop.
    case referenceCycle = "reference-cycle"
    /// A `$(NAME)` nothing defines; it expanded to nothing, as in Xcode.
    case undefinedVariable = "undefined-variable"
    /// A `$(NAME:op)` with an operator Xcode does not have; the value was left as it was.
    case unknownOperator = "unknown-operator"
    /// Expansion stopped at the nesting or size limit.
    case limitExceeded = "limit-exceeded"
  }

  /// How serious it is.
  public var severity: Severity
  /// What it is about.
  public var kind: Kind
  /// One line saying what happened and what follows from it.
  public var message: String
  /// Where, when known.
  public var location: BuildSettingLocation?
  /// Other places the message names (the other members of a cycle).
  public var relatedLocations: [BuildSettingLocation]
  /// What to do about it.
  public var hint: String?
  /// For a missing base configuration: the settings whose resolved values may differ from Xcode's.
  public var affectedSettings: [String]

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, _ kind: Kind, _ message: String, location: BuildSettingLocation? = nil,
    relatedLocations: [BuildSettingLocation] = [], hint: String? = nil, affectedSettings: [String] = []
  ) {
    self.severity = severity
    self.kind = kind
    self.message = message
    self.location = location
    self.relatedLocations = relatedLocations
    self.hint = hint
    self.affectedSettings = affectedSettings
  }

  /// `file:line:column: warning: message`.
  public var description: String {
    (location.map { "\($0): " } ?? "") + "\(severity.rawValue): " + message
  }
}
