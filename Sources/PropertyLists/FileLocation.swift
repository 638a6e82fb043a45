/// A place in a file a user named, for diagnostics: the file, and the line and column when known.
///
/// The `location` of every RuleKit error that is about a file (`PropertyListError` aside, which predates it
/// and keeps `path` and `position`): `ActivationRuleError`, `ConfiguratorError`, `XcodeProjectError` and
/// build-setting diagnostics, so a caller prints or compares locations one way.
public struct FileLocation: Sendable, Hashable, CustomStringConvertible {
  /// The file, as the user named it (relative to the working directory where possible).
  public var file: String
  /// 1-based line; `nil` when unknown.
  public var line: Int?
  /// 1-based column in Unicode scalars; `nil` when unknown.
  public var column: Int?

  /// A location in `file`, at `line` and `column` when known.
  public init(file: String, line: Int? = nil, column: Int? = nil) {
    self.file = file
    self.line = line
    self.column = column
  }

  /// `file:line:column`, or as much of it as is known.
  public var description: String {
    guard let line else { return file }
    return "\(file):\(line):\(column ?? 1)"
  }
}
