// The one module of RuleKit that imports all of Foundation, for code that already holds Foundation's object
// graphs; the other modules use FoundationEssentials, so the `rulekit` binary links no CoreFoundation or ICU.
import Foundation
import PredicateEvaluation

#if canImport(Darwin)
  import CoreFoundation
#endif

/// A property-list object that has no `PredicateValue` counterpart.
public struct UnsupportedPropertyListValue: Error, Sendable, Hashable, CustomStringConvertible {
  /// The Swift type that was found, such as `NSObject`.
  public var typeName: String
  /// The key path from the root to the value, such as `items.2.name`; empty for the root.
  public var keyPath: String

  /// Names the unsupported type and where it is, for an error message.
  public var description: String {
    keyPath.isEmpty
      ? "unsupported property-list value of type \(typeName)"
      : "unsupported property-list value of type \(typeName) at \(keyPath)"
  }
}

extension PredicateValue {
  /// Converts a value produced by `PropertyListSerialization` (or built from the same Foundation types).
  ///
  /// Booleans are recognised without `NSNumber` bridging: Darwin hands them over as `CFBoolean`, Linux as
  /// Swift `Bool`, and both must stay booleans rather than become 0 and 1.
  public init(propertyList object: Any) throws(UnsupportedPropertyListValue) {
    self = try Self.convert(object, keyPath: "")
  }

  private static func convert(_ object: Any, keyPath: String) throws(UnsupportedPropertyListValue)
    -> PredicateValue
  {
    func child(_ key: String) -> String { keyPath.isEmpty ? key : keyPath + "." + key }
    if type(of: object) == Bool.self, let flag = object as? Bool { return .bool(flag) }
    switch object {
    case let text as String: return .string(text)
    case let date as Date: return .date(date)
    case let data as Data: return .data(data)
    case let number as NSNumber: return number.predicateValue
    case let array as [Any]:
      var elements: [PredicateValue] = []
      elements.reserveCapacity(array.count)
      for (offset, element) in array.enumerated() {
        elements.append(try convert(element, keyPath: child(String(offset))))
      }
      return .array(elements)
    case let dictionary as [String: Any]:
      var members: [String: PredicateValue] = [:]
      for (key, value) in dictionary {
        members[key] = try convert(value, keyPath: child(key))
      }
      return .dictionary(PredicateDictionary(members))
    case is NSNull: return .null
    default:
      throw UnsupportedPropertyListValue(typeName: String(describing: type(of: object)), keyPath: keyPath)
    }
  }
}

extension NSNumber {
  fileprivate var predicateValue: PredicateValue {
    #if canImport(Darwin)
      if CFGetTypeID(self) == CFBooleanGetTypeID() { return .bool(boolValue) }
    #endif
    // "f" and "d" are float and double; every other Objective-C type code here is an integer.
    switch String(cString: objCType) {
    case "f", "d": return .double(doubleValue)
    case "Q", "L", "I":
      return uint64Value <= UInt64(Int.max)
        ? .integer(Int(truncatingIfNeeded: int64Value)) : .double(doubleValue)
    default: return .integer(Int(truncatingIfNeeded: int64Value))
    }
  }
}
