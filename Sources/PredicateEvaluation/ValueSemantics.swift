import PredicateSyntax

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Apple's value semantics shared by the tree-walking and the compiled evaluator, so the two can only
/// differ in how they walk the tree, never in what an operator means.
enum ValueSemantics {
  // MARK: Equality and ordering

  /// `isEqual:` as Foundation's value classes implement it: numbers compare numerically (a boolean is 0 or
  /// 1, as `NSNumber` has it), strings under the comparison's options, collections element by element.
  static func isEqual(_ lhs: PredicateValue, _ rhs: PredicateValue, _ strings: StringComparison) -> Bool {
    switch (lhs, rhs) {
    case (.null, .null): return true
    case (.null, _), (_, .null): return false
    case (.integer(let left), .integer(let right)): return left == right
    case (.bool(let left), .bool(let right)): return left == right
    case (.string(let left), .string(let right)):
      return strings.equal(strings.fold(left), strings.fold(right))
    case (.date(let left), .date(let right)): return left == right
    case (.data(let left), .data(let right)): return left == right
    case (.array(let left), .array(let right)):
      return left.count == right.count
        && zip(left, right).allSatisfy { isEqual($0, $1, StringComparison([])) }
    case (.dictionary(let left), .dictionary(let right)):
      return left.count == right.count
        && left.allSatisfy { key, value in
          right[key].map { isEqual(value, $0, StringComparison([])) } ?? false
        }
    default:
      if let left = lhs.numericValue, let right = rhs.numericValue { return left == right }
      return false
    }
  }

  /// The order of two values, `nil` when either is null (a comparison with null is simply false).
  static func order(
    _ lhs: PredicateValue, _ rhs: PredicateValue, _ strings: StringComparison, at range: SourceRange
  ) throws(EvaluationError) -> ComparisonResult? {
    switch (lhs, rhs) {
    case (.null, _), (_, .null): return nil
    case (.integer(let left), .integer(let right)): return compare(left, right)
    case (.string(let left), .string(let right)):
      let foldedLeft = strings.fold(left)
      let foldedRight = strings.fold(right)
      if strings.equal(foldedLeft, foldedRight) { return .orderedSame }
      return strings.less(foldedLeft, foldedRight) ? .orderedAscending : .orderedDescending
    case (.date(let left), .date(let right)): return compare(left, right)
    default:
      if let left = lhs.numericValue, let right = rhs.numericValue {
        if left.isNaN || right.isNaN { return nil }
        return compare(left, right)
      }
      throw EvaluationError(
        .typeMismatch, "cannot order \(lhs.typeNameWithArticle) against \(rhs.typeNameWithArticle)", at: range
      )
    }
  }

  private static func compare<T: Comparable>(_ lhs: T, _ rhs: T) -> ComparisonResult {
    lhs < rhs ? .orderedAscending : (lhs == rhs ? .orderedSame : .orderedDescending)
  }

  // MARK: Comparison operators

  /// Where the parts of a comparison were written, for errors.
  struct Site: Sendable {
    var lhs: SourceRange
    var rhs: SourceRange
    var op: SourceRange
  }

  /// One comparison of two values, without a quantifier. UTI operators are handled by the caller.
  static func compare(
    _ op: ComparisonOperator, _ lhs: PredicateValue, _ rhs: PredicateValue, _ strings: StringComparison,
    site: Site
  ) throws(EvaluationError) -> Bool {
    switch op {
    case .equalTo: return isEqual(lhs, rhs, strings)
    case .notEqualTo: return !isEqual(lhs, rhs, strings)
    case .lessThan: return try order(lhs, rhs, strings, at: site.op) == .orderedAscending
    case .lessThanOrEqualTo:
      let result = try order(lhs, rhs, strings, at: site.op)
      return result == .orderedAscending || result == .orderedSame
    case .greaterThan: return try order(lhs, rhs, strings, at: site.op) == .orderedDescending
    case .greaterThanOrEqualTo:
      let result = try order(lhs, rhs, strings, at: site.op)
      return result == .orderedDescending || result == .orderedSame
    case .between: return try between(lhs, rhs, strings, site: site)
    case .in: return try contains(rhs, lhs, strings, collectionRange: site.rhs, elementRange: site.lhs)
    case .contains: return try contains(lhs, rhs, strings, collectionRange: site.lhs, elementRange: site.rhs)
    case .beginsWith, .endsWith, .like, .matches, .utiConformsTo, .utiEquals:
      guard case .string(let text) = lhs, case .string(let pattern) = rhs else {
        if lhs.isNull || rhs.isNull { return false }
        throw stringOperandError(op, lhs, rhs, site: site)
      }
      switch op {
      case .beginsWith: return strings.hasPrefix(strings.fold(text), strings.fold(pattern))
      case .endsWith: return strings.hasSuffix(strings.fold(text), strings.fold(pattern))
      case .like: return LikePattern(strings.fold(pattern)).matches(strings.fold(text))
      case .matches:
        let regex = try regularExpression(pattern, strings, at: site.rhs)
        return try matches(regex, strings.foldsDiacritics ? strings.fold(text) : text, at: site.op)
      default:
        throw EvaluationError(.unsupported, "\(op.rawValue) needs a type registry", at: site.op)
      }
    }
  }

  static func stringOperandError(
    _ op: ComparisonOperator, _ lhs: PredicateValue, _ rhs: PredicateValue, site: Site
  ) -> EvaluationError {
    if case .string = lhs {
      return EvaluationError(
        .typeMismatch, "\(op.rawValue) needs a string on the right, found \(rhs.typeNameWithArticle)",
        at: site.rhs)
    }
    return EvaluationError(
      .typeMismatch, "\(op.rawValue) needs a string on the left, found \(lhs.typeNameWithArticle)",
      at: site.lhs)
  }

  /// `lhs BETWEEN {lower, upper}`, inclusive at both ends.
  static func between(
    _ lhs: PredicateValue, _ bounds: PredicateValue, _ strings: StringComparison, site: Site
  ) throws(EvaluationError) -> Bool {
    guard case .array(let pair) = bounds, pair.count == 2 else {
      if bounds.isNull { return false }
      throw EvaluationError(
        .invalidArgument, "BETWEEN needs a two-element array such as {1, 10}, found \(bounds.description)",
        at: site.rhs)
    }
    guard let lower = try order(lhs, pair[0], strings, at: site.op),
      let upper = try order(lhs, pair[1], strings, at: site.op)
    else { return false }
    return lower != .orderedAscending && upper != .orderedDescending
  }

  /// `collection CONTAINS element` and `element IN collection`: substring for two strings, membership for an
  /// array or a dictionary's values.
  static func contains(
    _ collection: PredicateValue, _ element: PredicateValue, _ strings: StringComparison,
    collectionRange: SourceRange, elementRange: SourceRange
  ) throws(EvaluationError) -> Bool {
    switch collection {
    case .null: return false
    case .string(let text):
      switch element {
      case .null: return false
      case .string(let part): return strings.contains(strings.fold(text), strings.fold(part))
      default:
        throw EvaluationError(
          .typeMismatch, "cannot look for \(element.typeNameWithArticle) inside a string", at: elementRange)
      }
    case .array(let elements):
      if case .string(let part) = element {
        // `tags CONTAINS "rust"`: the text folded once, and string elements compared without `isEqual`'s
        // general switch; any other element is compared as `isEqual` compares it.
        let folded = strings.fold(part)
        return elements.contains { candidate in
          if case .string(let text) = candidate { return strings.equal(strings.fold(text), folded) }
          return isEqual(candidate, element, strings)
        }
      }
      return elements.contains { isEqual($0, element, strings) }
    case .dictionary(let dictionary):
      return dictionary.values.contains { isEqual($0, element, strings) }
    default:
      throw EvaluationError(
        .typeMismatch, "expected a collection or a string, found \(collection.typeNameWithArticle)",
        at: collectionRange)
    }
  }

  // MARK: Regular expressions

  /// The compiled pattern for `MATCHES`; `[d]` folds the pattern as it folds the subject, `[c]` is PCRE2's own
  /// caseless mode (folding the pattern text would corrupt escapes such as `\D`).
  static func regularExpression(_ pattern: String, _ strings: StringComparison, at range: SourceRange)
    throws(EvaluationError) -> PCRE2Pattern
  {
    let text =
      strings.foldsDiacritics ? UnicodeFolding.fold(pattern, case: false, diacritics: true) : pattern
    do {
      return try PCRE2PatternCache.shared.pattern(text, caseInsensitive: strings.foldsCase)
    } catch {
      switch error {
      case .invalidPattern(let message, let offset):
        throw EvaluationError(
          .invalidRegularExpression, "invalid regular expression at offset \(offset): \(message)", at: range)
      case .limitExceeded(let message), .matchFailed(let message):
        throw EvaluationError(.invalidRegularExpression, message, at: range)
      }
    }
  }

  static func matches(_ regex: PCRE2Pattern, _ subject: String, at range: SourceRange)
    throws(EvaluationError) -> Bool
  {
    do {
      return try regex.matches(subject)
    } catch {
      switch error {
      case .limitExceeded(let message):
        throw EvaluationError(
          .regularExpressionLimit,
          "MATCHES gave up: the match exceeded \(message); simplify the pattern, for example remove a nested "
            + "quantifier such as (a+)+", at: range)
      case .invalidPattern(let message, _), .matchFailed(let message):
        throw EvaluationError(.invalidRegularExpression, message, at: range)
      }
    }
  }

  // MARK: Quantifiers

  /// The elements an `ANY`/`ALL`/`NONE` comparison ranges over; `nil` for null (no elements, but ALL is
  /// still true over them, as Apple's reimplementations have it).
  static func quantifiedElements(_ value: PredicateValue, _ quantifier: Quantifier, at range: SourceRange)
    throws(EvaluationError) -> [PredicateValue]
  {
    switch value {
    case .null: return []
    case .array(let elements): return elements
    case .dictionary(let dictionary): return dictionary.values
    default:
      throw EvaluationError(
        .typeMismatch,
        "\(quantifier.rawValue) needs a collection on the left, found \(value.typeNameWithArticle)",
        at: range)
    }
  }
}
