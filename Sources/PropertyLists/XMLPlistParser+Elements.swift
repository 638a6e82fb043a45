#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The XML plist parser's elements: start and end tags, values, arrays and dictionaries.

extension XMLPlistParser {
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
}
