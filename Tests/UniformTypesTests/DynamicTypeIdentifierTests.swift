import TestSupport
import Testing
import UniformTypes

@Suite("Dynamic type identifiers")
struct DynamicTypeIdentifierTests {
  /// Real identifiers: the six of the spec (§C.4), then bare forms seen in public Swift and Objective-C code
  /// (what an NSItemProvider registers, and `UTTypeCreatePreferredIdentifierForTag` with no conformance).
  static let realIdentifiers: [(String, String)] = [
    ("dyn.ah62d4rv4ge81g6xy", "?0=6:1=srt"),
    ("dyn.ah62d4rv4ge80s6d2", "?0=6:1=gpx"),
    ("dyn.ah62d4rv4ge80g55sq2", "?0=6:1=conf"),
    ("dyn.ah62d4rv4ge81gqm0", "?0=6:1=s16"),
    ("dyn.ah62d4rv4ge80425uqk", "?0=6:1=mcpb"),
    ("dyn.ah62d4rv4ge8024p0sa", "?0=6:1=livp"),
    ("dyn.age81e62", "1=rs"),
    ("dyn.ah62d4sb4ge81e62", "?0=8:1=rs"),
    ("dyn.age80s52", "1=go"),
    ("dyn.age80835h", "1=ogg"),
    ("dyn.age80k551r30g82pe", "1=download"),
    ("dyn.age8u", "1="),
  ]

  @Test("decodes real identifiers to their tag specification", arguments: realIdentifiers)
  func decodeSpecification(identifier: String, specification: String) {
    #expect(DynamicTypeIdentifier.decodeSpecification(identifier) == specification)
  }

  @Test("re-encodes real identifiers byte for byte", arguments: realIdentifiers)
  func roundTrip(identifier: String, specification: String) throws {
    let decoded = try #require(DynamicTypeIdentifier(decoding: identifier))
    #expect(decoded.identifier == identifier)
  }

  @Test(
    "creates the identifier Apple creates for an unknown extension",
    arguments: [
      ("srt", "public.data", "dyn.ah62d4rv4ge81g6xy"),
      ("GPX", "public.data", "dyn.ah62d4rv4ge80s6d2"),
      ("livp", "public.data", "dyn.ah62d4rv4ge8024p0sa"),
    ])
  func encodeExtension(filenameExtension: String, supertype: String, expected: String) {
    let dynamic = DynamicTypeIdentifier(
      tag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
    #expect(dynamic.identifier == expected)
    #expect(
      TypeRegistry.system.preferredType(forFilenameExtension: filenameExtension, conformingTo: supertype)
        == expected)
  }

  @Test("the bare form (no conformance) is what an item provider registers")
  func bareForm() {
    #expect(
      DynamicTypeIdentifier(tag: "rs", tagClass: .filenameExtension, conformingTo: nil).identifier
        == "dyn.age81e62")
    #expect(
      DynamicTypeIdentifier(tag: "rs", tagClass: .filenameExtension, conformingTo: "public.plain-text")
        .identifier
        == "dyn.ah62d4sb4ge81e62")
  }

  @Test("decoded parts name the conformance and the tags")
  func decodedParts() throws {
    let gpx = try #require(DynamicTypeIdentifier(decoding: "dyn.ah62d4rv4ge80s6d2"))
    #expect(gpx.conformsTo == ["public.data"])
    #expect(gpx.tags.map(\.tagClass) == [.filenameExtension])
    #expect(gpx.tags.map(\.value) == ["gpx"])
    #expect(TypeRegistry.system.tags(of: "dyn.ah62d4rv4ge80s6d2") == [.filenameExtension: ["gpx"]])
    #expect(TypeRegistry.system.preferredFilenameExtension(of: "dyn.ah62d4rv4ge80s6d2") == "gpx")
  }

  @Test("a dyn type conforms to what it encodes and its ancestors, and otherwise only to itself")
  func conformance() {
    let registry = TypeRegistry.system
    let gpx = "dyn.ah62d4rv4ge80s6d2"
    #expect(registry.conforms(gpx, to: gpx))
    #expect(registry.conforms(gpx.uppercased(), to: gpx))
    #expect(registry.conforms(gpx, to: "public.data"))
    #expect(registry.conforms(gpx, to: "public.item"))
    #expect(!registry.conforms(gpx, to: "public.content"))
    #expect(!registry.conforms(gpx, to: "dyn.ah62d4rv4ge81g6xy"))
    #expect(registry.ancestors(of: gpx) == [gpx, "public.data", "public.item"])
    #expect(registry.conforms("dyn.ah62d4sb4ge81e62", to: "public.text"))
    #expect(!registry.conforms("dyn.age80s52", to: "public.data"))
    #expect(registry.ancestors(of: "dyn.age80s52") == ["dyn.age80s52"])
  }

  @Test("a dyn type for a tag the registry knows conforms like the declared type")
  func knownTagConformance() {
    let registry = TypeRegistry.system
    let jpegExtension = DynamicTypeIdentifier(tag: "jpg", tagClass: .filenameExtension, conformingTo: nil)
      .identifier
    #expect(registry.conforms(jpegExtension, to: "public.jpeg"))
    #expect(registry.conforms(jpegExtension, to: "public.image"))
    let mime = DynamicTypeIdentifier(tag: "image/png", tagClass: .mimeType, conformingTo: "public.data")
      .identifier
    #expect(registry.conforms(mime, to: "public.png"))
    let gpxRegistry = registry.adding([
      TypeDeclaration(
        identifier: "com.topografix.gpx", conformsTo: ["public.xml"], tags: [.filenameExtension: ["gpx"]])
    ])
    #expect(!registry.conforms("dyn.ah62d4rv4ge80s6d2", to: "public.xml"))
    #expect(gpxRegistry.conforms("dyn.ah62d4rv4ge80s6d2", to: "com.topografix.gpx"))
    #expect(gpxRegistry.conforms("dyn.ah62d4rv4ge80s6d2", to: "public.text"))
    // `.rs` was unknown where this identifier was minted; this table declares public.rust-source.
    #expect(registry.conforms("dyn.age81e62", to: "public.rust-source"))
    #expect(registry.preferredType(forFilenameExtension: "rs") == "public.rust-source")
  }

  @Test(
    "rejects what is not a dynamic identifier",
    arguments: [
      "public.jpeg", "dyn.", "dyn.b62d4", "dyn.ah62d4rv4ge80s6d!", "dyn.ai", "dyn.age81e63", "dyn.a96",
    ])
  func rejects(identifier: String) {
    #expect(DynamicTypeIdentifier(decoding: identifier) == nil)
  }

  @Test("escapes separators inside names and round-trips them")
  func escaping() throws {
    let dynamic = DynamicTypeIdentifier(
      conformsTo: ["org.example.a=b"], tags: [TypeTag(TypeTagClass(rawValue: "org.example:class"), "x\\y:z")])
    let decoded = try #require(DynamicTypeIdentifier(decoding: dynamic.identifier))
    #expect(decoded.conformsTo == ["org.example.a=b"])
    #expect(decoded.tags.map(\.tagClass.rawValue) == ["org.example:class"])
    #expect(decoded.tags.map(\.value) == ["x\\y:z"])
  }

  @Test("random tag specifications survive encoding and decoding (seeded)")
  func propertyRoundTrip() throws {
    var generator = SeededGenerator(seed: 0x5EED_0001)
    let alphabet = Array("abcXYZ019-.+/:=\\?é")
    let classes: [TypeTagClass] = [
      .filenameExtension, .mimeType, .osType, .urlScheme, TypeTagClass(rawValue: "x.y"),
    ]
    for _ in 0..<500 {
      func word() -> String {
        String(
          (0..<Int.random(in: 0...8, using: &generator)).map { _ in alphabet.randomElement(using: &generator)!
          })
      }
      let conformsTo =
        Bool.random(using: &generator)
        ? [] : ["public.data", "org.example." + word()].shuffled(using: &generator)
      let tags = (0..<Int.random(in: 1...3, using: &generator)).map { _ in
        TypeTag(classes.randomElement(using: &generator)!, word())
      }
      let dynamic = DynamicTypeIdentifier(conformsTo: conformsTo, tags: tags)
      let decoded = try #require(DynamicTypeIdentifier(decoding: dynamic.identifier))
      #expect(decoded.conformsTo == conformsTo)
      #expect(decoded.tags.map(\.tagClass) == tags.map(\.tagClass))
      #expect(decoded.tags.map(\.value) == tags.map(\.value))
    }
  }
}
