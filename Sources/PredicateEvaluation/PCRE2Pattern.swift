import CPCRE2
import Locking
import Synchronization

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A compiled PCRE2 pattern for `MATCHES`: a whole-string match in UTF mode with Unicode character classes.
///
/// The compiled code is immutable after compilation and PCRE2 allows matching it from many threads at once,
/// each with its own match data, which is why the class is `@unchecked Sendable`.
final class PCRE2Pattern: @unchecked Sendable {
  /// Why a pattern could not be compiled or matched.
  enum Failure: Error, Equatable {
    case invalidPattern(message: String, offset: Int)
    /// A bound of ``RegularExpressionLimits`` stopped the match; the text names the bound and its value.
    case limitExceeded(String)
    case matchFailed(String)
  }

  static let matchLimit = RegularExpressionLimits.matchLimit
  static let depthLimit = RegularExpressionLimits.depthLimit
  static let heapLimitKibibytes = RegularExpressionLimits.heapLimitKibibytes

  private let code: OpaquePointer
  private let matchContext: OpaquePointer
  /// A match data block kept for the next match. PCRE2 (10.41 and later) keeps its backtracking frames, at
  /// least 20 KiB, in the match data, so a block made for each match allocated them on every `MATCHES`.
  /// An atomic exchange rather than a lock: locking and unlocking cost as much as the allocation saved.
  private let spareMatchData = Atomic<OpaquePointer?>(nil)

  /// The compile options of every `MATCHES` pattern. The match covers the whole string (`ANCHORED`,
  /// `ENDANCHORED`, as ICU's `uregex_matches`), and, as on Apple's platforms, `.` matches a line break
  /// (`DOTALL`, ICU's `UREGEX_DOTALL`) while `^` and `$` also match at line boundaries (`MULTILINE`,
  /// `NSRegularExpressionAnchorsMatchLines`); docs/language.md gives the evidence.
  static let compileOptions = UInt32(
    PCRE2_UTF | PCRE2_UCP | PCRE2_ANCHORED | PCRE2_ENDANCHORED | PCRE2_DOTALL | PCRE2_MULTILINE)

  /// Compiles `pattern`; `caseInsensitive` adds `PCRE2_CASELESS`.
  init(_ pattern: String, caseInsensitive: Bool) throws(Failure) {
    var options = Self.compileOptions
    if caseInsensitive { options |= UInt32(PCRE2_CASELESS) }
    var errorCode: Int32 = 0
    var errorOffset: Int = 0
    let utf8 = Array(pattern.utf8)
    // ICU ends a line at LF, CR, CRLF, VT, FF, NEL, U+2028 and U+2029: PCRE2's NEWLINE_ANY, whatever
    // newline convention the installed libpcre2 was built with.
    guard let compileContext = pcre2_compile_context_create_8(nil) else {
      throw .matchFailed("PCRE2 could not allocate a compile context")
    }
    defer { pcre2_compile_context_free_8(compileContext) }
    pcre2_set_newline_8(compileContext, UInt32(PCRE2_NEWLINE_ANY))
    let compiled = utf8.withUnsafeBufferPointer { buffer in
      pcre2_compile_8(buffer.baseAddress, buffer.count, options, &errorCode, &errorOffset, compileContext)
    }
    guard let compiled else {
      throw .invalidPattern(message: Self.message(for: errorCode), offset: errorOffset)
    }
    guard let context = pcre2_match_context_create_8(nil) else {
      pcre2_code_free_8(compiled)
      throw .matchFailed("PCRE2 could not allocate a match context")
    }
    pcre2_set_match_limit_8(context, Self.matchLimit)
    pcre2_set_depth_limit_8(context, Self.depthLimit)
    pcre2_set_heap_limit_8(context, Self.heapLimitKibibytes)
    code = compiled
    matchContext = context
  }

  deinit {
    if let spare = spareMatchData.load(ordering: .acquiring) { pcre2_match_data_free_8(spare) }
    pcre2_match_context_free_8(matchContext)
    pcre2_code_free_8(code)
  }

  /// Whether the whole of `subject` matches.
  func matches(_ subject: String) throws(Failure) -> Bool {
    // Threads matching at once each take a block: the spare one, or a new one when another thread has it.
    let spare = spareMatchData.exchange(nil, ordering: .acquiring)
    guard let matchData = spare ?? pcre2_match_data_create_from_pattern_8(code, nil) else {
      throw .matchFailed("PCRE2 could not allocate match data")
    }
    defer {
      if let displaced = spareMatchData.exchange(matchData, ordering: .acquiringAndReleasing) {
        pcre2_match_data_free_8(displaced)
      }
    }
    var subject = subject
    // A Swift string is valid UTF-8, so PCRE2 need not check it again on every match.
    let result = subject.withUTF8 { buffer in
      pcre2_match_8(
        code, buffer.baseAddress, buffer.count, 0, UInt32(PCRE2_NO_UTF_CHECK), matchData, matchContext)
    }
    switch result {
    case let count where count >= 0: return true
    case PCRE2_ERROR_NOMATCH: return false
    case PCRE2_ERROR_MATCHLIMIT:
      throw .limitExceeded(
        "the PCRE2 match limit of \(Self.matchLimit) backtracking steps (RegularExpressionLimits.matchLimit)")
    case PCRE2_ERROR_DEPTHLIMIT:
      throw .limitExceeded(
        "the PCRE2 depth limit of \(Self.depthLimit) nested backtracking points (RegularExpressionLimits.depthLimit)"
      )
    case PCRE2_ERROR_HEAPLIMIT:
      throw .limitExceeded(
        "the PCRE2 heap limit of \(Self.heapLimitKibibytes) KiB (RegularExpressionLimits.heapLimitKibibytes)")
    default: throw .matchFailed(Self.message(for: result))
    }
  }

  private static func message(for errorCode: Int32) -> String {
    var buffer = [UInt8](repeating: 0, count: 256)
    let length = pcre2_get_error_message_8(errorCode, &buffer, buffer.count)
    guard length > 0 else { return "PCRE2 error \(errorCode)" }
    return String(decoding: buffer[0..<Int(length)], as: UTF8.self)
  }
}

/// The bounds on one `MATCHES` match, so a pathological pattern such as `(a+)+$` ends in an
/// ``EvaluationError`` of reason ``EvaluationError/Kind/regularExpressionLimit`` instead of a hang.
/// `docs/limits.md` lists them with every other limit of RuleKit.
public enum RegularExpressionLimits {
  /// PCRE2's match limit: how many times its internal match function may be entered (roughly, backtracking
  /// steps) in one match. A million is milliseconds of work; real `MATCHES` patterns use a few hundred.
  public static let matchLimit: UInt32 = 1_000_000
  /// PCRE2's depth limit: how deep the backtracking may nest in one match.
  public static let depthLimit: UInt32 = 10_000
  /// PCRE2's heap limit for one match's backtracking data, in KiB (about 20 MB).
  public static let heapLimitKibibytes: UInt32 = 20_000
}

/// Compiled patterns shared by every evaluation, so a pattern used in a hot loop is compiled once.
final class PCRE2PatternCache: Sendable {
  private struct Key: Hashable {
    var pattern: String
    var caseInsensitive: Bool
  }

  /// The cache every evaluator uses.
  static let shared = PCRE2PatternCache()

  /// Beyond this many patterns the cache starts over, so untrusted input cannot grow it without bound.
  private static let capacity = 512
  private let patterns = Locked<[Key: PCRE2Pattern]>([:])

  func pattern(_ pattern: String, caseInsensitive: Bool) throws(PCRE2Pattern.Failure) -> PCRE2Pattern {
    let key = Key(pattern: pattern, caseInsensitive: caseInsensitive)
    if let cached = patterns.withLock({ $0[key] }) { return cached }
    let compiled = try PCRE2Pattern(pattern, caseInsensitive: caseInsensitive)
    patterns.withLock { patterns in
      if patterns.count >= Self.capacity { patterns.removeAll(keepingCapacity: true) }
      patterns[key] = compiled
    }
    return compiled
  }

  /// How many patterns are cached (for tests of the cache itself).
  var count: Int { patterns.withLock { $0.count } }
}
