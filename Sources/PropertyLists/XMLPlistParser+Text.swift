#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// The XML plist parser's text: character data and entities, scalar values, positions and error messages.

extension XMLPlistParser {
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
