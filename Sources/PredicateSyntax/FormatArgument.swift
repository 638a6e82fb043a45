/// A value substituted for a `%` format specifier while parsing, as `NSPredicate(format:argumentArray:)` does.
///
/// Arguments are consumed in order, one per specifier. `%@` accepts any value; `%K` a key path (or a string
/// holding one); `%d %i %u %ld %lld %o %x %X %c` an integer (or a Boolean); `%f %e %g` a number;
/// `%s %S %c` a string.
public enum FormatArgument: Sendable, Hashable {
  case null
  case bool(Bool)
  case integer(Int)
  case double(Double)
  case string(String)
  /// A date as seconds since 2001-01-01 00:00:00 UTC; it becomes `CAST(seconds, "NSDate")`.
  case date(secondsSinceReferenceDate: Double)
  /// A collection; it becomes an aggregate `{…}` of the converted elements.
  case array([FormatArgument])
  /// A key path such as `address.city` or `items.@count`, for `%K`.
  case keyPath(String)

  var kindDescription: String {
    switch self {
    case .null: "null"
    case .bool: "a Boolean"
    case .integer: "an integer"
    case .double: "a floating-point number"
    case .string: "a string"
    case .date: "a date"
    case .array: "an array"
    case .keyPath: "a key path"
    }
  }
}
