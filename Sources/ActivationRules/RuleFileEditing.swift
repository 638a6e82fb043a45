import Foundation

/// Writing an edited rule back into the file it came from, changing only the rule's bytes.
extension RuleFile {
  /// The file's new contents after inserting text into the predicate at predicate byte offsets.
  ///
  /// In a plist the inserted text is XML-escaped, with `"` written `&quot;` when the file already writes it
  /// so; nothing outside the insertions changes. `nil` for binary plists and dictionary rules.
  public func contents(inserting insertions: [TwinInjector.Insertion]) -> String? {
    guard case .predicate = value else { return nil }
    var bytes = Array(contents.utf8)
    if form == .predicateFile {
      for insertion in insertions.sorted(by: { $0.offset > $1.offset }) {
        bytes.insert(contentsOf: Array(insertion.text.utf8), at: insertion.offset)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    guard !predicateOffsetMap.isEmpty else { return nil }
    let rawRule = String(
      decoding: bytes[predicateStart..<(predicateOffsetMap.last ?? predicateStart)], as: UTF8.self)
    let escapeQuotes = rawRule.contains("&quot;")
    for insertion in insertions.sorted(by: { $0.offset > $1.offset }) {
      guard insertion.offset >= 0, insertion.offset < predicateOffsetMap.count else { return nil }
      let escaped = Self.xmlEscaped(insertion.text, quotes: escapeQuotes)
      bytes.insert(contentsOf: Array(escaped.utf8), at: predicateOffsetMap[insertion.offset])
    }
    return String(decoding: bytes, as: UTF8.self)
  }

  /// The file's new contents with the whole rule replaced by `predicate` text: the file itself for a
  /// predicate file, otherwise the rule's `<string>` or `<dict>` element replaced by a `<string>`.
  /// `nil` when the element cannot be found (binary plists).
  public func contents(replacingRuleWith predicate: String) -> String? {
    if form == .predicateFile { return predicate }
    let bytes = Array(contents.utf8)
    let keyNeedle = Array("<key>NSExtensionActivationRule</key>".utf8)
    let start: Int
    let end: Int
    if let keyEnd = Self.find(keyNeedle, in: bytes, from: 0) {
      var index = keyEnd
      while index < bytes.count, bytes[index] != UInt8(ascii: "<") { index += 1 }
      guard let element = Self.elementEnd(in: bytes, from: index) else { return nil }
      (start, end) = (index, element)
    } else if case .dictionary = value, let open = Self.find(Array("<dict>".utf8), in: bytes, from: 0) {
      // A plist whose root is the rule dictionary becomes a plist whose root is the rule string.
      let index = open - "<dict>".utf8.count
      guard let element = Self.elementEnd(in: bytes, from: index) else { return nil }
      (start, end) = (index, element)
    } else {
      return nil
    }
    let replacement = "<string>" + Self.xmlEscaped(predicate, quotes: false) + "</string>"
    return String(decoding: bytes[..<start], as: UTF8.self) + replacement
      + String(decoding: bytes[end...], as: UTF8.self)
  }

  static func xmlEscaped(_ text: String, quotes: Bool) -> String {
    var result = text.replacingOccurrences(of: "&", with: "&amp;")
      .replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    if quotes { result = result.replacingOccurrences(of: "\"", with: "&quot;") }
    return result
  }

  /// The offset just past the element starting at `start` (`<string>…</string>`, `<dict>…</dict>` with
  /// nesting, or an empty element such as `<dict/>`), skipping comments.
  static func elementEnd(in bytes: [UInt8], from start: Int) -> Int? {
    guard start < bytes.count, bytes[start] == UInt8(ascii: "<"),
      let nameEnd = bytes[start...].firstIndex(where: {
        $0 == UInt8(ascii: ">") || $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "/")
      })
    else { return nil }
    let name = Array(bytes[(start + 1)..<nameEnd])
    guard let tagClose = bytes[start...].firstIndex(of: UInt8(ascii: ">")) else { return nil }
    if bytes[tagClose - 1] == UInt8(ascii: "/") { return tagClose + 1 }
    let open = [UInt8(ascii: "<")] + name
    let close = Array("</".utf8) + name + [UInt8(ascii: ">")]
    var depth = 1
    var index = tagClose + 1
    while index < bytes.count {
      if bytes[index...].starts(with: Array("<!--".utf8)) {
        guard let commentEnd = find(Array("-->".utf8), in: bytes, from: index) else { return nil }
        index = commentEnd
        continue
      }
      if bytes[index...].starts(with: close) {
        depth -= 1
        if depth == 0 { return index + close.count }
        index += close.count
        continue
      }
      if bytes[index...].starts(with: open), index + open.count < bytes.count,
        [UInt8(ascii: ">"), UInt8(ascii: " "), UInt8(ascii: "/")].contains(bytes[index + open.count])
      {
        if let end = bytes[index...].firstIndex(of: UInt8(ascii: ">")), bytes[end - 1] != UInt8(ascii: "/") {
          depth += 1
        }
      }
      index += 1
    }
    return nil
  }
}
