import Foundation
import PredicateSyntax

/// A rule as read from a file: a bare predicate file, a plist whose root is the rule dictionary, or an
/// extension's Info.plist (`NSExtension › NSExtensionAttributes › NSExtensionActivationRule`).
///
/// Keeps the file's text so findings and diagnostics can point at `file:line:column` inside it, including
/// positions inside a predicate stored as an XML-escaped `<string>`.
public struct RuleFile: Sendable {
  /// Which kind of file the rule came from.
  public enum Form: String, Sendable, Hashable, Codable {
    case predicateFile, rulePlist, infoPlist
  }

  /// The rule value before parsing.
  public enum Value: Sendable, Hashable {
    /// A predicate string (entities decoded).
    case predicate(String)
    /// The dictionary form.
    case dictionary(ActivationDictionary)
  }

  /// The `NSExtensionAttributes` facts the linter needs (only for Info.plists).
  public struct ExtensionFacts: Sendable, Hashable {
    /// `NSExtensionJavaScriptPreprocessingFile`, when set.
    public var javaScriptPreprocessingFile: String?
    /// `NSExtensionActivationUsesStrictMatching` placed beside the rule instead of inside it.
    public var strictMatchingOutsideRule: Bool
    /// Whether the plist has an `IntuneMAMSettings` dictionary (the app or extension uses Intune).
    public var hasIntuneMAMSettings: Bool
    /// `NSExtension › NSExtensionPointIdentifier`.
    public var extensionPointIdentifier: String?

    public init(
      javaScriptPreprocessingFile: String? = nil, strictMatchingOutsideRule: Bool = false,
      hasIntuneMAMSettings: Bool = false, extensionPointIdentifier: String? = nil
    ) {
      self.javaScriptPreprocessingFile = javaScriptPreprocessingFile
      self.strictMatchingOutsideRule = strictMatchingOutsideRule
      self.hasIntuneMAMSettings = hasIntuneMAMSettings
      self.extensionPointIdentifier = extensionPointIdentifier
    }
  }

  /// The path shown in diagnostics (`<stdin>`, `<predicate>` when there is no file).
  public var path: String
  /// The file's text; empty for binary plists.
  public var contents: String
  public var form: Form
  public var value: Value
  public var facts: ExtensionFacts
  /// For a predicate inside a plist `<string>`: the file byte offset of each decoded byte, plus one entry
  /// for the end. Empty when positions map one to one (predicate files) or are unknown (binary plists).
  var predicateOffsetMap: [Int]
  /// File byte offset where the predicate text starts.
  var predicateStart: Int

  /// Reads a rule from a file's bytes. `path` is only used in messages.
  public init(path: String, data: Data) throws(ActivationRuleError) {
    self.path = path
    self.facts = ExtensionFacts()
    self.predicateOffsetMap = []
    self.predicateStart = 0
    guard Self.looksLikePropertyList(data) else {
      contents = String(decoding: data, as: UTF8.self)
      form = .predicateFile
      value = .predicate(contents)
      return
    }
    contents = data.starts(with: Array("bplist".utf8)) ? "" : String(decoding: data, as: UTF8.self)
    let root: Any
    do {
      root = try PropertyListSerialization.propertyList(from: data, format: nil)
    } catch {
      throw .malformedPropertyList(message: String(describing: error))
    }
    guard let dictionary = root as? [String: Any] else {
      throw .malformedPropertyList(message: "the root of the property list is not a dictionary")
    }
    if let extensionDictionary = dictionary["NSExtension"] as? [String: Any] {
      form = .infoPlist
      let attributes = extensionDictionary["NSExtensionAttributes"] as? [String: Any] ?? [:]
      facts = ExtensionFacts(
        javaScriptPreprocessingFile: attributes["NSExtensionJavaScriptPreprocessingFile"] as? String,
        strictMatchingOutsideRule: attributes["NSExtensionActivationUsesStrictMatching"] != nil,
        hasIntuneMAMSettings: dictionary["IntuneMAMSettings"] is [String: Any],
        extensionPointIdentifier: extensionDictionary["NSExtensionPointIdentifier"] as? String)
      guard let rule = attributes["NSExtensionActivationRule"] else { throw .ruleNotFound }
      value = try Self.value(of: rule)
    } else if let rule = dictionary["NSExtensionActivationRule"] {
      form = .rulePlist
      value = try Self.value(of: rule)
    } else {
      form = .rulePlist
      value = .dictionary(ActivationDictionary(propertyList: dictionary))
    }
    if case .predicate(let text) = value { locatePredicate(text) }
  }

  /// A rule given as predicate text on the command line or standard input.
  public init(path: String, predicate text: String) {
    self.path = path
    self.contents = text
    self.form = .predicateFile
    self.value = .predicate(text)
    self.facts = ExtensionFacts()
    self.predicateOffsetMap = []
    self.predicateStart = 0
  }

  private static func value(of ruleValue: Any) throws(ActivationRuleError) -> Value {
    switch ruleValue {
    case let text as String: return .predicate(text)
    case let dictionary as [String: Any]: return .dictionary(ActivationDictionary(propertyList: dictionary))
    default: throw .unexpectedRuleValue(ActivationDictionary.writtenType(of: ruleValue))
    }
  }

  private static func looksLikePropertyList(_ data: Data) -> Bool {
    let head = String(decoding: data.prefix(512), as: UTF8.self)
      .trimmingCharacters(
        in: CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: "\u{FEFF}")))
    return head.hasPrefix("<?xml") || head.hasPrefix("<plist") || head.hasPrefix("<!DOCTYPE plist")
      || head.hasPrefix("bplist")
  }

  /// Finds the `<string>` holding the rule and records where each decoded byte sits in the file.
  private mutating func locatePredicate(_ decoded: String) {
    let bytes = Array(contents.utf8)
    guard let keyEnd = Self.find(Array("<key>NSExtensionActivationRule</key>".utf8), in: bytes, from: 0),
      let open = Self.find(Array("<string>".utf8), in: bytes, from: keyEnd),
      let closeEnd = Self.find(Array("</string>".utf8), in: bytes, from: open)
    else { return }
    let close = closeEnd - "</string>".utf8.count
    let start = open
    var map: [Int] = []
    var output: [UInt8] = []
    var index = start
    while index < close {
      if bytes[index] == UInt8(ascii: "&"),
        let semicolon = bytes[index..<close].firstIndex(of: UInt8(ascii: ";")),
        let replacement = Self.entity(String(decoding: bytes[(index + 1)..<semicolon], as: UTF8.self))
      {
        for byte in replacement.utf8 {
          output.append(byte)
          map.append(index)
        }
        index = semicolon + 1
      } else {
        output.append(bytes[index])
        map.append(index)
        index += 1
      }
    }
    map.append(close)
    // Foundation normalises nothing inside <string>, so the decoded bytes must match; otherwise keep no map.
    guard output == Array(decoded.utf8) else { return }
    predicateOffsetMap = map
    predicateStart = start
  }

  private static func entity(_ name: String) -> String? {
    switch name {
    case "lt": return "<"
    case "gt": return ">"
    case "amp": return "&"
    case "quot": return "\""
    case "apos": return "'"
    default:
      let scalarValue: UInt32?
      if name.hasPrefix("#x") || name.hasPrefix("#X") {
        scalarValue = UInt32(name.dropFirst(2), radix: 16)
      } else if name.hasPrefix("#") {
        scalarValue = UInt32(name.dropFirst())
      } else {
        scalarValue = nil
      }
      return scalarValue.flatMap(Unicode.Scalar.init).map { String(Character($0)) }
    }
  }

  /// The offset just past the first occurrence of `needle` at or after `start`.
  static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
    guard !needle.isEmpty, haystack.count >= needle.count, start <= haystack.count - needle.count else {
      return nil
    }
    for index in start...(haystack.count - needle.count) where haystack[index] == needle[0] {
      if haystack[index..<(index + needle.count)].elementsEqual(needle) { return index + needle.count }
    }
    return nil
  }

  /// The predicate text, when the rule is one.
  public var predicateText: String? {
    if case .predicate(let text) = value { return text }
    return nil
  }

  /// Where a position in the predicate text is in the file (identity for predicate files).
  public func filePosition(ofPredicateOffset offset: Int) -> SourcePosition {
    guard form != .predicateFile else { return TextPositions.position(ofByteOffset: offset, in: contents) }
    guard !predicateOffsetMap.isEmpty else { return TextPositions.position(ofByteOffset: 0, in: contents) }
    let clamped = Swift.min(Swift.max(offset, 0), predicateOffsetMap.count - 1)
    return TextPositions.position(ofByteOffset: predicateOffsetMap[clamped], in: contents)
  }

  /// Where `<key>name</key>` is in the file (searched after the rule key in an Info.plist), or the start of
  /// the file when it cannot be found.
  public func position(ofKey name: String) -> SourcePosition {
    let bytes = Array(contents.utf8)
    let ruleKey = Self.find(Array("<key>NSExtensionActivationRule</key>".utf8), in: bytes, from: 0)
    let needle = Array("<key>\(name)</key>".utf8)
    let found = Self.find(needle, in: bytes, from: ruleKey ?? 0) ?? Self.find(needle, in: bytes, from: 0)
    guard let end = found else { return TextPositions.position(ofByteOffset: 0, in: contents) }
    return TextPositions.position(ofByteOffset: end - needle.count, in: contents)
  }

  /// Where the rule itself starts: the predicate's first byte, or the rule key.
  public var rulePosition: SourcePosition {
    switch form {
    case .predicateFile: return TextPositions.position(ofByteOffset: 0, in: contents)
    case .rulePlist where predicateText == nil:
      let bytes = Array(contents.utf8)
      let dict = Self.find(Array("<dict>".utf8), in: bytes, from: 0).map { $0 - "<dict>".utf8.count } ?? 0
      return TextPositions.position(ofByteOffset: dict, in: contents)
    default:
      return predicateOffsetMap.isEmpty
        ? position(ofKey: "NSExtensionActivationRule") : filePosition(ofPredicateOffset: 0)
    }
  }
}

/// Converts UTF-8 byte offsets to the line/column positions people read.
public enum TextPositions {
  /// Line (1-based) and column (1-based, Unicode scalars) of a byte offset in `text`.
  public static func position(ofByteOffset offset: Int, in text: String) -> SourcePosition {
    var line = 1
    var column = 1
    var consumed = 0
    for scalar in text.unicodeScalars {
      let width = String(scalar).utf8.count
      if consumed + width > offset { break }
      consumed += width
      if scalar == "\n" {
        line += 1
        column = 1
      } else {
        column += 1
      }
    }
    return SourcePosition(line: line, column: column, offset: offset)
  }

  /// The text of the line a position is on, without its line break.
  public static func line(_ number: Int, in text: String) -> String {
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    guard number >= 1, number <= lines.count else { return "" }
    return String(lines[number - 1]).replacingOccurrences(of: "\r", with: "")
  }
}
