#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How a parse treats a key that appears twice in one dictionary.
public enum PropertyListDuplicateKeyPolicy: Sendable, Hashable {
  /// Fail with ``PropertyListError/Kind/duplicateKey`` naming both positions (the default: Foundation
  /// silently keeps the last value, which hides mistakes).
  case error
  /// Keep the last value, as Foundation does, and list the duplicates in
  /// ``PropertyListDocument/duplicateKeyWarnings``.
  ///
  /// This is also the value Xcode builds into an app: its Info.plist processing reads the file with
  /// `PropertyListSerialization` (swift-build, `SWBUtil/PropertyList.swift`, `fromBytesWithFormat`, used by
  /// `InfoPlistProcessorTaskAction`), and CoreFoundation's XML reader stores each entry of a `<dict>` with
  /// `CFDictionarySetValue` in file order, so a later key replaces an earlier one (`CFPropertyList.c`,
  /// `parseDictTag`). The tests check that Foundation on the test machine agrees.
  case keepLast
}

/// Which entities a file writes in string and key text, so new text can be written the same way.
public struct PropertyListEntityStyle: Sendable, Hashable {
  /// Write `"` as `&quot;`.
  public var escapesQuotationMark: Bool
  /// Write `'` as `&apos;`.
  public var escapesApostrophe: Bool
  /// Write `>` as `&gt;` (Apple's tools do; hand-written files often do not).
  public var escapesGreaterThan: Bool

  /// Apple's style: only `<`, `&` and `>` are escaped.
  public static let apple = PropertyListEntityStyle(
    escapesQuotationMark: false, escapesApostrophe: false, escapesGreaterThan: true)

  /// A style that escapes exactly the characters whose flags are set, besides `<` and `&`.
  public init(escapesQuotationMark: Bool, escapesApostrophe: Bool, escapesGreaterThan: Bool) {
    self.escapesQuotationMark = escapesQuotationMark
    self.escapesApostrophe = escapesApostrophe
    self.escapesGreaterThan = escapesGreaterThan
  }
}

/// Counts of how special characters are written in text, to pick a ``PropertyListEntityStyle``.
struct EntityUsage {
  var quotEntities = 0
  var rawQuotes = 0
  var aposEntities = 0
  var rawApostrophes = 0
  var gtEntities = 0
  var rawGreaterThans = 0

  var style: PropertyListEntityStyle {
    PropertyListEntityStyle(
      escapesQuotationMark: quotEntities > 0 && quotEntities >= rawQuotes,
      escapesApostrophe: aposEntities > 0 && aposEntities >= rawApostrophes,
      escapesGreaterThan: gtEntities >= rawGreaterThans)
  }
}

/// A duplicate key accepted under ``PropertyListDuplicateKeyPolicy/keepLast``.
public struct PropertyListDuplicateKey: Sendable, Hashable {
  /// The repeated key.
  public var key: String
  /// Where the key first appears.
  public var first: PropertyListPosition
  /// Where it appears again (its value is the one kept).
  public var duplicate: PropertyListPosition
}

/// Reads the plist subset of XML byte by byte, keeping every element's byte range.
///
/// XMLParser and libxml2 are not used: they normalise the text (entities, line ends) and forget where
/// things were, and libxml2 would resolve external entities. This reader understands exactly what a
/// plist needs and refuses DTD internal subsets and entity declarations outright.
struct XMLPlistParser {
  let bytes: [UInt8]
  let lines: LineTable
  let duplicateKeyPolicy: PropertyListDuplicateKeyPolicy
  var index = 0
  var entityUsage = EntityUsage()
  var duplicateKeys: [PropertyListDuplicateKey] = []
  /// The preprocessor's state when the file is read as Xcode preprocesses it; `nil` otherwise.
  var preprocessor: PreprocessorState?
  /// How many `<dict>`/`<array>` elements enclose the one being read; bounded by
  /// ``PropertyListLimits/maximumDepth`` because reading recurses once per level.
  var depth = 0
  let positionCache = PositionCache()

  /// The last position computed; a reference so that non-mutating helpers can update it.
  final class PositionCache {
    var last: PropertyListPosition?
  }

  struct Result {
    var root: PropertyListNode
    var entityStyle: PropertyListEntityStyle
    var duplicateKeys: [PropertyListDuplicateKey]
    var preprocessorReport: PropertyListPreprocessorReport?
  }

  init(
    bytes: [UInt8], lines: LineTable, duplicateKeyPolicy: PropertyListDuplicateKeyPolicy,
    preprocessing: PropertyListPreprocessing? = nil
  ) {
    self.bytes = bytes
    self.lines = lines
    self.duplicateKeyPolicy = duplicateKeyPolicy
    self.preprocessor = preprocessing.map(PreprocessorState.init)
  }

  static let valueElementNames = "plist, dict, array, key, string, integer, real, true, false, date, data"

  // MARK: Document structure

  mutating func parse() throws(PropertyListError) -> Result {
    if let invalid = firstInvalidUTF8Offset(bytes) {
      throw PropertyListError(
        .invalidEncoding,
        "the file is not valid UTF-8 (byte 0x\(String(bytes[invalid], radix: 16, uppercase: true)))",
        position: position(invalid), hint: "save the file as UTF-8")
    }
    if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
    try skipProlog()
    guard index < bytes.count else {
      throw error(
        at: index, "the file ends before any property list element", hint: "add <plist><dict/></plist>")
    }
    guard peek("<"), index + 1 < bytes.count, bytes[index + 1].isXMLNameByte else {
      throw error(at: index, "expected a <plist> element, found \(describeHere())")
    }
    let root: PropertyListNode
    let tagStart = index
    let tag = try readStartTag()
    if tag.name == "plist" {
      if tag.selfClosing {
        throw error(at: tagStart, "<plist> is empty", hint: "put one value (usually <dict>) inside <plist>")
      }
      try skipMisc()
      if peek("</") {
        throw error(at: index, "<plist> is empty", hint: "put one value (usually <dict>) inside <plist>")
      }
      root = try parseValueElement(context: tag.name)
      try skipMisc()
      if peek("</") {
        try readEndTag(expected: "plist", openedAt: tagStart)
      } else if index >= bytes.count {
        throw unclosed("plist", openedAt: tagStart)
      } else {
        throw error(at: index, "<plist> holds more than one value (found \(describeHere()))")
      }
    } else {
      index = tagStart
      root = try parseValueElement(context: nil)
    }
    try skipMisc()
    if index < bytes.count {
      throw error(at: index, "unexpected \(describeHere()) after the end of the property list")
    }
    var report = preprocessor?.report
    if let state = preprocessor {
      if !state.frames.isEmpty { throw unterminatedConditional(state) }
      report?.definitions = state.definitions
    }
    return Result(
      root: root, entityStyle: entityUsage.style, duplicateKeys: duplicateKeys, preprocessorReport: report)
  }

  /// XML declaration, comments, processing instructions and the DOCTYPE before the root element.
  mutating func skipProlog() throws(PropertyListError) {
    while true {
      skipWhitespace()
      if try skipPreprocessorTrivia() {
        continue
      } else if peek("<?") {
        try skipProcessingInstruction()
      } else if peek("<!--") {
        try skipComment()
      } else if peek("<!DOCTYPE") {
        try skipDoctype()
      } else if peek("<!ENTITY") {
        throw forbiddenEntity(at: index)
      } else {
        return
      }
    }
  }

  /// Whitespace, comments and processing instructions between elements.
  mutating func skipMisc() throws(PropertyListError) {
    while true {
      skipWhitespace()
      if try skipPreprocessorTrivia() {
        continue
      } else if peek("<!--") {
        try skipComment()
      } else if peek("<?") {
        try skipProcessingInstruction()
      } else if peek("<!ENTITY") {
        throw forbiddenEntity(at: index)
      } else if peek("<!DOCTYPE") {
        throw error(at: index, "a DOCTYPE can only come before the <plist> element")
      } else {
        return
      }
    }
  }

  mutating func skipProcessingInstruction() throws(PropertyListError) {
    let start = index
    guard let end = find("?>", from: index + 2) else {
      throw error(at: start, "processing instruction is not closed", hint: "end it with ?>")
    }
    let body = Array(bytes[(start + 2)..<end])
    let isDeclaration = body.starts(with: Array("xml".utf8)) && (body.count == 3 || body[3].isXMLWhitespace)
    if isDeclaration {
      guard let attributes = Self.declarationAttributes(body.dropFirst(3)), attributes["version"] != nil
      else {
        throw error(
          at: start, "malformed XML declaration",
          hint: "write <?xml version=\"1.0\" encoding=\"UTF-8\"?>")
      }
      let encoding = attributes["encoding"] ?? "UTF-8"
      let lowered = encoding.lowercased()
      if lowered != "utf-8" && lowered != "utf8" && lowered != "us-ascii" && lowered != "ascii" {
        throw error(
          at: start, "the XML declaration says encoding \"\(encoding)\"; only UTF-8 is supported",
          hint: "convert the file to UTF-8 and write encoding=\"UTF-8\"")
      }
    }
    index = end + 2
  }

  /// The `name="value"` pairs of an XML declaration, or `nil` when they are malformed.
  static func declarationAttributes(_ text: ArraySlice<UInt8>) -> [String: String]? {
    var attributes: [String: String] = [:]
    var index = text.startIndex
    func skipWhitespace() {
      while index < text.endIndex, text[index].isXMLWhitespace { index += 1 }
    }
    while true {
      skipWhitespace()
      guard index < text.endIndex else { return attributes }
      let nameStart = index
      while index < text.endIndex, text[index].isXMLNameByte { index += 1 }
      let name = String(decoding: text[nameStart..<index], as: UTF8.self)
      skipWhitespace()
      guard !name.isEmpty, index < text.endIndex, text[index] == UInt8(ascii: "=") else { return nil }
      index += 1
      skipWhitespace()
      guard index < text.endIndex, text[index] == UInt8(ascii: "\"") || text[index] == UInt8(ascii: "'"),
        let close = text[(index + 1)...].firstIndex(of: text[index])
      else { return nil }
      attributes[name] = String(decoding: text[(index + 1)..<close], as: UTF8.self)
      index = close + 1
      guard index == text.endIndex || text[index].isXMLWhitespace else { return nil }
    }
  }

  mutating func skipComment() throws(PropertyListError) {
    let start = index
    guard let end = find("-->", from: index + 4) else {
      throw error(at: start, "comment is not closed", hint: "end it with -->")
    }
    index = end + 3
  }

  /// `<!DOCTYPE name PUBLIC "…" "…">` or `SYSTEM "…"`; an internal subset `[…]` is refused. The
  /// identifiers are never fetched.
  mutating func skipDoctype() throws(PropertyListError) {
    let start = index
    index += "<!DOCTYPE".utf8.count
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: ">") {
        index += 1
        return
      }
      if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        guard let close = bytes[(index + 1)...].firstIndex(of: byte) else { break }
        // Apple's reader ends the DOCTYPE at the first `>`, quoted or not: refuse markup in identifiers.
        if let markup = bytes[(index + 1)..<close].firstIndex(where: {
          $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
        }) {
          throw error(
            at: markup, "a DOCTYPE identifier contains \"\(Character(Unicode.Scalar(bytes[markup])))\"")
        }
        index = close + 1
        continue
      }
      if byte == UInt8(ascii: "[") {
        if find("<!ENTITY", from: index) != nil {
          throw forbiddenEntity(at: find("<!ENTITY", from: index) ?? index)
        }
        throw PropertyListError(
          .forbiddenDeclaration, "DOCTYPE internal subset is not allowed in a property list",
          position: position(index),
          hint: "remove the [ … ] part of the DOCTYPE; property lists need no declarations")
      }
      index += 1
    }
    throw error(at: start, "DOCTYPE is not closed", hint: "end it with >")
  }

  func forbiddenEntity(at offset: Int) -> PropertyListError {
    PropertyListError(
      .forbiddenDeclaration,
      "entity declarations are not allowed in a property list (nothing is fetched or expanded)",
      position: position(offset), hint: "remove the <!ENTITY …> declaration and write the text itself")
  }

  // MARK: Elements

  struct StartTag {
    var name: String
    var selfClosing: Bool
    /// Offset just past the tag's `>`.
    var end: Int
  }

  /// Reads `<name attr="…">` or `<name/>` at `index`.
  mutating func readStartTag() throws(PropertyListError) -> StartTag {
    let start = index
    index += 1
    let nameStart = index
    while index < bytes.count, bytes[index].isXMLNameByte { index += 1 }
    let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
    while true {
      skipWhitespace()
      guard index < bytes.count else {
        throw error(at: start, "the file ends inside the <\(name)> tag", hint: "close the tag with >")
      }
      if peek("/>") {
        index += 2
        return StartTag(name: name, selfClosing: true, end: index)
      }
      if peek(">") {
        index += 1
        return StartTag(name: name, selfClosing: false, end: index)
      }
      let attributeStart = index
      while index < bytes.count, bytes[index].isXMLNameByte { index += 1 }
      skipWhitespace()
      guard index > attributeStart, peek("=") else {
        throw error(at: attributeStart, "malformed attribute in the <\(name)> tag")
      }
      index += 1
      skipWhitespace()
      guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") || bytes[index] == UInt8(ascii: "'"),
        let close = bytes[(index + 1)...].firstIndex(of: bytes[index])
      else {
        throw error(at: attributeStart, "attribute value in the <\(name)> tag must be quoted")
      }
      // `<` is not XML in an attribute value, and Apple's reader also stops at `>`.
      if let markup = bytes[(index + 1)..<close].firstIndex(where: {
        $0 == UInt8(ascii: "<") || $0 == UInt8(ascii: ">")
      }) {
        throw error(
          at: markup,
          "attribute value in the <\(name)> tag contains \"\(Character(Unicode.Scalar(bytes[markup])))\"")
      }
      index = close + 1
    }
  }

  /// Reads `</expected>` at `index`, or fails naming both tags.
  mutating func readEndTag(expected: String, openedAt openOffset: Int) throws(PropertyListError) {
    let start = index
    index += 2
    let nameStart = index
    while index < bytes.count, bytes[index].isXMLNameByte { index += 1 }
    let name = String(decoding: bytes[nameStart..<index], as: UTF8.self)
    skipWhitespace()
    guard peek(">") else {
      throw error(at: start, "malformed end tag </\(name)", hint: "close the tag with >")
    }
    index += 1
    if name != expected {
      let opened = position(openOffset)
      throw error(
        at: start, "found </\(name)> where </\(expected)> was expected (<\(expected)> opened at \(opened))",
        hint: "close <\(expected)> before </\(name)>")
    }
  }

  /// Parses one value element at `index` (after whitespace has been skipped).
  mutating func parseValueElement(context: String?) throws(PropertyListError) -> PropertyListNode {
    let start = index
    guard peek("<"), !peek("</"), index + 1 < bytes.count, bytes[index + 1].isXMLNameByte else {
      let place = context.map { " in <\($0)>" } ?? ""
      throw error(at: index, "expected a value element\(place), found \(describeHere())")
    }
    let tag = try readStartTag()
    switch tag.name {
    case "dict":
      return try parseDictionary(start: start, tag: tag)
    case "array":
      return try parseArray(start: start, tag: tag)
    case "true", "false":
      let contentStart = tag.end
      if !tag.selfClosing {
        try skipMisc()
        guard peek("</") else {
          throw error(at: index, "<\(tag.name)> must be empty", hint: "write <\(tag.name)/>")
        }
        let contentEnd = index
        try readEndTag(expected: tag.name, openedAt: start)
        return leaf(.bool, .bool(tag.name == "true"), start, contentStart..<contentEnd, selfClosing: false)
      }
      return leaf(.bool, .bool(tag.name == "true"), start, contentStart..<contentStart, selfClosing: true)
    case "string", "integer", "real", "date", "data":
      let (text, content) = try readText(of: tag, start: start)
      let value = try scalarValue(element: tag.name, text: text, at: content.lowerBound, start: start)
      let kind: PropertyListNode.Kind =
        switch tag.name {
        case "string": .string
        case "integer": .integer
        case "real": .real
        case "date": .date
        default: .data
        }
      return leaf(kind, value, start, content, selfClosing: tag.selfClosing)
    case "key":
      throw error(at: start, "<key> outside a <dict>", hint: "keys belong inside <dict>")
    case "plist":
      throw error(at: start, "<plist> inside a value", hint: "<plist> can only be the outermost element")
    default:
      throw error(
        at: start, "unknown element <\(tag.name)>", hint: "a property list uses \(Self.valueElementNames)")
    }
  }

  func leaf(
    _ kind: PropertyListNode.Kind, _ value: PropertyListValue, _ start: Int, _ content: Range<Int>,
    selfClosing: Bool
  ) -> PropertyListNode {
    PropertyListNode(
      kind: kind, elementRange: start..<index, contentRange: content, position: position(start),
      isSelfClosing: selfClosing, scalar: value, elements: [], entries: [])
  }

  mutating func parseArray(start: Int, tag: StartTag) throws(PropertyListError) -> PropertyListNode {
    try enterContainer(at: start)
    defer { depth -= 1 }
    var elements: [PropertyListNode] = []
    let contentStart = tag.end
    var contentEnd = contentStart
    if !tag.selfClosing {
      while true {
        try skipMisc()
        if index >= bytes.count { throw unclosed("array", openedAt: start) }
        if peek("</") {
          contentEnd = index
          try readEndTag(expected: "array", openedAt: start)
          break
        }
        if !peek("<") { throw strayText(in: "array") }
        elements.append(try parseValueElement(context: "array"))
      }
    }
    return PropertyListNode(
      kind: .array, elementRange: start..<index, contentRange: contentStart..<contentEnd,
      position: position(start), isSelfClosing: tag.selfClosing, scalar: nil, elements: elements, entries: [])
  }

  mutating func parseDictionary(start: Int, tag: StartTag) throws(PropertyListError) -> PropertyListNode {
    try enterContainer(at: start)
    defer { depth -= 1 }
    var entries: [PropertyListNodeEntry] = []
    var firstPositions: [String: PropertyListPosition] = [:]
    let contentStart = tag.end
    var contentEnd = contentStart
    if !tag.selfClosing {
      while true {
        try skipMisc()
        if index >= bytes.count { throw unclosed("dict", openedAt: start) }
        if peek("</") {
          contentEnd = index
          try readEndTag(expected: "dict", openedAt: start)
          break
        }
        guard peek("<"), index + 1 < bytes.count, bytes[index + 1].isXMLNameByte else {
          throw strayText(in: "dict")
        }
        let keyStart = index
        let keyTag = try readStartTag()
        guard keyTag.name == "key" else {
          throw error(
            at: keyStart, "expected <key> in <dict>, found <\(keyTag.name)>",
            hint: "every value in a <dict> follows its <key>")
        }
        let (key, keyContent) = try readText(of: keyTag, start: keyStart)
        let keyEnd = index
        try skipMisc()
        if index >= bytes.count { throw unclosed("dict", openedAt: start) }
        if peek("</") || peek("<key") && index + 4 < bytes.count && !bytes[index + 4].isXMLNameByte {
          throw error(
            at: keyStart, "key \"\(key)\" has no value",
            hint: "add a value element after </key> or remove the key")
        }
        let value = try parseValueElement(context: "dict")
        let keyPosition = position(keyStart)
        if let first = firstPositions[key] {
          switch duplicateKeyPolicy {
          case .error:
            throw PropertyListError(
              .duplicateKey, "duplicate key \"\(key)\" (first at \(first))", position: keyPosition,
              relatedPosition: first, hint: "remove one of the two entries")
          case .keepLast:
            duplicateKeys.append(PropertyListDuplicateKey(key: key, first: first, duplicate: keyPosition))
          }
        } else {
          firstPositions[key] = keyPosition
        }
        entries.append(
          PropertyListNodeEntry(
            key: key, keyRange: keyStart..<keyEnd, keyContentRange: keyContent, keyPosition: keyPosition,
            value: value))
      }
    }
    return PropertyListNode(
      kind: .dictionary, elementRange: start..<index, contentRange: contentStart..<contentEnd,
      position: position(start), isSelfClosing: tag.selfClosing, scalar: nil, elements: [], entries: entries)
  }

  /// Counts one more level of nesting, refusing the container that opens level 257.
  mutating func enterContainer(at start: Int) throws(PropertyListError) {
    depth += 1
    if depth > PropertyListLimits.maximumDepth { throw PropertyListLimits.tooDeep(at: position(start)) }
  }

  // MARK: Text

  /// Reads the character data of a text element up to its end tag: entities decoded, CDATA kept. Returns the text and the content byte range.
  mutating func readText(of tag: StartTag, start: Int) throws(PropertyListError) -> (String, Range<Int>) {
    if tag.selfClosing { return ("", tag.end..<tag.end) }
    let contentStart = index
    var decoded: [UInt8] = []
    let countsEntities = tag.name == "string" || tag.name == "key"
    while true {
      guard index < bytes.count else { throw unclosed(tag.name, openedAt: start) }
      let byte = bytes[index]
      if byte == UInt8(ascii: "<") {
        if peek("</") {
          let contentEnd = index
          try readEndTag(expected: tag.name, openedAt: start)
          return (String(decoding: decoded, as: UTF8.self), contentStart..<contentEnd)
        } else if peek("<!--") || peek("<?") {
          throw error(
            at: index,
            "\(peek("<?") ? "a processing instruction" : "a comment") inside <\(tag.name)> is not allowed: "
              + "Apple's property list reader rejects it",
            hint: "move the comment outside the <\(tag.name)> element")
        } else if peek("<![CDATA[") {
          guard let end = find("]]>", from: index + 9) else {
            throw error(at: index, "CDATA section is not closed", hint: "end it with ]]>")
          }
          decoded.append(contentsOf: bytes[(index + 9)..<end])
          index = end + 3
        } else {
          throw error(
            at: index, "unexpected \(describeHere()) inside <\(tag.name)>",
            hint: "write < in text as &lt;, or close <\(tag.name)> first")
        }
      } else if byte == UInt8(ascii: "&") {
        let scalar = try readEntity(counting: countsEntities)
        decoded.append(contentsOf: Array(String(Character(scalar)).utf8))
      } else {
        if countsEntities {
          switch byte {
          case UInt8(ascii: "\""): entityUsage.rawQuotes += 1
          case UInt8(ascii: "'"): entityUsage.rawApostrophes += 1
          case UInt8(ascii: ">"): entityUsage.rawGreaterThans += 1
          default: break
          }
        }
        decoded.append(byte)
        index += 1
      }
    }
  }

  /// Reads `&…;` at `index`: the five predefined entities and numeric character references.
  mutating func readEntity(counting: Bool) throws(PropertyListError) -> Unicode.Scalar {
    let start = index
    var end = index + 1
    while end < bytes.count, end - start <= 12, bytes[end] != UInt8(ascii: ";") { end += 1 }
    guard end < bytes.count, bytes[end] == UInt8(ascii: ";") else {
      throw error(at: start, "'&' must be written &amp; in text", hint: "replace & with &amp;")
    }
    let name = String(decoding: bytes[(start + 1)..<end], as: UTF8.self)
    index = end + 1
    switch name {
    case "lt": return "<"
    case "gt":
      if counting { entityUsage.gtEntities += 1 }
      return ">"
    case "amp": return "&"
    case "quot":
      if counting { entityUsage.quotEntities += 1 }
      return "\""
    case "apos":
      if counting { entityUsage.aposEntities += 1 }
      return "'"
    default:
      break
    }
    if name.hasPrefix("#") {
      let digits = name.dropFirst()
      let number =
        digits.hasPrefix("x") || digits.hasPrefix("X")
        ? UInt32(digits.dropFirst(), radix: 16) : UInt32(digits, radix: 10)
      if let number, let scalar = Unicode.Scalar(number), number != 0 {
        return scalar
      }
      throw error(at: start, "&\(name); is not a valid character reference")
    }
    throw PropertyListError(
      .forbiddenDeclaration, "unknown entity &\(name); (entities are never expanded)",
      position: position(start), hint: "use &lt; &gt; &amp; &quot; &apos; or a numeric reference like &#38;")
  }

  // MARK: Scalars

  func scalarValue(element: String, text: String, at offset: Int, start: Int) throws(PropertyListError)
    -> PropertyListValue
  {
    if element == "string" { return .string(text) }
    let trimmed = text.trimmingXMLWhitespace()
    switch element {
    case "integer":
      guard let value = PropertyListScalars.integer(from: trimmed) else {
        throw PropertyListError(
          .invalidValue, "\"\(trimmed)\" is not an integer", position: position(offset),
          hint: "write a decimal (or 0x hexadecimal) integer between -2^63 and 2^63-1")
      }
      return .integer(value)
    case "real":
      guard let value = PropertyListScalars.real(from: trimmed) else {
        throw PropertyListError(
          .invalidValue, "\"\(trimmed)\" is not a real number", position: position(offset))
      }
      return .real(value)
    case "date":
      guard let value = PropertyListScalars.date(from: trimmed) else {
        throw PropertyListError(
          .invalidValue, "\"\(trimmed)\" is not a date", position: position(offset),
          hint: "write dates as YYYY-MM-DDTHH:MM:SSZ")
      }
      return .date(value)
    default:
      let base64 = text.filter { !$0.isWhitespace }
      if base64.isEmpty { return .data(Data()) }
      guard let value = Data(base64Encoded: base64) else {
        // Point at the first character outside the base64 alphabet, if that is the problem.
        let alphabet = Set("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/=".utf8)
        let stray = text.utf8.firstIndex { !alphabet.contains($0) && !$0.isXMLWhitespace }
        let strayOffset = stray.map { text.utf8.distance(from: text.utf8.startIndex, to: $0) } ?? 0
        throw PropertyListError(
          .invalidValue, "<data> is not valid base64", position: position(offset + strayOffset),
          hint: "data is written in base64: A–Z, a–z, 0–9, + and /, padded with =")
      }
      return .data(value)
    }
  }

  // MARK: Helpers

  func position(_ offset: Int) -> PropertyListPosition {
    // Positions are asked for close to each other while parsing: count from the last one on the same
    // line, so a long single-line file costs linear rather than quadratic time.
    if let last = positionCache.last, lines.lineIndex(of: offset) == last.line - 1 {
      var column = last.column
      for index in min(last.offset, offset)..<max(last.offset, offset) where bytes[index] & 0xC0 != 0x80 {
        column += offset >= last.offset ? 1 : -1
      }
      let result = PropertyListPosition(line: last.line, column: column, offset: offset)
      positionCache.last = result
      return result
    }
    let result = lines.position(of: offset, in: bytes)
    positionCache.last = result
    return result
  }

  func peek(_ literal: StaticString) -> Bool {
    let count = literal.utf8CodeUnitCount
    guard index + count <= bytes.count else { return false }
    return literal.withUTF8Buffer { buffer in
      for offset in 0..<count where bytes[index + offset] != buffer[offset] { return false }
      return true
    }
  }

  func find(_ literal: StaticString, from start: Int) -> Int? {
    let pattern = literal.withUTF8Buffer { Array($0) }
    guard !pattern.isEmpty, start + pattern.count <= bytes.count else { return nil }
    var offset = start
    while offset + pattern.count <= bytes.count {
      if bytes[offset] == pattern[0], bytes[offset..<(offset + pattern.count)].elementsEqual(pattern) {
        return offset
      }
      offset += 1
    }
    return nil
  }

  mutating func skipWhitespace() {
    while index < bytes.count, bytes[index].isXMLWhitespace { index += 1 }
  }

  /// A short description of what is at `index`, for messages: `<string>`, `</dict>`, `text "abc"`.
  func describeHere() -> String {
    guard index < bytes.count else { return "the end of the file" }
    if peek("<!") || peek("<?") {
      var end = index + 2
      while end < bytes.count, end - index < 12, !bytes[end].isXMLWhitespace, bytes[end] != UInt8(ascii: ">")
      {
        end += 1
      }
      return "\"" + String(decoding: bytes[index..<end], as: UTF8.self) + "\""
    }
    if peek("</") || peek("<") {
      var end = index + (peek("</") ? 2 : 1)
      while end < bytes.count, bytes[end].isXMLNameByte { end += 1 }
      return String(decoding: bytes[index..<end], as: UTF8.self) + ">"
    }
    var end = index
    while end < bytes.count, end - index < 20, bytes[end] != UInt8(ascii: "<"), bytes[end] != 0x0A {
      end += 1
    }
    return "text \"\(String(decoding: bytes[index..<end], as: UTF8.self))\""
  }

  func error(at offset: Int, _ message: String, hint: String? = nil) -> PropertyListError {
    PropertyListError(.malformed, message, position: position(offset), hint: hint)
  }

  func unclosed(_ name: String, openedAt offset: Int) -> PropertyListError {
    PropertyListError(
      .malformed, "the file ends before <\(name)> (opened at \(position(offset))) is closed",
      position: position(bytes.count), hint: "add </\(name)>; the file may be truncated")
  }

  func strayText(in container: String) -> PropertyListError {
    error(
      at: index, "unexpected \(describeHere()) in <\(container)>",
      hint: peek("<") ? nil : "text belongs inside <string>")
  }
}
