#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The keys Foundation's value classes answer through key-value coding, for the values RuleKit models that
/// are not collections: an `NSString` (`length`, `uppercaseString`, `intValue` …), an `NSNumber` (`stringValue`,
/// `intValue` …), an `NSDate` (`timeIntervalSinceReferenceDate` …) and `NSData` (`length`). On Darwin
/// `valueForKey:` calls the getter of that name; any other key raises `NSUndefinedKeyException`, which
/// RuleKit reports as an error naming the keys it knows (docs/language.md, "Key-value coding").
enum FoundationKeys {
  /// The value of `key` on `value`, or `nil` when Foundation's class for the value has no such getter.
  static func value(forKey key: String, of value: PredicateValue) -> PredicateValue? {
    if key == "self" { return value }
    switch value {
    case .string(let text): return stringKey(key, text)
    case .integer, .double, .bool: return numberKey(key, value)
    case .date(let date):
      switch key {
      case "timeIntervalSinceReferenceDate": return .double(date.timeIntervalSinceReferenceDate)
      case "timeIntervalSince1970": return .double(date.timeIntervalSince1970)
      default: return nil
      }
    case .data(let data): return key == "length" ? .integer(data.count) : nil
    default: return nil
    }
  }

  /// The keys `value(forKey:of:)` answers for the kind of `value`, for the error message.
  static func knownKeys(of value: PredicateValue) -> [String] {
    switch value {
    case .string:
      ["length", "description", "uppercaseString", "lowercaseString", "capitalizedString"] + numericKeys
    case .integer, .double, .bool: ["stringValue", "description"] + numericKeys
    case .date: ["timeIntervalSinceReferenceDate", "timeIntervalSince1970"]
    case .data: ["length"]
    default: []
    }
  }

  private static let numericKeys = [
    "intValue", "integerValue", "longLongValue", "doubleValue", "floatValue", "boolValue",
  ]

  private static func stringKey(_ key: String, _ text: String) -> PredicateValue? {
    switch key {
    case "description": .string(text)
    // NSString's length counts UTF-16 code units.
    case "length": .integer(text.utf16.count)
    case "uppercaseString": .string(text.uppercased())
    case "lowercaseString": .string(text.lowercased())
    case "capitalizedString": .string(capitalized(text))
    case "intValue", "integerValue", "longLongValue": .integer(leadingInteger(text))
    case "doubleValue", "floatValue": .double(leadingDouble(text))
    case "boolValue": .bool(stringBoolValue(text))
    default: nil
    }
  }

  private static func numberKey(_ key: String, _ value: PredicateValue) -> PredicateValue? {
    switch key {
    case "stringValue", "description": return .string(numberDescription(value))
    case "intValue", "integerValue", "longLongValue":
      switch value {
      case .integer: return value
      case .bool(let flag): return .integer(flag ? 1 : 0)
      case .double(let double):
        guard double.isFinite, abs(double) < 9.2e18 else { return .integer(0) }
        return .integer(Int(double))
      default: return nil
      }
    case "doubleValue", "floatValue": return value.numericValue.map(PredicateValue.double)
    case "boolValue": return .bool((value.numericValue ?? 0) != 0)
    default: return nil
    }
  }

  /// `-[NSNumber description]`: integers in decimal, booleans as 1 and 0, integral doubles without a
  /// fraction (`2`), other doubles in their shortest form (`0.1`).
  static func numberDescription(_ value: PredicateValue) -> String {
    switch value {
    case .integer(let integer): return String(integer)
    case .bool(let flag): return flag ? "1" : "0"
    case .double(let double):
      if double == double.rounded(), abs(double) < 1e15 { return String(Int(double)) }
      return String(describing: double)
    default: return ""
    }
  }

  /// `-[NSString intValue]`: skips leading white space, reads an optional sign and digits, stops at the
  /// first other character; 0 when there is no number (and the nearest bound on overflow).
  private static func leadingInteger(_ text: String) -> Int {
    var scalars = Substring(text).unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
    var negative = false
    if let sign = scalars.first, sign == "+" || sign == "-" {
      negative = sign == "-"
      scalars = scalars.dropFirst()
    }
    var result = 0
    for scalar in scalars {
      guard ("0"..."9").contains(scalar), let digit = Int(String(scalar)) else { break }
      let (shifted, overflow1) = result.multipliedReportingOverflow(by: 10)
      let (sum, overflow2) = shifted.addingReportingOverflow(digit)
      if overflow1 || overflow2 { return negative ? Int.min : Int.max }
      result = sum
    }
    return negative ? -result : result
  }

  /// `-[NSString doubleValue]`: the longest leading decimal number after white space; 0 when there is none.
  private static func leadingDouble(_ text: String) -> Double {
    let trimmed = text.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
    var best = 0.0
    var end = trimmed.startIndex
    while end < trimmed.endIndex {
      end = trimmed.index(after: end)
      if let value = Double(trimmed[trimmed.startIndex..<end]) { best = value }
    }
    return best
  }

  /// `-[NSString boolValue]`: true when, after white space, an optional sign and zeros, the text starts with
  /// `Y`, `y`, `T`, `t` or a digit 1–9.
  private static func stringBoolValue(_ text: String) -> Bool {
    var scalars = Substring(text).unicodeScalars.drop { $0 == " " || $0 == "\t" || $0 == "\n" }
    if let sign = scalars.first, sign == "+" || sign == "-" { scalars = scalars.dropFirst() }
    scalars = scalars.drop { $0 == "0" }
    guard let first = scalars.first else { return false }
    return "YyTt123456789".unicodeScalars.contains(first)
  }

  /// `-[NSString capitalizedString]`: the first letter of each word upper case, the rest lower case.
  private static func capitalized(_ text: String) -> String {
    var result = ""
    var atWordStart = true
    for character in text {
      if character.isLetter || character.isNumber {
        result += atWordStart ? character.uppercased() : character.lowercased()
        atWordStart = false
      } else {
        result.append(character)
        atWordStart = true
      }
    }
    return result
  }
}
