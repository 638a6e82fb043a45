import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The type declarations of one app's Info.plist: `UTExportedTypeDeclarations` and
/// `UTImportedTypeDeclarations`, read leniently, with a diagnostic for everything that had to be skipped.
///
/// Reading accepts the variations real plists contain: `UTTypeConformsTo` and each tag of
/// `UTTypeTagSpecification` as a single string or an array of strings. Nothing here throws for a malformed
/// declaration; it is reported in ``diagnostics`` under its key path and left out.
public struct AppTypeDeclarations: Sendable, Hashable {
  /// Types the app owns, in plist order.
  public var exported: [TypeDeclaration]
  /// Types the app uses but does not own, in plist order.
  public var imported: [TypeDeclaration]
  /// Problems found while reading, in plist order.
  public var diagnostics: [TypeDeclarationDiagnostic]

  /// The Info.plist key of the exported declarations.
  public static let exportedKey = "UTExportedTypeDeclarations"
  /// The Info.plist key of the imported declarations.
  public static let importedKey = "UTImportedTypeDeclarations"

  /// Declarations made in code.
  public init(
    exported: [TypeDeclaration] = [], imported: [TypeDeclaration] = [],
    diagnostics: [TypeDeclarationDiagnostic] = []
  ) {
    self.exported = exported.map { Self.withOrigin(.exported, $0) }
    self.imported = imported.map { Self.withOrigin(.imported, $0) }
    self.diagnostics = diagnostics
  }

  /// Reads the declarations of an Info.plist's root dictionary.
  public init(propertyList: PropertyListDictionary) {
    var reader = DeclarationReader()
    exported = reader.readList(propertyList[Self.exportedKey], key: Self.exportedKey, origin: .exported)
    imported = reader.readList(propertyList[Self.importedKey], key: Self.importedKey, origin: .imported)
    diagnostics = reader.diagnostics
  }

  /// Reads the declarations of an Info.plist file's contents (XML, binary or OpenStep).
  ///
  /// Duplicate keys are read as Apple's readers read them: the last one wins. When the data is XML, every
  /// diagnostic also gets the line and column of the value it names.
  /// - Throws: ``TypeDeclarationDiagnostic`` when the data is not a property list whose root is a dictionary.
  public init(propertyListData data: Data) throws(TypeDeclarationDiagnostic) {
    let root: PropertyListValue
    do {
      root = try PropertyListFile(data: data, duplicateKeys: .keepLast).value
    } catch {
      throw TypeDeclarationDiagnostic(
        .error, at: "", "not a property list: \(error.message)",
        position: error.position.map { DeclarationPosition(line: $0.line, column: $0.column) }
          ?? PropertyListLocator.firstPosition(in: data))
    }
    guard case .dictionary(let dictionary) = root else {
      throw TypeDeclarationDiagnostic(
        .error, at: "",
        "the root of the property list is \(DeclarationReader.kind(of: root)), not a dictionary",
        position: PropertyListLocator.firstPosition(in: data))
    }
    self.init(propertyList: dictionary)
    diagnostics = Self.locate(diagnostics, in: data)
  }

  /// Gives every diagnostic without a position the position of its key path in `propertyListData`, when
  /// that is an XML property list; for the diagnostics a registry adds (conflicts, cycles).
  public static func locate(_ diagnostics: [TypeDeclarationDiagnostic], in propertyListData: Data)
    -> [TypeDeclarationDiagnostic]
  {
    guard diagnostics.contains(where: { $0.position == nil }) else { return diagnostics }
    let locator = PropertyListLocator(data: propertyListData)
    return diagnostics.map { diagnostic in
      var located = diagnostic
      if located.position == nil { located.position = locator.position(of: diagnostic.keyPath) }
      return located
    }
  }

  /// Whether any diagnostic is an error.
  public var hasErrors: Bool { diagnostics.contains { $0.severity == .error } }

  private static func withOrigin(_ origin: TypeDeclarationOrigin, _ declaration: TypeDeclaration)
    -> TypeDeclaration
  {
    var copy = declaration
    copy.origin = origin
    return copy
  }
}

/// Reads declaration dictionaries, collecting diagnostics instead of failing.
struct DeclarationReader {
  var diagnostics: [TypeDeclarationDiagnostic] = []

  mutating func readList(_ value: PropertyListValue?, key: String, origin: TypeDeclarationOrigin)
    -> [TypeDeclaration]
  {
    guard let value else { return [] }
    guard case .array(let list) = value else {
      error(at: key, "expected an array of type declarations, found \(Self.kind(of: value))")
      return []
    }
    var declarations: [TypeDeclaration] = []
    for (index, element) in list.enumerated() {
      let path = "\(key)[\(index)]"
      guard case .dictionary(let dictionary) = element else {
        error(at: path, "expected a type declaration dictionary, found \(Self.kind(of: element))")
        continue
      }
      if let declaration = readDeclaration(dictionary, path: path, origin: origin) {
        declarations.append(declaration)
      }
    }
    return declarations
  }

  private mutating func readDeclaration(
    _ dictionary: PropertyListDictionary, path: String, origin: TypeDeclarationOrigin
  )
    -> TypeDeclaration?
  {
    let identifierPath = path + ".UTTypeIdentifier"
    guard let rawIdentifier = dictionary["UTTypeIdentifier"] else {
      error(at: path, "missing UTTypeIdentifier; the declaration is ignored")
      return nil
    }
    guard case .string(let identifier) = rawIdentifier else {
      error(
        at: identifierPath,
        "expected a string, found \(Self.kind(of: rawIdentifier)); the declaration is ignored")
      return nil
    }
    guard !identifier.isEmpty else {
      error(at: identifierPath, "the identifier is empty; the declaration is ignored")
      return nil
    }
    if DynamicTypeIdentifier.isDynamic(identifier) {
      error(at: identifierPath, "'\(identifier)': the dyn prefix is reserved for dynamic types; ignored")
      return nil
    }
    if let invalid = identifier.unicodeScalars.first(where: { !Self.isIdentifierScalar($0) }) {
      warning(
        at: identifierPath,
        "'\(identifier)' contains '\(invalid)'; identifiers use only letters, digits, '-' and '.'")
    }
    let conformsTo = readStrings(dictionary["UTTypeConformsTo"], path: path + ".UTTypeConformsTo")
    var tags: [TypeTagClass: [String]] = [:]
    let tagPath = path + ".UTTypeTagSpecification"
    if let rawTags = dictionary["UTTypeTagSpecification"] {
      if case .dictionary(let tagDictionary) = rawTags {
        for (tagClass, value) in tagDictionary.entries.map({ ($0.key, $0.value) }).sorted(by: { $0.0 < $1.0 })
        {
          let values = readStrings(value, path: tagPath + "." + tagClass)
          if !values.isEmpty { tags[TypeTagClass(rawValue: tagClass), default: []] += values }
        }
      } else {
        error(at: tagPath, "expected a dictionary of tag classes, found \(Self.kind(of: rawTags)); ignored")
      }
    }
    let typeDescription = readString(dictionary["UTTypeDescription"], path: path + ".UTTypeDescription")
    let referenceURL = readString(dictionary["UTTypeReferenceURL"], path: path + ".UTTypeReferenceURL")
    return TypeDeclaration(
      identifier: identifier, conformsTo: conformsTo, tags: tags, typeDescription: typeDescription ?? "",
      referenceURL: referenceURL, origin: origin, keyPath: path)
  }

  /// A string or an array of strings; other elements are reported and skipped.
  private mutating func readStrings(_ value: PropertyListValue?, path: String) -> [String] {
    guard let value else { return [] }
    if case .string(let single) = value { return [single] }
    guard case .array(let list) = value else {
      error(at: path, "expected a string or an array of strings, found \(Self.kind(of: value)); ignored")
      return []
    }
    var strings: [String] = []
    for (index, element) in list.enumerated() {
      if case .string(let string) = element {
        strings.append(string)
      } else {
        error(at: "\(path)[\(index)]", "expected a string, found \(Self.kind(of: element)); ignored")
      }
    }
    return strings
  }

  private mutating func readString(_ value: PropertyListValue?, path: String) -> String? {
    guard let value else { return nil }
    guard case .string(let string) = value else {
      warning(at: path, "expected a string, found \(Self.kind(of: value)); ignored")
      return nil
    }
    return string
  }

  private mutating func error(at path: String, _ message: String) {
    diagnostics.append(TypeDeclarationDiagnostic(.error, at: path, message))
  }

  private mutating func warning(at path: String, _ message: String) {
    diagnostics.append(TypeDeclarationDiagnostic(.warning, at: path, message))
  }

  /// Letters and digits of ASCII, `-`, `.`, and anything above U+007F (Apple's rule for identifiers).
  static func isIdentifierScalar(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "a"..."z", "A"..."Z", "0"..."9", "-", ".": return true
    default: return scalar.value > 0x7F
    }
  }

  /// The property-list type name of a value, for messages.
  static func kind(of value: PropertyListValue) -> String {
    switch value {
    case .string: "a string"
    case .array: "an array"
    case .dictionary: "a dictionary"
    case .bool: "a boolean"
    case .real: "a real"
    case .integer: "an integer"
    case .date: "a date"
    case .data: "data"
    }
  }
}
