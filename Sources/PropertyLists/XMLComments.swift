/// The XML comments of a stretch of a plist's text, for edits that rewrite a container as another kind of
/// value (a dictionary rule becoming a predicate string): the comments are the author's, so they stay,
/// on their own lines before the new value, where Apple's parser (and RuleKit's) skips them like
/// whitespace.
package enum XMLComments {
  /// Each `<!-- … -->` in `bytes`, verbatim, in order; text inside CDATA sections is not markup.
  package static func comments(in bytes: ArraySlice<UInt8>) -> [String] {
    var result: [String] = []
    var index = bytes.startIndex
    while index < bytes.endIndex {
      if starts(bytes, with: "<!--", at: index) {
        guard let end = firstIndex(of: "-->", in: bytes, from: index + 4) else { break }
        result.append(String(decoding: bytes[index..<(end + 3)], as: UTF8.self))
        index = end + 3
      } else if starts(bytes, with: "<![CDATA[", at: index) {
        guard let end = firstIndex(of: "]]>", in: bytes, from: index + 9) else { break }
        index = end + 3
      } else {
        index += 1
      }
    }
    return result
  }

  /// The text replacing the container at `range` of `bytes` with `element`: the container's comments, each
  /// on its own line at the container's indentation when the container starts its line (inline when it
  /// shares one), then `element`.
  package static func replacement(
    of range: Range<Int>, in bytes: [UInt8], with element: String, lineEnding: String
  ) -> String {
    let comments = comments(in: bytes[range])
    guard !comments.isEmpty else { return element }
    var lineStart = range.lowerBound
    while lineStart > 0, bytes[lineStart - 1] != 10, bytes[lineStart - 1] != 13 { lineStart -= 1 }
    let lead = bytes[lineStart..<range.lowerBound]
    let separator =
      lead.allSatisfy { $0 == 32 || $0 == 9 } ? lineEnding + String(decoding: lead, as: UTF8.self) : ""
    return comments.map { $0 + separator }.joined() + element
  }

  private static func starts(_ bytes: ArraySlice<UInt8>, with literal: String, at index: Int) -> Bool {
    let pattern = Array(literal.utf8)
    guard index + pattern.count <= bytes.endIndex else { return false }
    return bytes[index..<(index + pattern.count)].elementsEqual(pattern)
  }

  private static func firstIndex(of literal: String, in bytes: ArraySlice<UInt8>, from start: Int) -> Int? {
    var index = start
    while index < bytes.endIndex {
      if starts(bytes, with: literal, at: index) { return index }
      index += 1
    }
    return nil
  }
}
