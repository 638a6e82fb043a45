/// Literals for values written in code, such as a rule dictionary in a test:
/// `["NSExtensionActivationSupportsText": true, "NSExtensionActivationSupportsImageWithMaxCount": 3]`.
extension PropertyListValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral,
  ExpressibleByFloatLiteral, ExpressibleByBooleanLiteral, ExpressibleByArrayLiteral,
  ExpressibleByDictionaryLiteral
{
  public init(stringLiteral value: String) { self = .string(value) }
  public init(integerLiteral value: Int64) { self = .integer(value) }
  public init(floatLiteral value: Double) { self = .real(value) }
  public init(booleanLiteral value: Bool) { self = .bool(value) }
  public init(arrayLiteral elements: PropertyListValue...) { self = .array(elements) }
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self = .dictionary(PropertyListDictionary(elements.map { .init(key: $0.0, value: $0.1) }))
  }
}
