import Testing
import UniformTypes

@Suite("Conformance")
struct ConformanceTests {
  /// Closures from the spec (§C.5) and the types activation rules use most.
  static let closures: [(String, [String])] = [
    ("public.jpeg", ["public.jpeg", "public.image", "public.data", "public.content", "public.item"]),
    (
      "public.heic",
      ["public.heic", "public.heif-standard", "public.image", "public.data", "public.content", "public.item"]
    ),
    ("public.png", ["public.png", "public.image", "public.data", "public.content", "public.item"]),
    ("public.image", ["public.image", "public.data", "public.content", "public.item"]),
    (
      "public.movie",
      ["public.movie", "public.audiovisual-content", "public.data", "public.content", "public.item"]
    ),
    (
      "public.mpeg-4",
      [
        "public.mpeg-4", "public.movie", "public.audiovisual-content", "public.data", "public.content",
        "public.item",
      ]
    ),
    ("public.url", ["public.url", "public.data", "public.item"]),
    ("public.file-url", ["public.file-url", "public.url", "public.data", "public.item"]),
    (
      "public.plain-text",
      ["public.plain-text", "public.text", "public.data", "public.content", "public.item"]
    ),
    (
      "public.utf8-plain-text",
      [
        "public.utf8-plain-text", "public.plain-text", "public.text", "public.data", "public.content",
        "public.item",
      ]
    ),
    ("public.text", ["public.text", "public.data", "public.content", "public.item"]),
    (
      "public.vcard",
      ["public.vcard", "public.text", "public.contact", "public.data", "public.content", "public.item"]
    ),
    (
      "com.adobe.pdf",
      ["com.adobe.pdf", "public.data", "public.composite-content", "public.item", "public.content"]
    ),
    ("public.data", ["public.data", "public.item"]),
    ("public.content", ["public.content"]),
    ("public.item", ["public.item"]),
    (
      "public.zip-archive",
      ["public.zip-archive", "com.pkware.zip-archive", "public.data", "public.archive", "public.item"]
    ),
    ("com.apple.property-list", ["com.apple.property-list", "public.data", "public.item"]),
  ]

  @Test("ancestors are the expected closure", arguments: closures)
  func ancestors(identifier: String, expected: [String]) {
    #expect(Set(TypeRegistry.system.ancestors(of: identifier)) == Set(expected))
    #expect(TypeRegistry.system.ancestors(of: identifier).first == identifier)
  }

  @Test("conformance agrees with the closure for every pair of the common types", arguments: closures)
  func conformsMatchesClosure(identifier: String, expected: [String]) {
    let registry = TypeRegistry.system
    let resolved = registry.resolve(identifier)
    for (other, _) in Self.closures {
      let expectedAnswer = expected.contains(other)
      #expect(registry.conforms(identifier, to: other) == expectedAnswer, "\(identifier) → \(other)")
      #expect(registry.conforms(resolved, to: registry.resolve(other)) == expectedAnswer)
    }
  }

  /// Where the runtime table and the UTCoreTypes.h comments disagree, conformance follows the table (§C.3).
  @Test(
    "runtime-table conformances the header comments do not list",
    arguments: [
      ("public.comma-separated-values-text", "public.plain-text", true),
      ("public.tab-separated-values-text", "public.plain-text", true),
      ("public.svg-image", "public.xml", true),
      ("public.m3u-playlist", "public.plain-text", true),
      ("com.apple.internet-location", "public.stored-url", true),
      ("public.disk-image", "public.archive", true),
      ("com.apple.m4a-audio", "public.mpeg-4-audio", true),
      ("public.mpeg-4-audio", "public.mpeg-4", false),
      ("public.executable", "public.item", false),
      ("com.apple.web-internet-location", "public.stored-url", true),
    ])
  func runtimeTable(type: String, supertype: String, expected: Bool) {
    #expect(TypeRegistry.system.conforms(type, to: supertype) == expected)
  }

  @Test("com.apple.pkpass is a package (a directory), not data; its flat form is data")
  func pkpass() {
    let registry = TypeRegistry.system
    #expect(
      Set(registry.ancestors(of: "com.apple.pkpass"))
        == ["com.apple.pkpass", "com.apple.bundle", "com.apple.package", "public.directory", "public.item"])
    #expect(!registry.conforms("com.apple.pkpass", to: "public.data"))
    #expect(registry.conforms("com.apple.pkpass-data", to: "public.data"))
    #expect(
      registry.preferredType(forFilenameExtension: "pkpass", conformingTo: "public.item")
        == "com.apple.pkpass")
    #expect(registry.preferredType(forFilenameExtension: "pkpass") == "com.apple.pkpass-data")
  }

  @Test(
    "identifiers compare case-insensitively",
    arguments: [
      ("PUBLIC.JPEG", "public.image"), ("public.heic", "Public.Image"), ("Com.Adobe.PDF", "PUBLIC.DATA"),
    ])
  func caseInsensitive(type: String, supertype: String) {
    let registry = TypeRegistry.system
    #expect(registry.conforms(type, to: supertype))
    #expect(registry.conforms(registry.resolve(type), to: registry.resolve(supertype)))
  }

  @Test("an undeclared identifier conforms only to itself, ignoring case")
  func undeclared() {
    let registry = TypeRegistry.system
    #expect(registry.conforms("org.example.thing", to: "ORG.EXAMPLE.THING"))
    #expect(!registry.conforms("org.example.thing", to: "public.item"))
    #expect(!registry.conforms("public.item", to: "org.example.thing"))
    #expect(!registry.conforms("org.example.thing", to: "org.example.other"))
    #expect(registry.ancestors(of: "org.example.thing") == ["org.example.thing"])
    #expect(!registry.resolve("org.example.thing").isKnown)
  }

  @Test("isEqual is UTTypeEqual: case-insensitive identity, not conformance")
  func equality() {
    let registry = TypeRegistry.system
    #expect(registry.isEqual("public.JPEG", "PUBLIC.jpeg"))
    #expect(!registry.isEqual("public.jpeg", "public.image"))
    #expect(registry.resolve("public.JPEG") == registry.resolve("public.jpeg"))
  }

  @Test("descendants include the type itself and every conforming type")
  func descendants() {
    let descendants = TypeRegistry.system.descendants(of: "public.image")
    #expect(descendants.first == "public.image")
    #expect(descendants.contains("public.jpeg"))
    #expect(descendants.contains("public.heic"))
    #expect(!descendants.contains("public.movie"))
  }

  @Test("one registry answers from many tasks at once, including its lazily built tag index")
  func concurrentUse() async {
    let registry = TypeRegistry.system.adding([
      TypeDeclaration(
        identifier: "org.example.doc", conformsTo: ["public.json"], tags: [.filenameExtension: ["exdoc"]])
    ])
    let answers = await withTaskGroup(of: Bool.self) { group in
      for index in 0..<16 {
        group.addTask {
          let byExtension = registry.preferredType(
            forFilenameExtension: index.isMultiple(of: 2) ? "exdoc" : "jpg")
          return registry.conforms(byExtension, to: index.isMultiple(of: 2) ? "public.text" : "public.image")
        }
      }
      var answers: [Bool] = []
      for await answer in group { answers.append(answer) }
      return answers
    }
    #expect(answers == Array(repeating: true, count: 16))
  }

  @Test("a resolved type used with another registry still answers correctly")
  func resolvedAcrossRegistries() {
    let other = TypeRegistry.system.withTwinPolicy(.mirrored)
    let jpeg = TypeRegistry.system.resolve("public.jpeg")
    let image = TypeRegistry.system.resolve("public.image")
    #expect(other.conforms(jpeg, to: image))
  }
}
