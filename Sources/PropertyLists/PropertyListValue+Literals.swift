/// Literals for values written in code, such as a rule dictionary in a test:
/// `["NSExtensionActivationSupportsText": true, "NSExtensionActivationSupportsImageWithMaxCount": 3]`.
extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  /// A string literal is a `<string>`.
  public init(stringLiteral value: String) { self = .string(value) }
  /// An integer literal is an `<integer>`.
  public init(integerLiteral value: Int64) { self = .integer(value) }
  /// A floating-point literal is a `<real>`.
  public init(floatLiteral value: Double) { self = .real(value) }
  /// `true` and `false` are `<true/>` and `<false/>`.
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  /// An array literal is an `<array>`, in order.
  public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
  /// A dictionary literal is a `<dict>` in the order written; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self = .dictionary(PropertyListDictionary(elements.map { .init(key: $0.0, value: $0.1) }))
  }
}
