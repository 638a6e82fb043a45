#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A property list value: what an XML, binary or OpenStep plist holds, independent of its file format.
///
/// Dictionaries keep their keys in file order (``PropertyListDictionary``), so a value read from an XML
/// plist can be compared with what the file says, entry by entry.
public enum PropertyListValue: Sendable, Hashable {
  /// `<string>`: the decoded text (entities resolved, CDATA unwrapped, whitespace kept).
  case string(String)
  /// `<integer>`: 64-bit signed, written in decimal or `0x` hexadecimal.
  case integer(Int64)
  /// `<real>`.
  case real(Double)
  /// `<true/>` or `<false/>`.
  case bool(Bool)
  // `indirect`: Date and Data are resilient (their size is known only at run time), and a payload of theirs
  // would give this enum, and every type holding one, a layout the runtime must build on first use.
  /// `<date>`, UTC to the second.
  indirect case date(Date)
  /// `<data>`: base64 in the file.
  indirect case data(Data)
  /// `<array>`.
  case array([PropertyListValue])
  /// `<dict>`, keys in file order.
  case dictionary(PropertyListDictionary)

  /// Values are equal when they hold the same thing; a NaN real equals a NaN real, so every value equals
  /// itself (a plist can hold `<real>nan</real>`, and comparing a document with its own re-read must hold).
  public static func == (lhs: PropertyListValue, rhs: PropertyListValue) -> Bool {
    switch (lhs, rhs) {
    case (.string(let left), .string(let right)): left == right
    case (.integer(let left), .integer(let right)): left == right
    case (.real(let left), .real(let right)): left == right || (left.isNaN && right.isNaN)
    case (.bool(let left), .bool(let right)): left == right
    case (.date(let left), .date(let right)): left == right
    case (.data(let left), .data(let right)): left == right
    case (.array(let left), .array(let right)): left == right
    case (.dictionary(let left), .dictionary(let right)): left == right
    default: false
    }
  }

  /// Hashes what `==` compares; every NaN hashes alike, as they compare equal here.
  public func hash(into hasher: inout Hasher) {
    switch self {
    case .string(let value):
      hasher.combine(0 as UInt8)
      hasher.combine(value)
    case .integer(let value):
      hasher.combine(1 as UInt8)
      hasher.combine(value)
    case .real(let value):
      hasher.combine(2 as UInt8)
      hasher.combine(value.isNaN ? Double.nan : value)
    case .bool(let value):
      hasher.combine(3 as UInt8)
      hasher.combine(value)
    case .date(let value):
      hasher.combine(4 as UInt8)
      hasher.combine(value)
    case .data(let value):
      hasher.combine(5 as UInt8)
      hasher.combine(value)
    case .array(let value):
      hasher.combine(6 as UInt8)
      hasher.combine(value)
    case .dictionary(let value):
      hasher.combine(7 as UInt8)
      hasher.combine(value)
    }
  }

  /// The element name this value has in an XML plist (`true` and `false` for booleans).
  public var elementName: String {
    switch self {
    case .string: "string"
    case .integer: "integer"
    case .real: "real"
    case .bool(let value): value ? "true" : "false"
    case .date: "date"
    case .data: "data"
    case .array: "array"
    case .dictionary: "dict"
    }
  }

  /// The string, when this value is one.
  public var stringValue: String? {
    if case .string(let value) = self { return value }
    return nil
  }

  /// The array elements, when this value is an array.
  public var arrayValue: [PropertyListValue]? {
    if case .array(let value) = self { return value }
    return nil
  }

  /// The dictionary, when this value is one.
  public var dictionaryValue: PropertyListDictionary? {
    if case .dictionary(let value) = self { return value }
    return nil
  }

  /// The value at a key path below this value, or `nil` when a component does not exist.
  public func value(at path: PropertyListPath) -> PropertyListValue? {
    var current = self
    for component in path.components {
      switch (component, current) {
      case (.key(let key), .dictionary(let dictionary)):
        guard let next = dictionary[key] else { return nil }
        current = next
      case (.index(let index), .array(let elements)):
        guard elements.indices.contains(index) else { return nil }
        current = elements[index]
      default:
        return nil
      }
    }
    return current
  }

  /// This value with dictionaries' entries sorted by key, recursively.
  ///
  /// Foundation's dictionaries have no order; comparing normalized values compares content only.
  public var normalizedKeyOrder: PropertyListValue {
    switch self {
    case .array(let elements):
      return .array(elements.map(\.normalizedKeyOrder))
    case .dictionary(let dictionary):
      let sorted = dictionary.entries
        .map { PropertyListDictionary.Entry(key: $0.key, value: $0.value.normalizedKeyOrder) }
        .sorted { $0.key < $1.key }
      return .dictionary(PropertyListDictionary(uniqueEntries: sorted))
    default:
      return self
    }
  }
}

/// A dictionary that keeps its keys in insertion (file) order. Keys are unique.
public struct PropertyListDictionary: Sendable, Hashable, ExpressibleByDictionaryLiteral {
  /// One key with its value.
  public struct Entry: Sendable, Hashable {
    /// The key.
    public var key: String
    /// The value for the key.
    public var value: PropertyListValue

    /// An entry mapping `key` to `value`.
    public init(key: String, value: PropertyListValue) {
      self.key = key
      self.value = value
    }
  }

  /// The entries in order.
  public private(set) var entries: [Entry]

  /// An empty dictionary.
  public init() {
    entries = []
  }

  /// A dictionary of the given entries; a later entry with a key already present replaces the earlier
  /// value in place, as Foundation does for duplicate keys.
  public init(_ entries: [Entry]) {
    var positions: [String: Int] = [:]
    var unique: [Entry] = []
    unique.reserveCapacity(entries.count)
    for entry in entries {
      if let position = positions[entry.key] {
        unique[position].value = entry.value
      } else {
        positions[entry.key] = unique.count
        unique.append(entry)
      }
    }
    self.entries = unique
  }

  package init(uniqueEntries: [Entry]) {
    entries = uniqueEntries
  }

  /// A dictionary with the entries in the order written; a repeated key keeps its last value.
  public init(dictionaryLiteral elements: (String, PropertyListValue)...) {
    self.init(elements.map { Entry(key: $0.0, value: $0.1) })
  }

  /// The keys in order.
  public var keys: [String] { entries.map(\.key) }

  /// The number of entries.
  public var count: Int { entries.count }

  /// Whether there are no entries.
  public var isEmpty: Bool { entries.isEmpty }

  /// The position of `key` in ``entries``.
  public func index(forKey key: String) -> Int? {
    entries.firstIndex { $0.key == key }
  }

  /// The value for `key`; setting `nil` removes the entry, setting a new key appends it.
  public subscript(key: String) -> PropertyListValue? {
    get { index(forKey: key).map { entries[$0].value } }
    set {
      switch (index(forKey: key), newValue) {
      case (let index?, let value?): entries[index].value = value
      case (let index?, nil): entries.remove(at: index)
      case (nil, let value?): entries.append(Entry(key: key, value: value))
      case (nil, nil): break
      }
    }
  }

  /// Inserts a new entry after the entry for `predecessor`, or at the end when `predecessor` is `nil` or
  /// absent. Replaces the value in place when `key` is already present.
  public mutating func insert(_ value: PropertyListValue, forKey key: String, after predecessor: String?) {
    if let existing = index(forKey: key) {
      entries[existing].value = value
      return
    }
    let position = predecessor.flatMap { index(forKey: $0) }.map { $0 + 1 } ?? entries.endIndex
    entries.insert(Entry(key: key, value: value), at: position)
  }

  /// Inserts a new entry at position `index` of ``entries``. Replaces the value in place when `key` is
  /// already present.
  public mutating func insert(_ value: PropertyListValue, forKey key: String, at index: Int) {
    if let existing = self.index(forKey: key) {
      entries[existing].value = value
      return
    }
    entries.insert(Entry(key: key, value: value), at: max(0, min(index, entries.endIndex)))
  }
}

/// One step of a ``PropertyListPath``: a dictionary key or an array index.
public enum PropertyListPathComponent: Sendable, Hashable, CustomStringConvertible,
  ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral
{
  /// A key of a dictionary.
  case key(String)
  /// A 0-based index into an array.
  case index(Int)

  /// A string literal is a dictionary key.
  public init(stringLiteral value: String) { self = .key(value) }
  /// An integer literal is an array index.
  public init(integerLiteral value: Int) { self = .index(value) }

  /// The key, or the index in brackets, as a path prints it.
  public var description: String {
    switch self {
    case .key(let key): key
    case .index(let index): "[\(index)]"
    }
  }
}

/// A key path from the root value, for example `["NSExtension", "NSExtensionAttributes"]` or
/// `["CFBundleURLTypes", 0, "CFBundleURLSchemes"]`.
public struct PropertyListPath: Sendable, Hashable, CustomStringConvertible, ExpressibleByArrayLiteral {
  /// The steps from the root, outermost first.
  public var components: [PropertyListPathComponent]

  /// The path through `components`, outermost first; an empty path is the root.
  public init(_ components: [PropertyListPathComponent]) {
    self.components = components
  }

  /// A path written as a literal: `["NSExtension", "NSExtensionAttributes"]`.
  public init(arrayLiteral elements: PropertyListPathComponent...) {
    components = elements
  }

  /// The path with one more component.
  public func appending(_ component: PropertyListPathComponent) -> PropertyListPath {
    PropertyListPath(components + [component])
  }

  /// The path without its last component; the root's parent is the root.
  public var parent: PropertyListPath { PropertyListPath(Array(components.dropLast())) }

  /// Readable form: `NSExtension › NSExtensionAttributes`, `(root)` for the empty path.
  public var description: String {
    components.isEmpty ? "(root)" : components.map(\.description).joined(separator: " › ")
  }
}
