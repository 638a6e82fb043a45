import PredicateSyntax
import PropertyLists
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

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
    /// Other `NSExtensionActivation…` keys (`…SupportsImageWithMaxCount`, `…DictionaryVersion`) placed in
    /// `NSExtensionAttributes` beside the rule or in `NSExtension`, where the system does not read them,
    /// each with its path.
    public var activationKeysOutsideRule: [PropertyListPath] = []
    /// Whether the plist has an `IntuneMAMSettings` dictionary (the app or extension uses Intune).
    public var hasIntuneMAMSettings: Bool
    /// `NSExtension › NSExtensionPointIdentifier`.
    public var extensionPointIdentifier: String?
    /// The plist's `UTExportedTypeDeclarations`/`UTImportedTypeDeclarations`, when it has any.
    public var typeDeclarations: AppTypeDeclarations?

    /// The facts of an Info.plist's `NSExtensionAttributes`; every one defaults to "not set".
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
  /// Which kind of file it is.
  public var form: Form
  /// The rule as read.
  public var value: Value
  /// What the Info.plist says around the rule.
  public var facts: ExtensionFacts
  /// For a predicate inside a plist `<string>`: the file byte offset of each decoded byte, plus one entry
  /// for the end. Empty when positions map one to one (predicate files) or are unknown (binary plists).
  var predicateOffsetMap: [Int]
  /// The positioned XML document (`nil` for predicate files and binary or OpenStep plists).
  let document: PropertyListDocument?
  /// Keys an XML or OpenStep rule plist has twice in one dictionary (the last value is the one read).
  let duplicateKeys: [PropertyListDuplicateKey]
  /// Where the rule is in ``document``: `NSExtension › NSExtensionAttributes › NSExtensionActivationRule`,
  /// the root key `NSExtensionActivationRule`, or the root itself (a plist that is the rule dictionary).
  let rulePath: PropertyListPath

  /// Reads a rule from a file's bytes.
  ///
  /// - Parameters:
  ///   - path: The file's path, only used in messages.
  ///   - data: The file's bytes: a predicate, or an XML, binary or OpenStep property list.
  ///   - preprocessing: For an XML Info.plist whose target sets `INFOPLIST_PREPROCESS = YES`, the target's
  ///     macros: the file's `#if`/`#include` lines are then read as Xcode's preprocessor reads them
  ///     (`PropertyListPreprocessing`, of the PropertyLists module). Without it such lines are an error
  ///     that says so.
  public init(path: String, data: Data, preprocessing: PropertyListPreprocessing? = nil)
    throws(ActivationRuleError)
  {
    self.path = path
    self.facts = ExtensionFacts()
    self.predicateOffsetMap = []
    let openStepFile = Self.openStepDictionaryFile(data, path: path)
    // A `.plist` is a property list whatever it holds: an empty or truncated one (wallabag commits 1-byte
    // Info.plists) gets the property-list reader's error, not "empty predicate".
    let namedPlist = path.lowercased().hasSuffix(".plist")
    guard openStepFile != nil || namedPlist || Self.looksLikePropertyList(data) else {
      contents = String(decoding: data, as: UTF8.self)
      form = .predicateFile
      value = .predicate(contents)
      document = nil
      duplicateKeys = []
      rulePath = []
      return
    }
    contents = data.starts(with: Array("bplist".utf8)) ? "" : String(decoding: data, as: UTF8.self)
    // PropertyLists reads every format: it enforces the size and depth limits, refuses entity declarations,
    // and reports problems with a line, a column and a hint. Duplicate keys: the last wins, as on the device.
    let file: PropertyListFile
    if let openStepFile {
      file = openStepFile
    } else {
      do {
        file = try PropertyListFile(
          data: data, path: path, duplicateKeys: .keepLast, preprocessing: preprocessing)
      } catch {
        throw .propertyList(error)
      }
    }
    document = file.document
    duplicateKeys = file.duplicateKeyWarnings
    if case .string = file.value {
      // A rule plist whose root is the rule, a predicate: what `inject --in-place` and `convert --in-place`
      // write for a rule plist whose root was a dictionary rule.
      form = .rulePlist
      rulePath = []
      value = try Self.value(of: file.value)
      if case .predicate(let text) = value { locatePredicate(text) }
      return
    }
    guard case .dictionary(let dictionary) = file.value else {
      throw .malformedPropertyList(
        message: "the root of the property list is neither a dictionary nor a predicate string")
    }
    if case .dictionary(let extensionDictionary)? = dictionary["NSExtension"] {
      form = .infoPlist
      let attributes = extensionDictionary["NSExtensionAttributes"]?.dictionaryValue ?? [:]
      facts = ExtensionFacts(
        javaScriptPreprocessingFile: attributes["NSExtensionJavaScriptPreprocessingFile"]?.stringValue,
        strictMatchingOutsideRule: attributes["NSExtensionActivationUsesStrictMatching"] != nil,
        hasIntuneMAMSettings: dictionary["IntuneMAMSettings"]?.dictionaryValue != nil,
        extensionPointIdentifier: extensionDictionary["NSExtensionPointIdentifier"]?.stringValue)
      let places: [(PropertyListPath, PropertyListDictionary)] = [
        (["NSExtension", "NSExtensionAttributes"], attributes), (["NSExtension"], extensionDictionary),
      ]
      for (place, entries) in places {
        for key in entries.keys
        where key.hasPrefix("NSExtensionActivation") && key != "NSExtensionActivationRule"
          && key != "NSExtensionActivationUsesStrictMatching"
        {
          facts.activationKeysOutsideRule.append(place.appending(.key(key)))
        }
      }
      let declarations = AppTypeDeclarations(propertyList: dictionary)
      if !declarations.exported.isEmpty || !declarations.imported.isEmpty {
        facts.typeDeclarations = declarations
      }
      rulePath = ["NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule"]
      guard let rule = attributes["NSExtensionActivationRule"] else {
        try Self.refuseMisplacedRule(
          extension: extensionDictionary, looseKeys: facts.activationKeysOutsideRule, document: file.document,
          path: path)
        throw .ruleNotFound(extensionPoint: facts.extensionPointIdentifier)
      }
      value = try Self.value(of: rule)
    } else if let rule = dictionary["NSExtensionActivationRule"] {
      form = .rulePlist
      rulePath = ["NSExtensionActivationRule"]
      value = try Self.value(of: rule)
    } else if dictionary.isEmpty || dictionary.keys.contains(where: { $0.hasPrefix("NSExtensionActivation") })
    {
      // An empty dictionary is no Info.plist (every one names its bundle); as a rule it accepts nothing, as
      // an extension's `<dict/>` rule does (Leitmotif's share extension).
      form = .rulePlist
      rulePath = []
      value = .dictionary(ActivationDictionary(propertyList: dictionary))
    } else if dictionary["NSExtensionAttributes"]?.dictionaryValue?["NSExtensionActivationRule"] != nil {
      // The attributes at the root, not inside NSExtension (a real app's Info.plist, Docuport): the system
      // reads NSExtension › NSExtensionAttributes only, so this rule is never read.
      let position = file.document?.entry(at: ["NSExtensionAttributes"])?.keyPosition
      throw ActivationRuleError(
        .ruleMisplaced,
        "NSExtensionAttributes, with an NSExtensionActivationRule, is at the root of the property list, where "
          + "the system does not read it: an extension's rule is NSExtension › NSExtensionAttributes › "
          + "NSExtensionActivationRule",
        location: FileLocation(file: path, line: position?.line, column: position?.column),
        hint:
          "move NSExtensionAttributes into the NSExtension dictionary (beside NSExtensionPointIdentifier), "
          + "in the extension's Info.plist")
    } else {
      // Neither an extension's Info.plist nor a rule: an app's Info.plist, say, would otherwise read as an
      // empty rule dictionary that never activates.
      throw .ruleNotFound
    }
    if case .predicate(let text) = value { locatePredicate(text) }
  }

  /// Throws ``ActivationRuleError/Kind/ruleMisplaced`` when an extension without
  /// `NSExtensionAttributes › NSExtensionActivationRule` has the rule, or its
  /// `NSExtensionActivationSupports…` keys, one level off, where the system does not read them (real
  /// Info.plists: XDM's rule directly in `NSExtension`; prophetie_app's keys loose in
  /// `NSExtensionAttributes`). Such an extension is broken, not rule-less: `--skip-files-without-rule` must
  /// not pass over it.
  static func refuseMisplacedRule(
    extension extensionDictionary: PropertyListDictionary, looseKeys: [PropertyListPath],
    document: PropertyListDocument?, path: String
  ) throws(ActivationRuleError) {
    let location = { (place: PropertyListPath) in
      let position = document?.entry(at: place)?.keyPosition
      return FileLocation(file: path, line: position?.line, column: position?.column)
    }
    if extensionDictionary["NSExtensionActivationRule"] != nil {
      throw ActivationRuleError(
        .ruleMisplaced,
        "NSExtensionActivationRule is directly in NSExtension, where the system does not read it: an "
          + "extension's rule is NSExtension › NSExtensionAttributes › NSExtensionActivationRule",
        location: location(["NSExtension", "NSExtensionActivationRule"]),
        hint: "move NSExtensionActivationRule into the NSExtensionAttributes dictionary")
    }
    if let first = looseKeys.first {
      throw ActivationRuleError(
        .ruleMisplaced,
        "the NSExtensionActivation… keys are in \(first.parent), not in an NSExtensionActivationRule "
          + "dictionary, so the system reads no rule: "
          + looseKeys.map { path in
            path.components.map {
              guard case .key(let key) = $0 else { return $0.description }
              return ActivationDictionary.escapedKey(key)
            }.joined(separator: " › ")
          }.joined(separator: ", "),
        location: location(first),
        hint: "put them in an NSExtensionActivationRule dictionary inside NSExtension › NSExtensionAttributes"
      )
    }
  }

  /// A rule given as predicate text on the command line or standard input.
  public init(path: String, predicate text: String) {
    self.path = path
    self.contents = text
    self.form = .predicateFile
    self.value = .predicate(text)
    self.facts = ExtensionFacts()
    self.predicateOffsetMap = []
    self.document = nil
    self.duplicateKeys = []
    self.rulePath = []
  }

  private static func value(of ruleValue: PropertyListValue) throws(ActivationRuleError) -> Value {
    switch ruleValue {
    case .string(let text): return .predicate(text)
    case .dictionary(let dictionary): return .dictionary(ActivationDictionary(propertyList: dictionary))
    default: throw .unexpectedRuleValue(ActivationDictionary.writtenType(of: ruleValue))
    }
  }

  private static func head(of data: Data) -> Substring {
    String(decoding: data.prefix(512), as: UTF8.self).trimming(while: { $0.isWhitespace || $0 == "\u{FEFF}" })
  }

  /// Whether `data` is a plist rather than predicate text. A bare `<dict>…</dict>` (a dictionary rule copied
  /// out of an Info.plist without its `<plist>` wrapper) is one too: no predicate starts with `<`, and the XML
  /// reader takes a value element as the root.
  private static func looksLikePropertyList(_ data: Data) -> Bool {
    let head = head(of: data)
    return head.hasPrefix("<?xml") || head.hasPrefix("<plist") || head.hasPrefix("<!DOCTYPE plist")
      || head.hasPrefix("bplist") || head.hasPrefix("<dict>") || head.hasPrefix("<dict/>")
  }

  /// The file, read, when `data` is an old-style (OpenStep) dictionary, `{ Key = value; }`, perhaps after a
  /// comment. A predicate may start with `{` too (an aggregate, `{1, 2} CONTAINS x`), but never reads as an
  /// OpenStep dictionary, so the reader decides.
  private static func openStepDictionaryFile(_ data: Data, path: String) -> PropertyListFile? {
    let head = head(of: data)
    guard head.hasPrefix("{") || head.hasPrefix("//") || head.hasPrefix("/*"),
      let file = try? PropertyListFile(data: data, path: path, duplicateKeys: .keepLast),
      file.format == .openStep, case .dictionary = file.value
    else { return nil }
    return file
  }

  /// The rule's element in the document.
  var ruleNode: PropertyListNode? { document?.node(at: rulePath) }

  /// Records where each decoded byte of the rule's `<string>` sits in the file.
  private mutating func locatePredicate(_ decoded: String) {
    guard let document, let node = ruleNode, node.kind == .string else { return }
    let map = document.sourceOffsets(ofStringNode: node)
    // One entry per decoded byte and one for the end, or the element is not the text decoded.
    guard map.count == decoded.utf8.count + 1 else { return }
    predicateOffsetMap = map
  }

  /// `base` with the types the Info.plist declares (`UTExportedTypeDeclarations`,
  /// `UTImportedTypeDeclarations`): on a device an attachment of such a type conforms to what it declares.
  public func registry(extending base: TypeRegistry = .system) -> TypeRegistry {
    facts.typeDeclarations.map { base.adding($0) } ?? base
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

  /// Where the entry at `path` starts (its key), or nil when the file has no such entry.
  public func position(ofEntry path: PropertyListPath) -> SourcePosition? {
    document?.entry(at: path).map {
      TextPositions.position(ofByteOffset: $0.keyRange.lowerBound, in: contents)
    }
  }

  /// Where `<key>name</key>` is in the file: inside the rule dictionary, else beside the rule, else at the
  /// root; the start of the file when the key is not there.
  public func position(ofKey name: String) -> SourcePosition {
    let places = [rulePath, rulePath.parent, []]
    for place in places {
      if let entry = document?.entry(at: place.appending(.key(name))) {
        return TextPositions.position(ofByteOffset: entry.keyRange.lowerBound, in: contents)
      }
    }
    return TextPositions.position(ofByteOffset: 0, in: contents)
  }

  /// Where the rule itself starts: the predicate's first byte, or the rule's element.
  public var rulePosition: SourcePosition {
    if form == .predicateFile { return TextPositions.position(ofByteOffset: 0, in: contents) }
    if !predicateOffsetMap.isEmpty { return filePosition(ofPredicateOffset: 0) }
    let offset = ruleNode?.elementRange.lowerBound ?? 0
    return TextPositions.position(ofByteOffset: offset, in: contents)
  }
}

/// Converts UTF-8 byte offsets to the line/column positions people read.
public enum TextPositions {
  /// Line (1-based) and column (1-based, Unicode scalars) of a byte offset in `text`.
  public static func position(ofByteOffset offset: Int, in text: String) -> SourcePosition {
    // Over the UTF-8 bytes, without a string per scalar: `explain` and `lint` ask for a position per node,
    // and a rule of a thousand clauses took seconds. A column counts lead bytes, one per scalar; an offset
    // inside a scalar stays before it.
    var line = 1
    var column = 1
    var text = text
    text.withUTF8 { bytes in
      var lineStart = 0
      var index = 0
      while index < bytes.count {
        let byte = bytes[index]
        let width = byte < 0x80 ? 1 : byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : byte >= 0xC0 ? 2 : 1
        if index + width > offset { break }
        index += width
        if byte == UInt8(ascii: "\n") {
          line += 1
          lineStart = index
        }
      }
      var scalars = 0
      var scan = lineStart
      while scan < index {
        if bytes[scan] & 0xC0 != 0x80 { scalars += 1 }
        scan += 1
      }
      column += scalars
    }
    return SourcePosition(line: line, column: column, offset: offset)
  }

  /// The text of the line a position is on, without its line break.
  public static func line(_ number: Int, in text: String) -> String {
    // By bytes: "\r\n" is a single Character, which a split on "\n" would not see.
    let lines = text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
    guard number >= 1, number <= lines.count else { return "" }
    return String(decoding: lines[number - 1].filter { $0 != UInt8(ascii: "\r") }, as: UTF8.self)
  }
}
