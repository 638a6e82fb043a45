#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// An XML property list kept as its original bytes plus a tree of positioned nodes.
///
/// Reading never changes the text: ``bytes`` is the input, and an edit (`applying(_:)`) replaces only
/// the bytes it must, so comments, indentation, key order, entity style, line endings and the header
/// survive, and a document nobody edited writes back byte-identical.
public struct PropertyListDocument: Sendable {
  /// The file's bytes, exactly as read or as produced by the last edit.
  public let bytes: [UInt8]
  /// The file the document came from, used in error messages.
  public let path: String?
  /// The outermost value element (inside `<plist>`).
  public let root: PropertyListNode
  /// How new text is written into this document: detected from the file.
  public let style: PropertyListTextStyle
  /// Duplicate keys accepted under ``PropertyListDuplicateKeyPolicy/keepLast`` (empty otherwise).
  public let duplicateKeyWarnings: [PropertyListDuplicateKey]
  /// What preprocessing found (directives, skipped text, includes not read) when the document was read
  /// with ``PropertyListPreprocessing``; `nil` otherwise.
  public let preprocessorReport: PropertyListPreprocessorReport?
  /// The preprocessing the document was read with, to read it again the same way after an edit.
  public let preprocessing: PropertyListPreprocessing?
  let lines: LineTable
  let duplicateKeyPolicy: PropertyListDuplicateKeyPolicy

  /// Parses XML plist bytes; with `preprocessing`, as Xcode reads a file it preprocesses
  /// (`INFOPLIST_PREPROCESS = YES`): see ``PropertyListPreprocessing``.
  ///
  /// Under ``PropertyListDuplicateKeyPolicy/keepLast`` the later of two equal keys wins, as it does when
  /// Xcode builds the Info.plist (see the policy's documentation).
  ///
  /// - Throws: ``PropertyListError`` with the file, line and column of the first problem; without
  ///   `preprocessing`, a preprocessor directive line is such a problem, with a hint naming the option.
  public init(
    bytes: [UInt8], path: String? = nil, duplicateKeys: PropertyListDuplicateKeyPolicy = .error,
    preprocessing: PropertyListPreprocessing? = nil
  ) throws(PropertyListError) {
    let lines = LineTable(bytes)
    var parser = XMLPlistParser(
      bytes: bytes, lines: lines, duplicateKeyPolicy: duplicateKeys, preprocessing: preprocessing)
    let result: XMLPlistParser.Result
    do {
      result = try parser.parse()
    } catch {
      throw error.inFile(path)
    }
    self.bytes = bytes
    self.path = path
    self.lines = lines
    self.root = result.root
    self.duplicateKeyWarnings = result.duplicateKeys
    self.duplicateKeyPolicy = duplicateKeys
    self.preprocessing = preprocessing
    self.preprocessorReport = result.preprocessorReport
    self.style = PropertyListTextStyle(
      indentation: Self.detectIndentation(root: result.root, scan: TextScan(bytes, lines)) ?? "\t",
      lineEnding: Self.detectLineEnding(bytes), entities: result.entityStyle)
  }

  /// Parses XML plist data; see ``init(bytes:path:duplicateKeys:preprocessing:)``.
  public init(
    data: Data, path: String? = nil, duplicateKeys: PropertyListDuplicateKeyPolicy = .error,
    preprocessing: PropertyListPreprocessing? = nil
  ) throws(PropertyListError) {
    try self.init(
      bytes: [UInt8](data), path: path, duplicateKeys: duplicateKeys, preprocessing: preprocessing)
  }

  /// Parses XML plist text; see ``init(bytes:path:duplicateKeys:preprocessing:)``.
  public init(
    text: String, path: String? = nil, duplicateKeys: PropertyListDuplicateKeyPolicy = .error,
    preprocessing: PropertyListPreprocessing? = nil
  ) throws(PropertyListError) {
    try self.init(
      bytes: Array(text.utf8), path: path, duplicateKeys: duplicateKeys, preprocessing: preprocessing)
  }

  /// The value the whole document stands for.
  public var value: PropertyListValue { root.value }

  /// The bytes as `Data`, ready to write.
  public var data: Data { Data(bytes) }

  /// The text of the document.
  public var text: String { String(decoding: bytes, as: UTF8.self) }

  /// The element at a key path, e.g. `["NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule"]`;
  /// `nil` when a component is missing or the path steps into a value that is not a container.
  public func node(at path: PropertyListPath) -> PropertyListNode? {
    path.node(from: root)
  }

  /// The dictionary entry a key path ends at (its last component must be a key): the `<key>` element's
  /// position, for messages about a key rather than its value.
  public func entry(at path: PropertyListPath) -> PropertyListNodeEntry? {
    guard case .key(let key)? = path.components.last, let parent = node(at: path.parent),
      parent.kind == .dictionary
    else { return nil }
    return parent.entry(forKey: key)
  }

  /// The text of a 1-based line without its line break, for printing a diagnostic's source line.
  public func sourceLine(_ line: Int) -> String? {
    lines.text(ofLine: line, in: bytes)
  }

  /// The line and column of a byte offset in ``bytes``.
  public func position(ofOffset offset: Int) -> PropertyListPosition {
    lines.position(of: max(0, min(offset, bytes.count)), in: bytes)
  }

  /// Where in the file a character of a `<string>` element's decoded text is.
  ///
  /// `decodedUTF8Offset` is a UTF-8 offset into the decoded string (what a predicate parser sees). Entities
  /// are accounted for: `&quot;` is one character decoded but six bytes in the file, so an error at the
  /// closing quote of `&quot;public.url&quot;` is reported at the `&` of the second `&quot;`. CDATA maps
  /// byte for byte. An offset equal to the decoded length maps to the start of the end tag. Returns `nil`
  /// when the offset is past the end of the text.
  public func sourcePosition(ofStringNode node: PropertyListNode, decodedUTF8Offset: Int)
    -> PropertyListPosition?
  {
    sourceOffset(inContent: node.contentRange, decodedUTF8Offset: decodedUTF8Offset).map {
      position(ofOffset: $0)
    }
  }

  /// Where in the file a character of a dictionary key's decoded text is; see
  /// ``sourcePosition(ofStringNode:decodedUTF8Offset:)``.
  public func sourcePosition(ofKeyIn entry: PropertyListNodeEntry, decodedUTF8Offset: Int)
    -> PropertyListPosition?
  {
    sourceOffset(inContent: entry.keyContentRange, decodedUTF8Offset: decodedUTF8Offset).map {
      position(ofOffset: $0)
    }
  }

  /// Where in the file each byte of a `<string>` element's decoded text is, as
  /// ``sourcePosition(ofStringNode:decodedUTF8Offset:)`` places it, by decoded UTF-8 offset: one walk over
  /// the element for every offset, where asking offset by offset walks it once each (a predicate's map of
  /// positions was quadratic in its length). The last entry, at the decoded length, is the end tag's start.
  public func sourceOffsets(ofStringNode node: PropertyListNode) -> [Int] {
    sourceOffsets(inContent: node.contentRange)
  }

  func sourceOffset(inContent content: Range<Int>, decodedUTF8Offset target: Int) -> Int? {
    let offsets = sourceOffsets(inContent: content)
    return offsets.indices.contains(target) ? offsets[target] : nil
  }

  /// Each decoded byte's offset in `content`, and `content.upperBound` for the end: an entity's decoded
  /// bytes all sit at its `&`, CDATA maps byte for byte.
  func sourceOffsets(inContent content: Range<Int>) -> [Int] {
    var offsets: [Int] = []
    offsets.reserveCapacity(content.count + 1)
    var index = content.lowerBound
    while index < content.upperBound {
      if bytes[index] == UInt8(ascii: "<"), matches("<![CDATA[", at: index),
        let end = search("]]>", from: index + 9, before: content.upperBound)
      {
        offsets.append(contentsOf: (index + 9)..<end)
        index = end + 3
      } else if bytes[index] == UInt8(ascii: "&"),
        let semicolon = bytes[index..<content.upperBound].firstIndex(of: 59)
      {
        let length = Self.decodedLength(ofEntity: bytes[(index + 1)..<semicolon])
        offsets.append(contentsOf: repeatElement(index, count: length))
        index = semicolon + 1
      } else {
        offsets.append(index)
        index += 1
      }
    }
    offsets.append(content.upperBound)
    return offsets
  }

  static func decodedLength(ofEntity name: ArraySlice<UInt8>) -> Int {
    guard name.first == UInt8(ascii: "#") else { return 1 }
    let text = String(decoding: name.dropFirst(), as: UTF8.self)
    let number =
      text.hasPrefix("x") || text.hasPrefix("X")
      ? UInt32(text.dropFirst(), radix: 16) : UInt32(text, radix: 10)
    return number.flatMap(Unicode.Scalar.init).map { String($0).utf8.count } ?? 1
  }

  // MARK: Style detection

  static func detectLineEnding(_ bytes: [UInt8]) -> String {
    guard let newline = bytes.firstIndex(of: 10) else { return "\n" }
    return newline > 0 && bytes[newline - 1] == 13 ? "\r\n" : "\n"
  }

  /// The indentation one nesting level adds, from the first container whose children sit on their own lines.
  static func detectIndentation(root: PropertyListNode, scan: TextScan) -> String? {
    var stack = [root]
    while let node = stack.popLast() {
      let childStarts =
        node.kind == .dictionary
        ? node.entries.map(\.keyRange.lowerBound) : node.elements.map(\.elementRange.lowerBound)
      let parentIndent = scan.indent(ofLineContaining: node.elementRange.lowerBound)
      for start in childStarts where scan.isFirstOnLine(start) {
        let childIndent = scan.indent(ofLineContaining: start)
        if childIndent.count > parentIndent.count, childIndent.hasPrefix(parentIndent) {
          return String(childIndent.dropFirst(parentIndent.count))
        }
      }
      stack.append(
        contentsOf: node.kind == .dictionary ? node.entries.map(\.value).reversed() : node.elements.reversed()
      )
    }
    return nil
  }

  func matches(_ literal: String, at offset: Int) -> Bool {
    let pattern = Array(literal.utf8)
    return offset + pattern.count <= bytes.count
      && bytes[offset..<(offset + pattern.count)].elementsEqual(pattern)
  }

  func search(_ literal: String, from start: Int, before end: Int) -> Int? {
    var offset = start
    while offset < end {
      if matches(literal, at: offset) { return offset }
      offset += 1
    }
    return nil
  }
}

/// Line-oriented questions about a byte buffer, for placing edits.
struct TextScan {
  let bytes: [UInt8]
  let lines: LineTable

  init(_ bytes: [UInt8], _ lines: LineTable) {
    self.bytes = bytes
    self.lines = lines
  }

  func lineStart(of offset: Int) -> Int {
    lines.starts[lines.lineIndex(of: offset)]
  }

  /// The spaces and tabs that start the line containing `offset`.
  func indent(ofLineContaining offset: Int) -> String {
    var index = lineStart(of: offset)
    var indent = ""
    while index < bytes.count, bytes[index] == 32 || bytes[index] == 9 {
      indent.unicodeScalars.append(Unicode.Scalar(bytes[index]))
      index += 1
    }
    return indent
  }

  /// Whether only spaces and tabs precede `offset` on its line.
  func isFirstOnLine(_ offset: Int) -> Bool {
    bytes[lineStart(of: offset)..<offset].allSatisfy { $0 == 32 || $0 == 9 }
  }

  /// From `offset`, skips spaces, tabs and comments that close on the same line; returns where the line
  /// break (or end of file) is when only those follow, else `nil`.
  func endOfLineAfterTrivia(from offset: Int) -> Int? {
    var index = offset
    while index < bytes.count {
      switch bytes[index] {
      case 32, 9:
        index += 1
      case 10, 13:
        return index
      case UInt8(ascii: "<")
      where index + 3 < bytes.count && bytes[(index + 1)...(index + 3)].elementsEqual("!--".utf8):
        var end = index + 4
        while end + 2 < bytes.count, !bytes[end...(end + 2)].elementsEqual("-->".utf8) {
          if bytes[end] == 10 || bytes[end] == 13 { return nil }
          end += 1
        }
        guard end + 2 < bytes.count else { return nil }
        index = end + 3
      default:
        return nil
      }
    }
    return index
  }

  /// Just past the line break at `offset` (`\r\n`, `\n` or `\r`).
  func afterLineBreak(at offset: Int) -> Int {
    guard offset < bytes.count else { return offset }
    if bytes[offset] == 13, offset + 1 < bytes.count, bytes[offset + 1] == 10 { return offset + 2 }
    return offset + 1
  }
}
