import PropertyLists

extension ProjectFileEditor {
  /// The text changes that set `settings` in the `buildSettings` of configuration `id`.
  func replacements(configuration id: String, settings: [(key: String, value: String)])
    throws(PropertyListError)
    -> [Replacement]
  {
    guard let objects = document.root["objects"], objects.kind == .dictionary,
      let objectEntry = objects.entry(forKey: id)
    else {
      throw PropertyListError(
        .invalidEdit, "the project has no object \(id)", path: document.path,
        position: document.root.position,
        hint: "pass the id of an XCBuildConfiguration of this project")
    }
    let object = objectEntry.value
    let isa = object["isa"]?.string
    guard object.kind == .dictionary, isa == "XCBuildConfiguration" else {
      throw PropertyListError(
        .invalidEdit,
        "object \(id) is \(isa.map { "a \($0)" } ?? "not an object"), not an XCBuildConfiguration",
        path: document.path, position: objectEntry.keyPosition)
    }
    guard let settingsEntry = object.entry(forKey: "buildSettings") else {
      // Xcode's layout: the dictionary opens on the key's line, one setting per line a level deeper, and
      // closes on its own line at the key's indentation.
      let indent =
        siblingIndent(in: object) ?? (indentation(ofLineContaining: object.elementRange.lowerBound) + "\t")
      let body = settings.sorted { PBXProjectText.sortsBefore($0.key, $1.key) }
        .map { indent + "\t" + Self.entryText($0.key, $0.value) + "\n" }.joined()
      return [
        insertion(
          key: "buildSettings", text: "buildSettings = {\n" + body + indent + "};", into: object,
          skipping: ["isa"])
      ]
    }
    let dictionary = settingsEntry.value
    guard dictionary.kind == .dictionary else {
      throw PropertyListError(
        .invalidEdit, "buildSettings of \(id) is not a dictionary", path: document.path,
        position: dictionary.position)
    }
    if dictionary.entries.isEmpty {
      let indent = indentation(ofLineContaining: settingsEntry.keyRange.lowerBound)
      let body = settings.sorted { PBXProjectText.sortsBefore($0.key, $1.key) }
        .map { indent + "\t" + Self.entryText($0.key, $0.value) + "\n" }.joined()
      let content = dictionary.contentRange
      // Keep a comment in an empty dictionary; replace only its whitespace.
      guard document.bytes[content].allSatisfy(Self.isWhitespace) else {
        return [Replacement(range: content.upperBound..<content.upperBound, text: "\n" + body + indent)]
      }
      return [Replacement(range: content, text: "\n" + body + indent)]
    }
    var result: [Replacement] = []
    for (key, value) in settings {
      if let existing = dictionary.entry(forKey: key) {
        if existing.value.kind == .string, existing.value.string == value { continue }
        result.append(Replacement(range: existing.value.elementRange, text: PBXProjectText.quoted(value)))
      } else {
        result.append(insertion(key: key, text: Self.entryText(key, value), into: dictionary, skipping: []))
      }
    }
    return result
  }

  static func entryText(_ key: String, _ value: String) -> String {
    PBXProjectText.quoted(key) + " = " + PBXProjectText.quoted(value) + ";"
  }

  /// Inserts the entry `text` for `key` into a non-empty dictionary before the first entry whose key sorts
  /// after it (keys in `skipping` stay first), on its own line when the entries are on their own lines.
  func insertion(key: String, text: String, into dictionary: OpenStepNode, skipping: Set<String>)
    -> Replacement
  {
    let candidates = dictionary.entries.filter { !skipping.contains($0.key) }
    if let successor = candidates.first(where: { PBXProjectText.sortsBefore(key, $0.key) }) {
      let start = successor.keyRange.lowerBound
      guard isFirstOnLine(start) else {
        return Replacement(range: start..<start, text: text + " ", order: key)
      }
      let lineStart = lineStart(of: start)
      return Replacement(
        range: lineStart..<lineStart, text: indentation(ofLineContaining: start) + text + "\n", order: key)
    }
    guard let last = dictionary.entries.last else {
      let end = dictionary.contentRange.upperBound
      return Replacement(range: end..<end, text: " " + text + " ", order: key)
    }
    let end = last.entryRange.upperBound
    var lineEnd = end
    while lineEnd < document.bytes.count, document.bytes[lineEnd] == 32 || document.bytes[lineEnd] == 9 {
      lineEnd += 1
    }
    guard isFirstOnLine(last.keyRange.lowerBound), lineEnd < document.bytes.count,
      document.bytes[lineEnd] == 10
    else { return Replacement(range: end..<end, text: " " + text, order: key) }
    return Replacement(
      range: lineEnd..<lineEnd, text: "\n" + indentation(ofLineContaining: last.keyRange.lowerBound) + text,
      order: key)
  }

  /// The indentation of a dictionary's entries, when the first starts its line.
  func siblingIndent(in dictionary: OpenStepNode) -> String? {
    guard let first = dictionary.entries.first, isFirstOnLine(first.keyRange.lowerBound) else { return nil }
    return indentation(ofLineContaining: first.keyRange.lowerBound)
  }

  func lineStart(of offset: Int) -> Int {
    var start = offset
    while start > 0, document.bytes[start - 1] != 10, document.bytes[start - 1] != 13 { start -= 1 }
    return start
  }

  func isFirstOnLine(_ offset: Int) -> Bool {
    document.bytes[lineStart(of: offset)..<offset].allSatisfy { $0 == 32 || $0 == 9 }
  }

  func indentation(ofLineContaining offset: Int) -> String {
    let start = lineStart(of: offset)
    var end = start
    while end < document.bytes.count, document.bytes[end] == 32 || document.bytes[end] == 9 { end += 1 }
    return String(decoding: document.bytes[start..<end], as: UTF8.self)
  }

  static func isWhitespace(_ byte: UInt8) -> Bool {
    byte == 32 || byte == 9 || byte == 10 || byte == 13
  }
}
