/// A line and column in a type-declaration property list, both 1-based; the column counts UTF-8 bytes.
/// (Named apart from `PropertyLists.PropertyListPosition`, which also carries a byte offset, so a module
/// importing both needs no qualification.)
public struct DeclarationPosition: Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The 1-based line.
  public let line: Int
  /// The 1-based column.
  public let column: Int

  /// Creates a position.
  public init(line: Int, column: Int) {
    self.line = line
    self.column = column
  }

  /// `line:column`, as diagnostics print it.
  public var description: String { "\(line):\(column)" }

  /// Orders positions by line, then column.
  public static func < (lhs: DeclarationPosition, rhs: DeclarationPosition) -> Bool {
    (lhs.line, lhs.column) < (rhs.line, rhs.column)
  }
}

/// A problem found in an app's type declarations, located by its property-list key path.
public struct TypeDeclarationDiagnostic: Error, Sendable, Hashable, CustomStringConvertible {
  /// How serious the problem is.
  public enum Severity: String, Sendable, Hashable, Codable {
    /// The declaration (or the part named) was ignored.
    case error
    /// The declaration was used, but probably not as its author meant.
    case warning
  }

  /// Whether the declaration was ignored (error) or used as written (warning).
  public let severity: Severity
  /// Where the problem is, e.g. `UTExportedTypeDeclarations[2].UTTypeConformsTo`.
  public let keyPath: String
  /// What is wrong, in one sentence.
  public let message: String
  /// The position of the value at ``keyPath`` in the file, when the file is an XML property list.
  public var position: DeclarationPosition?

  /// Creates a diagnostic.
  public init(
    _ severity: Severity, at keyPath: String, _ message: String, position: DeclarationPosition? = nil
  ) {
    self.severity = severity
    self.keyPath = keyPath
    self.message = message
    self.position = position
  }

  /// `keyPath: severity: message`, or with a file, `file:line:column: severity: keyPath: message`.
  public var description: String { formatted(file: nil) }

  /// The compiler-style line for this diagnostic in `file`.
  public func formatted(file: String?) -> String {
    var location = file ?? ""
    if file != nil, let position { location += ":\(position.line):\(position.column)" }
    let prefix = location.isEmpty ? "" : location + ": "
    let path = keyPath.isEmpty ? "" : keyPath + ": "
    return "\(prefix)\(severity.rawValue): \(path)\(message)"
  }
}
