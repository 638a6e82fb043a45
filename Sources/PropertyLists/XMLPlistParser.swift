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
}
