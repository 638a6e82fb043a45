/// How serious a diagnostic is.
public enum DiagnosticSeverity: String, Sendable, Hashable, Codable {
  case error
  case warning
}

/// A suggested edit that repairs the text a diagnostic points at.
public struct PredicateFix: Sendable, Hashable, Codable {
  /// What the edit does, for people: `replace with "`.
  public var title: String
  /// The text to replace; an empty range inserts.
  public var range: SourceRange
  /// The new text.
  public var replacement: String

  /// An edit titled `title` that puts `replacement` in place of the text at `range`.
  public init(title: String, range: SourceRange, replacement: String) {
    self.title = title
    self.range = range
    self.replacement = replacement
  }

  /// Applies the fix to the UTF-8 bytes of the text it was computed for.
  public func applied(to text: String) -> String {
    var bytes = Array(text.utf8)
    let lower = Swift.min(range.start.offset, bytes.count)
    let upper = Swift.min(Swift.max(range.end.offset, lower), bytes.count)
    bytes.replaceSubrange(lower..<upper, with: Array(replacement.utf8))
    return String(decoding: bytes, as: UTF8.self)
  }
}

/// One message about predicate text: where, how serious, what, and how to fix it when that is known.
public struct PredicateDiagnostic: Sendable, Hashable, Codable {
  /// Whether the text cannot be read (error) or was read but deserves attention (warning).
  public var severity: DiagnosticSeverity
  /// What is wrong, in one sentence without a trailing period.
  public var message: String
  /// The text the diagnostic points at.
  public var range: SourceRange
  /// The edit that repairs the text, when one is known.
  public var fix: PredicateFix?

  /// A diagnostic saying `message` about the text at `range`.
  public init(severity: DiagnosticSeverity, message: String, range: SourceRange, fix: PredicateFix? = nil) {
    self.severity = severity
    self.message = message
    self.range = range
    self.fix = fix
  }
}

/// Why a predicate could not be read (``PredicateSyntaxError/Kind``). Each kind has a precise message in the
/// error's diagnostic; the raw values are stable codes.
public enum PredicateSyntaxErrorKind: String, Sendable, Hashable, Codable, CaseIterable {
  case emptyInput
  case invalidUTF8
  case unexpectedCharacter
  case unterminatedString
  case typographicQuote
  case invalidEscape
  case invalidNumber
  case unexpectedToken
  case missingClosingDelimiter
  case unmatchedClosingDelimiter
  case trailingInput
  case subqueryVariableExpected
  case reservedWordAsIdentifier
  case invalidComparisonOption
  case missingFormatArgument
  case formatArgumentMismatch
  case unsupportedFormatSpecifier
  case nestingTooDeep
  case subqueryNestingTooDeep
  case inputTooLarge
  /// A function name spelt as Apple's selector (`sum:`, `add:to:`) without its parenthesised arguments.
  case functionArgumentsExpected
  /// XML entities (`&gt;`, `&quot;` …) in predicate text copied out of a plist; the fix decodes them.
  case xmlEscapedText
}

/// A syntax error: a typed value with the reason, a diagnostic (range, message, optional fix) and any
/// warnings collected before the error.
///
/// The fields live in one shared, immutable box, so the error is a single pointer wide: every `try` in the
/// recursive-descent parser reserves room for the error it may receive, and a small error keeps each level
/// of recursion small.
public struct PredicateSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
  /// The class of problem, named as in every RuleKit error (docs/design.md, "Errors").
  public typealias Kind = PredicateSyntaxErrorKind

  private final class Storage: Sendable {
    let reason: Kind
    let diagnostic: PredicateDiagnostic
    let warnings: [PredicateDiagnostic]

    init(reason: Kind, diagnostic: PredicateDiagnostic, warnings: [PredicateDiagnostic]) {
      self.reason = reason
      self.diagnostic = diagnostic
      self.warnings = warnings
    }
  }

  private var storage: Storage

  /// The class of problem.
  public var kind: Kind {
    get { storage.reason }
    set { storage = Storage(reason: newValue, diagnostic: diagnostic, warnings: warnings) }
  }

  /// The class of problem; renamed ``kind``.
  @available(*, deprecated, renamed: "kind")
  public var reason: Kind {
    get { kind }
    set { kind = newValue }
  }

  /// The error as a diagnostic: its message, the text it points at and a fix when one is known.
  public var diagnostic: PredicateDiagnostic {
    get { storage.diagnostic }
    set { storage = Storage(reason: kind, diagnostic: newValue, warnings: warnings) }
  }

  /// Warnings (lenient mode) emitted before parsing stopped.
  public var warnings: [PredicateDiagnostic] {
    get { storage.warnings }
    set { storage = Storage(reason: kind, diagnostic: diagnostic, warnings: newValue) }
  }

  /// An error of `kind` saying `message` about the text at `range`, after the lenient-mode `warnings` read
  /// before it.
  public init(
    _ kind: Kind, _ message: String, at range: SourceRange, fix: PredicateFix? = nil,
    warnings: [PredicateDiagnostic] = []
  ) {
    storage = Storage(
      reason: kind,
      diagnostic: PredicateDiagnostic(severity: .error, message: message, range: range, fix: fix),
      warnings: warnings)
  }

  /// Errors are equal when their kind, diagnostic and warnings are.
  public static func == (lhs: PredicateSyntaxError, rhs: PredicateSyntaxError) -> Bool {
    lhs.kind == rhs.kind && lhs.diagnostic == rhs.diagnostic && lhs.warnings == rhs.warnings
  }

  /// Hashes what `==` compares.
  public func hash(into hasher: inout Hasher) {
    hasher.combine(kind)
    hasher.combine(diagnostic)
    hasher.combine(warnings)
  }

  /// `line:column: error: message`, without a file name or source excerpt.
  public var description: String { "\(diagnostic.range.start): error: \(diagnostic.message)" }
}

/// The old name of ``PredicateSyntaxErrorKind``.
@available(*, deprecated, renamed: "PredicateSyntaxError.Kind")
public typealias PredicateSyntaxErrorReason = PredicateSyntaxErrorKind
