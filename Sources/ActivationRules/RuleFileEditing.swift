import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writing an edited rule back into the file it came from, changing only the rule's bytes.
extension RuleFile {
  /// The file's new contents after inserting text into the predicate at predicate byte offsets; insertions
  /// at one offset land in the order given.
  ///
  /// In a plist the inserted text is XML-escaped, with `"` written `&quot;` when the file already writes it
  /// so; nothing outside the insertions changes. `nil` for binary plists and dictionary rules.
  public func contents(inserting insertions: [TwinInjector.Insertion]) -> String? {
    guard case .predicate = value else { return nil }
    var bytes = Array(contents.utf8)
    // Back to front, so the offsets still to come stay valid. Insertions at one offset go in reverse of the
    // order given, so they end up in it: a wrapped test's closing `)` stays before the twin appended to the
    // chain that test ends (`a OR b AND NOT (c)`), as in the injector's own `Result.text`.
    let backToFront = insertions.enumerated()
      .sorted { ($0.element.offset, $0.offset) > ($1.element.offset, $1.offset) }.map(\.element)
    if form == .predicateFile {
      for insertion in backToFront {
        bytes.insert(contentsOf: Array(insertion.text.utf8), at: insertion.offset)
      }
      return String(decoding: bytes, as: UTF8.self)
    }
    guard let node = ruleNode, !predicateOffsetMap.isEmpty else { return nil }
    let rawRule = String(decoding: bytes[node.contentRange], as: UTF8.self)
    let escapeQuotes = rawRule.contains("&quot;")
    for insertion in backToFront {
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
    guard let node = ruleNode, let document else { return nil }
    let element = node.elementRange
    let bytes = Array(contents.utf8)
    let string = "<string>" + Self.xmlEscaped(predicate, quotes: false) + "</string>"
    // A dictionary's comments stay (they are the author's), before the string, as configure keeps them.
    let replacement =
      node.kind == .dictionary
      ? XMLComments.replacement(of: element, in: bytes, with: string, lineEnding: document.style.lineEnding)
      : string
    return String(decoding: bytes[..<element.lowerBound], as: UTF8.self) + replacement
      + String(decoding: bytes[element.upperBound...], as: UTF8.self)
  }

  static func xmlEscaped(_ text: String, quotes: Bool) -> String {
    var result = text.replacing("&", with: "&amp;").replacing("<", with: "&lt;").replacing(">", with: "&gt;")
    if quotes { result = result.replacing("\"", with: "&quot;") }
    return result
  }
}
