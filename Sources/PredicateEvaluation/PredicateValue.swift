import PredicateSyntax

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A value a predicate is evaluated against, or one it computes along the way.
///
/// The cases mirror what JSON and property lists can hold. Booleans and integers are kept apart, so a
/// JSON `true` never turns into `1` (Darwin's `NSNumber` bridging would blur them); the evaluator still
/// compares them numerically where Apple's `NSNumber` does.
///
/// `==` is structural: `.integer(1)` and `.double(1)` are different values. Predicate equality, which
/// treats them as equal, is `isPredicateEqual(to:options:)`.
public enum PredicateValue: Sendable, Hashable {
  /// JSON `null`, a missing key, `NSNull`, `nil`.
  case null
  /// JSON `true`/`false`, plist `<true/>`/`<false/>`.
  case bool(Bool)
  /// A whole number that fits in 64 bits.
  case integer(Int)
  /// Any other number.
  case double(Double)
  case string(String)
  /// A plist `<date>`, or the result of `now()` or `CAST(…, 'NSDate')`.
  case date(Date)
  /// A plist `<data>`.
  case data(Data)
  /// A JSON or plist array; also what key paths over arrays, aggregates and SUBQUERY produce.
  case array([PredicateValue])
  /// A JSON object or plist dictionary: the values key paths look into. Its entries keep the order they
  /// were added in; equality ignores that order.
  case dictionary(PredicateDictionary)

  /// A dictionary value from a Swift dictionary, its entries in sorted key order: code written for the
  /// `[String: PredicateValue]` payload this case had builds unchanged.
  public static func dictionary(_ entries: [String: PredicateValue]) -> PredicateValue {
    .dictionary(PredicateDictionary(entries))
  }

  /// A short name of the value's type for error messages.
  public var typeName: String {
    switch self {
    case .null: "null"
    case .bool: "boolean"
    case .integer: "integer"
    case .double: "number"
    case .string: "string"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dictionary"
    }
  }

  /// The type name with "a" or "an", as error messages use it.
  public var typeNameWithArticle: String {
    switch self {
    case .integer, .array: "an \(typeName)"
    default: "a \(typeName)"
    }
  }

  /// The value as a `Double` when it is numeric (booleans count as 0 and 1, as `NSNumber` does).
  public var numericValue: Double? {
    switch self {
    case .integer(let value): Double(value)
    case .double(let value): value
    case .bool(let value): value ? 1 : 0
    default: nil
    }
  }

  /// Whether the value is null (a missing key, JSON `null`, `NULL` in a predicate).
  public var isNull: Bool {
    if case .null = self { return true }
    return false
  }

  /// The elements when the value is a collection: an array's elements or a dictionary's values.
  public var collectionElements: [PredicateValue]? {
    switch self {
    case .array(let elements): elements
    case .dictionary(let dictionary): dictionary.values
    default: nil
    }
  }
}

extension PredicateValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// `nil` is `null`, as `NSNull` is in a Cocoa collection.
  public init(nilLiteral: ()) { self = .null }
  /// `true` and `false` are Boolean values (an `NSNumber` of Boolean type in Cocoa).
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An integer literal is an integer value.
  public init(integerLiteral value: Int) { self = .integer(value) }
  /// A floating-point literal is a double value.
  public init(floatLiteral value: Double) { self = .double(value) }
  /// A string literal is a string value.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An array literal is an array of values, in order.
  public init(arrayLiteral elements: PredicateValue...) { self = .array(elements) }
  /// A dictionary literal is a dictionary, its entries in the order written; a repeated key keeps its last
  /// value.
  public init(dictionaryLiteral elements: (String, PredicateValue)...) {
    var dictionary = PredicateDictionary()
    dictionary.reserveCapacity(elements.count)
    for (key, value) in elements { dictionary[key] = value }
    self = .dictionary(dictionary)
  }
}

extension PredicateValue: CustomStringConvertible {
  /// The value written as JSON-like text (dates as ISO 8601, data as base64), for messages and traces.
  public var description: String {
    switch self {
    case .null: return "null"
    case .bool(let value): return value ? "true" : "false"
    case .integer(let value): return String(value)
    case .double(let value): return Self.format(value)
    case .string(let value): return Self.quote(value)
    case .date(let value): return Self.quote(value.formatted(.iso8601))
    case .data(let value): return Self.quote(value.base64EncodedString())
    case .array(let elements): return "[" + elements.map(\.description).joined(separator: ", ") + "]"
    case .dictionary(let dictionary):
      let members = dictionary.keys.sorted().map { key in
        Self.quote(key) + ": " + (dictionary[key] ?? .null).description
      }
      return "{" + members.joined(separator: ", ") + "}"
    }
  }

  static func format(_ value: Double) -> String {
    if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
      // Whole numbers keep one decimal ("3.0"), never an exponent; the sign of -0.0 is kept.
      return (value.sign == .minus ? "-" : "") + String(Int64(abs(value))) + ".0"
    }
    return String(value)
  }

  /// Strings are written as JSON writes them, the way `rulekit parse --format json` does.
  static func quote(_ text: String) -> String { SyntaxTreeJSON.quoted(text) }
}
