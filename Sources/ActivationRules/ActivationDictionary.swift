import PredicateSyntax
import PropertyLists
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The dictionary form of `NSExtensionActivationRule`: the ten keys Apple documents, read with the
/// typings real Info.plists use.
///
/// Apple documents integers for the `…WithMaxCount`/`…WithMinCount` keys and Booleans for
/// `NSExtensionActivationSupportsText` and `NSExtensionActivationUsesStrictMatching`, but shipping apps also
/// write counts as `<string>1</string>` and Booleans as `<integer>1</integer>` or `<true/>` for a count.
/// Those values are accepted (the way the system presumably reads them) and each one is recorded in
/// ``typingFindings`` so the linter can report it. Keys Apple does not document are kept in
/// ``undocumentedKeys``.
public struct ActivationDictionary: Sendable, Hashable {
  /// The documented keys, in the order this package prints and converts them.
  public enum Key: String, Sendable, Hashable, CaseIterable, Codable {
    case dictionaryVersion = "NSExtensionActivationDictionaryVersion"
    case usesStrictMatching = "NSExtensionActivationUsesStrictMatching"
    case attachmentsMinCount = "NSExtensionActivationSupportsAttachmentsWithMinCount"
    case attachmentsMaxCount = "NSExtensionActivationSupportsAttachmentsWithMaxCount"
    case fileMaxCount = "NSExtensionActivationSupportsFileWithMaxCount"
    case imageMaxCount = "NSExtensionActivationSupportsImageWithMaxCount"
    case movieMaxCount = "NSExtensionActivationSupportsMovieWithMaxCount"
    case text = "NSExtensionActivationSupportsText"
    case webURLMaxCount = "NSExtensionActivationSupportsWebURLWithMaxCount"
    case webPageMaxCount = "NSExtensionActivationSupportsWebPageWithMaxCount"

    /// Whether Apple documents the value as a Boolean (otherwise an integer).
    public var isBoolean: Bool { self == .text || self == .usesStrictMatching }
  }

  /// How a value was written in the plist.
  public enum WrittenType: String, Sendable, Hashable, Codable {
    case integer, real, boolean, string, date, data, array, dictionary
  }

  /// A documented key whose value has a type other than the one Apple documents.
  public struct TypingFinding: Sendable, Hashable, Codable {
    /// The documented key.
    public var key: Key
    /// How its value is written in the plist.
    public var written: WrittenType
    /// The value the key was read as, or `nil` when the value could not be read at all and was ignored.
    public var readAs: Int?

    /// A finding that `key`'s value is written as `written` and was read as `readAs`.
    public init(key: Key, written: WrittenType, readAs: Int?) {
      self.key = key
      self.written = written
      self.readAs = readAs
    }
  }

  /// A key that is not one of Apple's ten documented keys, such as `NSExtensionActivationAttachmentAttribute`.
  public struct UndocumentedKey: Sendable, Hashable, Codable {
    /// The key as written.
    public var name: String
    /// How its value is written in the plist.
    public var written: WrittenType

    /// A key named `name` whose value is written as `written`.
    public init(name: String, written: WrittenType) {
      self.name = name
      self.written = written
    }

    /// The documented key this one most likely misspells, when it names the same kind of content with a
    /// value a documented key could hold: `NSExtensionActivationSupportsWebURL` or
    /// `…SupportsWebPageWithMaxNItems`, `NSExtensionActivationRuleSupportsText` (all found in shipping
    /// apps), a key differing only in case, a head a few letters from `NSExtensionActivation`. `nil`
    /// for a key whose value is an array or a dictionary, such as `…SupportsFileWithType`, which no
    /// documented key can express.
    public var likelyMeant: Key? {
      let lowered = name.lowercased()
      if let exact = Key.allCases.first(where: { $0.rawValue.lowercased() == lowered }) { return exact }
      guard written != .array, written != .dictionary else { return nil }
      let prefix = "nsextensionactivationsupports"
      // What precedes "supports" may be misspelled too (`NSExtensionActivationRuleSupportsText`, shipped
      // by an app whose action extension therefore never activated): a few edits from the documented head.
      guard let supports = lowered.ranges(of: "supports").last,
        editDistance(lowered[..<supports.lowerBound], "nsextensionactivation", limit: 4) != nil
      else { return nil }
      // The kind of content a key names: what follows the prefix, up to "with" (`image` of
      // `…SupportsImageWithMaxCount`).
      func kind(_ rest: Substring) -> Substring {
        rest.firstRange(of: "with").map { rest[..<$0.lowerBound] } ?? rest
      }
      let rest = lowered[supports.upperBound...]
      let candidates = Key.allCases.filter { key in
        let documented = key.rawValue.lowercased()
        return documented.hasPrefix(prefix) && kind(documented.dropFirst(prefix.count)) == kind(rest)
      }
      // Attachments has a minimum and a maximum: a key that says "min" means the minimum.
      if candidates.count > 1 {
        return candidates.first { $0.rawValue.lowercased().contains("min") == rest.contains("min") }
      }
      return candidates.first
    }
  }

  /// The values of the documented keys that are present, as integers (Booleans read as 0 or 1).
  public var values: [Key: Int]
  /// Values whose plist type differs from Apple's documentation, in key order.
  public var typingFindings: [TypingFinding]
  /// Keys outside Apple's documented list, sorted by name.
  public var undocumentedKeys: [UndocumentedKey]

  /// A dictionary with the given documented values and nothing else.
  public init(
    _ values: [Key: Int] = [:], typingFindings: [TypingFinding] = [], undocumentedKeys: [UndocumentedKey] = []
  ) {
    self.values = values
    self.typingFindings = typingFindings
    self.undocumentedKeys = undocumentedKeys
  }

  /// Reads a rule dictionary.
  ///
  /// Accepts the typings found in the wild; anything else is recorded and ignored rather than thrown,
  /// because the system itself tolerates these rules.
  public init(propertyList dictionary: PropertyListDictionary) {
    var values: [Key: Int] = [:]
    var findings: [TypingFinding] = []
    var undocumented: [UndocumentedKey] = []
    for entry in dictionary.entries {
      let written = Self.writtenType(of: entry.value)
      guard let key = Key(rawValue: entry.key) else {
        undocumented.append(UndocumentedKey(name: entry.key, written: written))
        continue
      }
      let read = Self.integer(from: entry.value)
      if let read { values[key] = read }
      let expected: WrittenType = key.isBoolean ? .boolean : .integer
      if written != expected {
        findings.append(TypingFinding(key: key, written: written, readAs: read))
      }
    }
    let order = Dictionary(uniqueKeysWithValues: Key.allCases.enumerated().map { ($1, $0) })
    self.values = values
    self.typingFindings = findings.sorted { (order[$0.key] ?? 0) < (order[$1.key] ?? 0) }
    self.undocumentedKeys = undocumented.sorted { $0.name < $1.name }
  }

  /// Reads a rule dictionary from plist bytes (XML, binary or OpenStep) whose root is the rule dictionary.
  public init(plistData data: Data) throws(ActivationRuleError) {
    let root: PropertyListValue
    do {
      root = try PropertyListFile(data: data, duplicateKeys: .keepLast).value
    } catch {
      throw .propertyList(error)
    }
    guard case .dictionary(let dictionary) = root else {
      throw .malformedPropertyList(message: "the root of the property list is not a dictionary")
    }
    self.init(propertyList: dictionary)
  }

  // MARK: Typed accessors

  /// `NSExtensionActivationDictionaryVersion`; absent means version 1.
  public var version: Int { values[.dictionaryVersion] ?? 1 }
  /// `NSExtensionActivationUsesStrictMatching` as written, `nil` when absent.
  public var usesStrictMatching: Bool? { values[.usesStrictMatching].map { $0 != 0 } }
  /// `NSExtensionActivationSupportsText`; absent means false.
  public var supportsText: Bool { (values[.text] ?? 0) != 0 }

  /// Whether this package's model of Apple's matching treats the rule as strict (see ``DictionaryModel``).
  public var isStrict: Bool {
    version < 2 || usesStrictMatching == true
  }

  /// The value of a count key, or `nil` when absent. Zero and negative values mean "not supported".
  public func count(_ key: Key) -> Int? { values[key] }

  // MARK: Reading plist values

  static func writtenType(of value: PropertyListValue) -> WrittenType {
    switch value {
    case .string: .string
    case .date: .date
    case .data: .data
    case .array: .array
    case .dictionary: .dictionary
    case .bool: .boolean
    case .real: .real
    case .integer: .integer
    }
  }

  /// Reads the value the way the system presumably does: numbers and Booleans as integers (reals
  /// truncated, as `NSNumber.intValue` does), strings that hold an integer as that integer.
  static func integer(from value: PropertyListValue) -> Int? {
    switch value {
    case .bool(let flag):
      return flag ? 1 : 0
    case .integer(let number):
      return Int(exactly: number)
    case .real(let number):
      return number.isFinite ? Int(exactly: number.rounded(.towardZero)) : nil
    case .string(let text):
      let trimmed = text.trimming(while: \.isWhitespace)
      if let number = Int(trimmed) { return number }
      switch trimmed.lowercased() {
      case "true", "yes": return 1
      case "false", "no": return 0
      default: return nil
      }
    case .date, .data, .array, .dictionary:
      return nil
    }
  }
}
