#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Finds where the value at a key path (`UTExportedTypeDeclarations[2].UTTypeConformsTo`) starts in an XML
/// property list, so diagnostics can point at a line and column. Foundation's parser keeps no positions.
///
/// This is a scanner for the XML plist vocabulary only (`plist`, `dict`, `key`, `array` and scalar
/// elements), not a general XML parser; for anything else it simply knows no positions.
struct PropertyListLocator {
  private var positions: [String: DeclarationPosition] = [:]
  /// The first place the scanner found the structure broken, if any.
  private(set) var firstProblem: DeclarationPosition?

  init(data: Data) {
    var scanner = Scanner(bytes: [UInt8](data))
    guard scanner.looksLikeXML else { return }
    scanner.parseDocument()
    positions = scanner.positions
    firstProblem = scanner.problem
  }

  /// The position of the value at `keyPath`, or of its nearest enclosing value the scanner saw.
  func position(of keyPath: String) -> DeclarationPosition? {
    var path = Substring(keyPath)
    while true {
      if let position = positions[String(path)] { return position }
      guard let cut = path.lastIndex(where: { $0 == "." || $0 == "[" }) else {
        return path.isEmpty ? nil : positions[""]
      }
      path = path[..<cut]
    }
  }

  /// Where a malformed XML plist first goes wrong, as far as this scanner can tell.
  static func firstPosition(in data: Data) -> DeclarationPosition? {
    PropertyListLocator(data: data).firstProblem
  }

  private struct Tag {
    enum Kind { case start, end, empty }
    let name: String
    let kind: Kind
    let position: DeclarationPosition
  }

  private struct Scanner {
    let bytes: [UInt8]
    var offset = 0
    var line = 1
    var lineStart = 0
    var text: [UInt8] = []
    var positions: [String: DeclarationPosition] = [:]
    var problem: DeclarationPosition?

    init(bytes: [UInt8]) {
      self.bytes = bytes
    }

    var looksLikeXML: Bool {
      let start = bytes.firstIndex { ![0x20, 0x09, 0x0A, 0x0D, 0xEF, 0xBB, 0xBF].contains($0) }
      return start.map { bytes[$0] == UInt8(ascii: "<") } ?? false
    }

    var here: DeclarationPosition { DeclarationPosition(line: line, column: offset - lineStart + 1) }

    mutating func parseDocument() {
      while let tag = nextTag() {
        if tag.kind == .start && tag.name == "plist" { continue }
        if tag.kind == .end && tag.name == "plist" { break }
        parseValue(startingWith: tag, path: "")
        if problem != nil { return }
      }
    }

    mutating func parseValue(startingWith tag: Tag, path: String) {
      guard tag.kind != .end else {
        report(tag.position)
        return
      }
      positions[path] = tag.position
      guard tag.kind == .start else { return }
      switch tag.name {
      case "dict":
        while problem == nil, let next = nextTag() {
          if next.kind == .end && next.name == "dict" { return }
          guard next.kind == .start && next.name == "key" else { return report(next.position) }
          guard let close = nextTag(), close.kind == .end, close.name == "key" else { return report(here) }
          let key = Self.decodeEntities(String(decoding: text, as: UTF8.self))
          guard let value = nextTag() else { return report(here) }
          parseValue(startingWith: value, path: path.isEmpty ? key : path + "." + key)
        }
      case "array":
        var index = 0
        while problem == nil, let next = nextTag() {
          if next.kind == .end && next.name == "array" { return }
          parseValue(startingWith: next, path: "\(path)[\(index)]")
          index += 1
        }
      default:
        guard let close = nextTag(), close.kind == .end, close.name == tag.name else { return report(here) }
      }
    }

    mutating func report(_ position: DeclarationPosition) {
      if problem == nil { problem = position }
    }

    /// The next element tag, skipping the declaration, doctype, comments and CDATA; text before it is
    /// left in `text`.
    mutating func nextTag() -> Tag? {
      text = []
      while offset < bytes.count {
        let byte = bytes[offset]
        guard byte == UInt8(ascii: "<") else {
          text.append(byte)
          advance()
          continue
        }
        if matches("<?") {
          skip(past: "?>")
        } else if matches("<!--") {
          skip(past: "-->")
        } else if matches("<![CDATA[") {
          let start = offset + 9
          skip(past: "]]>")
          text += bytes[min(start, bytes.count)..<max(start, offset - 3)]
        } else if matches("<!") {
          skip(past: ">")
        } else {
          let position = here
          advance()
          let isEnd = offset < bytes.count && bytes[offset] == UInt8(ascii: "/")
          if isEnd { advance() }
          var name: [UInt8] = []
          while offset < bytes.count, !Self.isNameEnd(bytes[offset]) {
            name.append(bytes[offset])
            advance()
          }
          var isEmpty = false
          while offset < bytes.count, bytes[offset] != UInt8(ascii: ">") {
            isEmpty = bytes[offset] == UInt8(ascii: "/")
            advance()
          }
          guard offset < bytes.count else {
            report(position)
            return nil
          }
          advance()
          let kind: Tag.Kind = isEnd ? .end : (isEmpty ? .empty : .start)
          return Tag(name: String(decoding: name, as: UTF8.self), kind: kind, position: position)
        }
      }
      return nil
    }

    mutating func advance() {
      if bytes[offset] == UInt8(ascii: "\n") {
        line += 1
        lineStart = offset + 1
      }
      offset += 1
    }

    func matches(_ literal: String) -> Bool {
      let utf8 = Array(literal.utf8)
      return offset + utf8.count <= bytes.count && Array(bytes[offset..<offset + utf8.count]) == utf8
    }

    mutating func skip(past terminator: String) {
      while offset < bytes.count && !matches(terminator) { advance() }
      for _ in terminator.utf8 where offset < bytes.count { advance() }
    }

    static func isNameEnd(_ byte: UInt8) -> Bool {
      [UInt8(ascii: ">"), UInt8(ascii: "/"), 0x20, 0x09, 0x0A, 0x0D].contains(byte)
    }

    static func decodeEntities(_ text: String) -> String {
      guard text.contains("&") else { return text }
      return
        text
        .replacing("&lt;", with: "<")
        .replacing("&gt;", with: ">")
        .replacing("&quot;", with: "\"")
        .replacing("&apos;", with: "'")
        .replacing("&amp;", with: "&")
    }
  }
}
