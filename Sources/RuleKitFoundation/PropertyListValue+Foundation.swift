// Conversions between PropertyLists' values and the object graphs of Foundation's PropertyListSerialization.
// They live here, not in PropertyLists, because NSNumber is in full Foundation only (not FoundationEssentials).
import Foundation
import PropertyLists

#if canImport(Darwin)
  import CoreFoundation
#endif

extension PropertyListValue {
  /// Converts what `PropertyListSerialization` returns into a value. Dictionary keys are sorted, since
  /// Foundation's dictionaries have no order.
  ///
  /// - Throws: ``PropertyListError/Kind/unsupportedValue`` for objects a property list cannot hold (such
  ///   as keyed-archiver UIDs) and integers beyond the 64-bit signed range.
  public init(foundationObject object: Any) throws(PropertyListError) {
    try self.init(foundationObject: object, depth: 0)
  }

  /// `depth` counts the enclosing containers, bounded by ``PropertyListLimits/maximumDepth`` as in XML.
  private init(foundationObject object: Any, depth: Int) throws(PropertyListError) {
    if type(of: object) == Bool.self, let flag = object as? Bool {
      self = .bool(flag)
    } else if let text = object as? String {
      self = .string(text)
    } else if let number = object as? NSNumber {
      self = try Self.number(number)
    } else if let date = object as? Date {
      self = .date(date)
    } else if let data = object as? Data {
      self = .data(data)
    } else if let elements = object as? [Any] {
      guard depth < PropertyListLimits.maximumDepth else { throw PropertyListLimits.tooDeep(at: nil) }
      var values: [PropertyListValue] = []
      for element in elements {
        values.append(try PropertyListValue(foundationObject: element, depth: depth + 1))
      }
      self = .array(values)
    } else if let dictionary = object as? [String: Any] {
      guard depth < PropertyListLimits.maximumDepth else { throw PropertyListLimits.tooDeep(at: nil) }
      var entries: [PropertyListDictionary.Entry] = []
      for key in dictionary.keys.sorted() {
        guard let element = dictionary[key] else { continue }
        entries.append(
          .init(key: key, value: try PropertyListValue(foundationObject: element, depth: depth + 1)))
      }
      self = .dictionary(PropertyListDictionary(entries))
    } else {
      throw PropertyListError(.unsupportedValue, "a \(type(of: object)) cannot be part of a property list")
    }
  }

  private static func number(_ number: NSNumber) throws(PropertyListError) -> PropertyListValue {
    #if canImport(Darwin)
      if CFGetTypeID(number) == CFBooleanGetTypeID() { return .bool(number.boolValue) }
    #endif
    switch String(cString: number.objCType) {
    case "c", "B":
      return .bool(number.boolValue)
    case "d", "f":
      return .real(number.doubleValue)
    case "Q", "L", "I", "S", "C":
      guard number.uint64Value <= UInt64(Int64.max) else {
        throw PropertyListError(.unsupportedValue, "the integer \(number) does not fit in 64 signed bits")
      }
      return .integer(number.int64Value)
    default:
      return .integer(number.int64Value)
    }
  }

  /// The Foundation object graph for `PropertyListSerialization`.
  public var foundationObject: Any {
    switch self {
    case .string(let text): text
    case .integer(let number): NSNumber(value: number)
    case .real(let number): NSNumber(value: number)
    case .bool(let flag): flag
    case .date(let date): date
    case .data(let data): data
    case .array(let elements): elements.map(\.foundationObject)
    case .dictionary(let dictionary):
      Dictionary(dictionary.entries.map { ($0.key, $0.value.foundationObject) }, uniquingKeysWith: { $1 })
    }
  }
}
