/// One value element of an XML plist, with where it is in the file.
///
/// Offsets are UTF-8 byte offsets into ``PropertyListDocument/bytes``. For `<string>a</string>`,
/// ``elementRange`` covers the whole element and ``contentRange`` just `a`; for a self-closing element
/// (`<true/>`, `<dict/>`) ``contentRange`` is empty and sits at the end of the element.
public struct PropertyListNode: Sendable, Hashable {
  /// The element's kind.
  public enum Kind: String, Sendable, Hashable {
    case string, integer, real, bool, date, data, array, dictionary
  }

  /// What the element is.
  public var kind: Kind
  /// The whole element, from `<` of the start tag to `>` of the end tag.
  public var elementRange: Range<Int>
  /// The bytes between the start tag and the end tag.
  public var contentRange: Range<Int>
  /// Where the element starts.
  public var position: PropertyListPosition
  /// Whether the element is written `<name/>`.
  public var isSelfClosing: Bool
  /// The decoded value of a string, number, boolean, date or data element; `nil` for containers.
  public var scalar: PropertyListValue?
  /// The elements of an array, in order.
  public var elements: [PropertyListNode]
  /// The entries of a dictionary, in file order.
  public var entries: [PropertyListNodeEntry]

  /// The value this element and everything inside it stands for.
  public var value: PropertyListValue {
    switch kind {
    case .array:
      return .array(elements.map(\.value))
    case .dictionary:
      return .dictionary(PropertyListDictionary(entries.map { .init(key: $0.key, value: $0.value.value) }))
    default:
      return scalar ?? .string("")
    }
  }

  /// The entry for `key` in a dictionary element.
  public func entry(forKey key: String) -> PropertyListNodeEntry? {
    entries.last { $0.key == key }
  }
}

/// A `<key>` of a dictionary element and the value element that follows it.
public struct PropertyListNodeEntry: Sendable, Hashable {
  /// The decoded key.
  public var key: String
  /// The whole `<key>…</key>` element.
  public var keyRange: Range<Int>
  /// The bytes between `<key>` and `</key>`.
  public var keyContentRange: Range<Int>
  /// Where the `<key>` element starts.
  public var keyPosition: PropertyListPosition
  /// The value element.
  public var value: PropertyListNode
}
