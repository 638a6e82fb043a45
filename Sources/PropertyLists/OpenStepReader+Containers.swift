// Dictionaries (`{ key = value; }` and a strings file's bare entries) and arrays (`( a, b, )`).

extension OpenStepReader {
  /// Reads `key = value;` entries up to `closing` (left at `index`), or to the first token that is not a key
  /// when `closing` is `nil` (a strings file). The node's ranges end at `index`; a caller that consumes the
  /// closing brace widens ``OpenStepNode/elementRange``.
  mutating func readEntries(closedBy closing: UInt8?, openedAt start: Int)
    throws(PropertyListError) -> Parsed
  {
    var entries: [PropertyListDictionary.Entry] = []
    var nodeEntries: [OpenStepNodeEntry] = []
    var firstPositions: [String: PropertyListPosition] = [:]
    let contentStart = closing == nil ? start : start + 1
    func result(_ end: Int) -> Parsed {
      let value = PropertyListValue.dictionary(PropertyListDictionary(entries))
      guard buildsNodes else { return Parsed(value: value) }
      return Parsed(
        value: value,
        node: OpenStepNode(
          kind: .dictionary, elementRange: start..<end, contentRange: contentStart..<end,
          position: position(start), entries: nodeEntries))
    }
    while true {
      guard try skipSpace() else {
        if closing == nil { break }
        throw error(
          at: start, "the dictionary opened here is not closed: the file ends before its '}'",
          hint: "add the missing '}' (and a ';' after its last entry)")
      }
      if let closing, bytes[index] == closing { break }
      let keyStart = index
      let key: String
      let keyInset: Int
      switch bytes[index] {
      case UInt8(ascii: "\""), UInt8(ascii: "'"):
        key = try readQuotedString()
        keyInset = 1
      case let byte where byte.isUnquotedStringByte:
        key = readUnquotedString()
        keyInset = 0
      default:
        if closing == nil { return result(index) }
        throw error(
          at: index, "expected a key or '}' in the dictionary, found \(describeHere())",
          hint: "keys are strings: write \"key\" = value; (quote keys with other characters than letters, "
            + "digits and _$/:.-)")
      }
      let keyEnd = index
      let value: Parsed
      guard try skipSpace() else {
        throw error(
          at: keyStart, "the file ends after the key \"\(key)\"", hint: "write key = value; with the ';'")
      }
      switch bytes[index] {
      case UInt8(ascii: ";"):
        // `key;` is `key = key;`, the shortcut of strings files; its value node is the key token.
        value = Parsed(
          value: .string(key),
          node: buildsNodes
            ? OpenStepNode(
              kind: .string, elementRange: keyStart..<keyEnd,
              contentRange: (keyStart + keyInset)..<(keyEnd - keyInset), position: position(keyStart),
              isQuoted: keyInset == 1, scalar: .string(key)) : nil)
      case UInt8(ascii: "="):
        index += 1
        guard try skipSpace() else {
          throw error(
            at: keyStart, "the file ends where the value of \"\(key)\" should be",
            hint: "write the value and a ';' after the '='")
        }
        guard startsValue(bytes[index]) else {
          throw error(
            at: index, "expected the value of \"\(key)\" after '=', found \(describeHere())",
            hint: "write a value before the ';': a word, a \"quoted string\", <hex data>, ( an array ) or "
              + "{ a dictionary }")
        }
        value = try readValue(context: "the dictionary")
        // The caret goes where the ';' belongs: right after the value.
        let valueEnd = index
        guard try skipSpace() else {
          throw error(
            at: valueEnd, "missing ';' after the value of \"\(key)\" (the file ends there)",
            hint: "end every entry with ';', the last one too")
        }
        guard bytes[index] == UInt8(ascii: ";") else {
          throw error(
            at: valueEnd, "missing ';' after the value of \"\(key)\", before \(describeHere())",
            hint: "end every entry with ';', the last one too")
        }
      default:
        throw error(
          at: index, "expected '=' or ';' after the key \"\(key)\", found \(describeHere())",
          hint: "write key = value; (quote a key or value that has spaces or other characters than letters, "
            + "digits and _$/:.-)")
      }
      index += 1  // the ';'
      let keyPosition = position(keyStart)
      if let first = firstPositions[key] {
        if duplicateKeys == .error {
          throw PropertyListError(
            .duplicateKey, "duplicate key \"\(key)\" (first at \(first))", position: keyPosition,
            relatedPosition: first, hint: "remove one of the two entries")
        }
        duplicates.append(PropertyListDuplicateKey(key: key, first: first, duplicate: keyPosition))
      } else {
        firstPositions[key] = keyPosition
      }
      entries.append(PropertyListDictionary.Entry(key: key, value: value.value))
      if let node = value.node {
        nodeEntries.append(
          OpenStepNodeEntry(
            key: key, keyRange: keyStart..<keyEnd,
            keyContentRange: (keyStart + keyInset)..<(keyEnd - keyInset),
            keyPosition: keyPosition, entryRange: keyStart..<index, value: node))
      }
    }
    // Under `.keepLast` a later entry replaces the earlier value in place, as Foundation keeps the last.
    return result(index)
  }

  /// Reads the elements of an array whose `(` is behind `index`, and its `)`.
  mutating func readArray(openedAt start: Int) throws(PropertyListError) -> Parsed {
    var elements: [PropertyListValue] = []
    var nodes: [OpenStepNode] = []
    while true {
      guard try skipSpace() else {
        throw error(
          at: start, "the array opened here is not closed: the file ends before its ')'",
          hint: "add the missing ')'")
      }
      if bytes[index] == UInt8(ascii: ")") { break }
      guard startsValue(bytes[index]) else {
        throw error(
          at: index, "expected an element or ')' in the array, found \(describeHere())",
          hint: "separate elements with ',' and close the array with ')'")
      }
      let element = try readValue(context: "the array")
      elements.append(element.value)
      if let node = element.node { nodes.append(node) }
      guard try skipSpace() else {
        throw error(
          at: start, "the array opened here is not closed: the file ends before its ')'",
          hint: "add the missing ')'")
      }
      if bytes[index] == UInt8(ascii: ",") {
        index += 1
      } else if bytes[index] != UInt8(ascii: ")") {
        throw error(
          at: index, "expected ',' or ')' after an array element, found \(describeHere())",
          hint: "separate elements with ',' (a word with spaces needs \"quotes\")")
      }
    }
    index += 1  // the ')'
    guard buildsNodes else { return Parsed(value: .array(elements)) }
    return Parsed(
      value: .array(elements),
      node: OpenStepNode(
        kind: .array, elementRange: start..<index, contentRange: (start + 1)..<(index - 1),
        position: position(start), elements: nodes))
  }
}
