#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One value of an OpenStep (old-style) property list, with where its text is in the file.
///
/// Offsets are UTF-8 byte offsets into ``OpenStepDocument/bytes``. ``elementRange`` is the value's text: a
/// quoted string with its quotes, `<…>` data with its angle brackets, an array from `(` to `)`, a dictionary
/// from `{` to `}`. ``contentRange`` is what is inside those delimiters (an unquoted string's is its whole
/// text). Comments and whitespace are trivia: no node covers them, though a container's ranges include the
/// ones inside it. The file's outermost dictionary of a strings file (entries without braces) spans its
/// entries.
public struct OpenStepNode: Sendable, Hashable {
  /// The kind of value; the format has no numbers, booleans or dates.
  public enum Kind: String, Sendable, Hashable {
    case string, data, array, dictionary
  }

  /// What the value is.
  public var kind: Kind
  /// The value's text, delimiters included.
  public var elementRange: Range<Int>
  /// The text inside the delimiters: a quoted string's without its quotes; an unquoted string's whole text.
  public var contentRange: Range<Int>
  /// Where the value's text starts.
  public var position: PropertyListPosition
  /// Whether a string is written in quotes (`"…"` or `'…'`); a quoted string's text may hold escapes.
  public var isQuoted: Bool
  /// The decoded value of a string or data; `nil` for containers.
  public var scalar: PropertyListValue?
  /// The elements of an array, in order.
  public var elements: [OpenStepNode]
  /// The entries of a dictionary, in file order.
  public var entries: [OpenStepNodeEntry]

  /// Creates a node; the reader makes them, tests and editors may too.
  public init(
    kind: Kind, elementRange: Range<Int>, contentRange: Range<Int>, position: PropertyListPosition,
    isQuoted: Bool = false, scalar: PropertyListValue? = nil, elements: [OpenStepNode] = [],
    entries: [OpenStepNodeEntry] = []
  ) {
    self.kind = kind
    self.elementRange = elementRange
    self.contentRange = contentRange
    self.position = position
    self.isQuoted = isQuoted
    self.scalar = scalar
    self.elements = elements
    self.entries = entries
  }

  /// The value this node and everything inside it stands for: what the value reader returns for it.
  public var value: PropertyListValue {
    switch kind {
    case .array:
      return .array(elements.map(\.value))
    case .dictionary:
      return .dictionary(PropertyListDictionary(entries.map { .init(key: $0.key, value: $0.value.value) }))
    case .string, .data:
      return scalar ?? .string("")
    }
  }

  /// The decoded text of a string node; `nil` for other kinds.
  public var string: String? {
    if case .string(let text)? = scalar { return text }
    return nil
  }

  /// The entry for `key` in a dictionary node (the last one, should the key repeat).
  public func entry(forKey key: String) -> OpenStepNodeEntry? {
    entries.last { $0.key == key }
  }

  /// The value node for `key` in a dictionary node.
  public subscript(key: String) -> OpenStepNode? {
    entry(forKey: key)?.value
  }
}

/// A `key = value;` entry of an OpenStep dictionary.
public struct OpenStepNodeEntry: Sendable, Hashable {
  /// The decoded key.
  public var key: String
  /// The key token, quotes included when it is quoted.
  public var keyRange: Range<Int>
  /// The key's text inside its quotes (the whole token when unquoted).
  public var keyContentRange: Range<Int>
  /// Where the key token starts.
  public var keyPosition: PropertyListPosition
  /// The whole entry, from the key's first byte through the `;` (comments between them included).
  public var entryRange: Range<Int>
  /// The value node; for the `key;` shortcut, the key token read as a string.
  public var value: OpenStepNode

  /// Creates an entry; the reader makes them.
  public init(
    key: String, keyRange: Range<Int>, keyContentRange: Range<Int>, keyPosition: PropertyListPosition,
    entryRange: Range<Int>, value: OpenStepNode
  ) {
    self.key = key
    self.keyRange = keyRange
    self.keyContentRange = keyContentRange
    self.keyPosition = keyPosition
    self.entryRange = entryRange
    self.value = value
  }
}

/// An OpenStep (old-style) property list, such as a `project.pbxproj`, kept as its bytes plus a tree of
/// positioned nodes, for reading with positions and for editing the text in place.
///
/// The tree comes from the same reader as ``PropertyListFile``'s value of an OpenStep file, so
/// ``value`` equals that value; what the reader rejects, this rejects with the same error.
public struct OpenStepDocument: Sendable {
  /// The file's bytes, exactly as read.
  public let bytes: [UInt8]
  /// The file the document came from, used in error messages.
  public let path: String?
  /// The outermost value.
  public let root: OpenStepNode
  /// Duplicate keys accepted under ``PropertyListDuplicateKeyPolicy/keepLast`` (empty otherwise).
  public let duplicateKeyWarnings: [PropertyListDuplicateKey]
  let lines: LineTable

  /// Parses OpenStep text given as bytes.
  ///
  /// - Throws: ``PropertyListError`` with the file, line and column of the first problem.
  public init(
    bytes: [UInt8], path: String? = nil, duplicateKeys: PropertyListDuplicateKeyPolicy = .error
  ) throws(PropertyListError) {
    let lines = LineTable(bytes)
    do {
      (root, duplicateKeyWarnings) = try OpenStepReader.readNodes(
        bytes, lines: lines, duplicateKeys: duplicateKeys)
    } catch {
      throw error.inFile(path)
    }
    self.bytes = bytes
    self.path = path
    self.lines = lines
  }

  /// Parses OpenStep text given as data.
  public init(
    data: Data, path: String? = nil, duplicateKeys: PropertyListDuplicateKeyPolicy = .error
  ) throws(PropertyListError) {
    try self.init(bytes: [UInt8](data), path: path, duplicateKeys: duplicateKeys)
  }

  /// The value the whole document stands for.
  public var value: PropertyListValue { root.value }

  /// The line and column of a byte offset in ``bytes``.
  public func position(ofOffset offset: Int) -> PropertyListPosition {
    lines.position(of: max(0, min(offset, bytes.count)), in: bytes)
  }

  /// The text of a byte range of ``bytes`` (clamped to the file).
  public func text(of range: Range<Int>) -> String {
    let clamped = range.clamped(to: 0..<bytes.count)
    return String(decoding: bytes[clamped], as: UTF8.self)
  }

  /// The text of a 1-based line without its line break, for printing a diagnostic's source line.
  public func sourceLine(_ line: Int) -> String? {
    lines.text(ofLine: line, in: bytes)
  }

  /// The node at a key path, e.g. `["objects", "13B07F961A680F5B00A75B9A", "buildSettings"]`; `nil` when a
  /// component is missing or steps into a value that is not a container.
  public func node(at path: PropertyListPath) -> OpenStepNode? {
    path.node(from: root)
  }
}
