/// A class of tags that map outside names (filename extensions, MIME types, …) to a type.
///
/// The raw value is the tag class name Apple uses as a key of `UTTypeTagSpecification`.
public struct TypeTagClass: RawRepresentable, Sendable, Hashable, Comparable, CustomStringConvertible {
  /// The tag class's name as Apple spells it, such as `public.filename-extension`.
  public let rawValue: String

  /// Creates a tag class from its `UTTypeTagSpecification` key.
  public init(rawValue: String) {
    self.rawValue = rawValue
  }

  /// `public.filename-extension`: extensions without the leading dot, matched case-insensitively.
  public static let filenameExtension = TypeTagClass(rawValue: "public.filename-extension")
  /// `public.mime-type`: MIME types, matched case-insensitively.
  public static let mimeType = TypeTagClass(rawValue: "public.mime-type")
  /// `com.apple.ostype`: classic Mac OS four-character codes, found in old declarations.
  public static let osType = TypeTagClass(rawValue: "com.apple.ostype")
  /// `com.apple.nspboard-type`: legacy AppKit pasteboard type names.
  public static let pasteboardType = TypeTagClass(rawValue: "com.apple.nspboard-type")
  /// `public.url-scheme`: URL schemes.
  public static let urlScheme = TypeTagClass(rawValue: "public.url-scheme")

  /// The raw tag class name.
  public var description: String { rawValue }

  /// Orders tag classes by name, so output listing them is stable.
  public static func < (lhs: TypeTagClass, rhs: TypeTagClass) -> Bool {
    lhs.rawValue < rhs.rawValue
  }
}

/// Where a type declaration in a registry came from.
public enum TypeDeclarationOrigin: String, Sendable, Hashable, Codable {
  /// The bundled table of Apple's system-declared types.
  case system
  /// An app's `UTExportedTypeDeclarations`: types the app owns.
  case exported
  /// An app's `UTImportedTypeDeclarations`: types defined elsewhere that the app uses.
  case imported
}

/// One declared type: its identifier, direct parents, tags and description.
public struct TypeDeclaration: Sendable, Hashable {
  /// The identifier in the spelling its declaration uses (comparisons ignore case).
  public var identifier: String
  /// The identifiers of the direct parents (`UTTypeConformsTo`), in declaration order.
  public var conformsTo: [String]
  /// Tags by class (`UTTypeTagSpecification`), each list in declaration order.
  public var tags: [TypeTagClass: [String]]
  /// The human-readable description (`UTTypeDescription`); empty when the declaration has none.
  public var typeDescription: String
  /// `UTTypeReferenceURL`, when declared.
  public var referenceURL: String?
  /// Which table the declaration came from.
  public var origin: TypeDeclarationOrigin
  /// The property-list key path of the declaration (`UTExportedTypeDeclarations[2]`); nil for system types.
  public var keyPath: String?

  /// Creates a declaration.
  public init(
    identifier: String,
    conformsTo: [String] = [],
    tags: [TypeTagClass: [String]] = [:],
    typeDescription: String = "",
    referenceURL: String? = nil,
    origin: TypeDeclarationOrigin = .imported,
    keyPath: String? = nil
  ) {
    self.identifier = identifier
    self.conformsTo = conformsTo
    self.tags = tags
    self.typeDescription = typeDescription
    self.referenceURL = referenceURL
    self.origin = origin
    self.keyPath = keyPath
  }

  /// The declared filename extensions.
  public var filenameExtensions: [String] { tags[.filenameExtension] ?? [] }
  /// The declared MIME types.
  public var mimeTypes: [String] { tags[.mimeType] ?? [] }
}
