import Testing
import UniformTypes

@Suite("Intune twins")
struct IntuneTwinTests {
  @Test("twin(of:), base(ofTwin:) and isTwin")
  func helpers() {
    #expect(IntuneTwin.twin(of: "public.jpeg") == "com.microsoft.intune.mam.public.jpeg")
    #expect(IntuneTwin.base(ofTwin: "com.microsoft.intune.mam.public.jpeg") == "public.jpeg")
    #expect(IntuneTwin.base(ofTwin: "COM.Microsoft.Intune.MAM.public.jpeg") == "public.jpeg")
    #expect(IntuneTwin.base(ofTwin: "public.jpeg") == nil)
    #expect(IntuneTwin.base(ofTwin: "com.microsoft.intune.mam.") == nil)
    #expect(IntuneTwin.isTwin("com.microsoft.intune.mam.public.url"))
    #expect(!IntuneTwin.isTwin("com.microsoft.intune.public.url"))
  }

  /// (type, supertype, answer under literal, answer under mirrored)
  static let cases: [(String, String, Bool, Bool)] = [
    ("com.microsoft.intune.mam.public.jpeg", "com.microsoft.intune.mam.public.jpeg", true, true),
    ("com.microsoft.intune.mam.public.jpeg", "COM.MICROSOFT.INTUNE.MAM.PUBLIC.JPEG", true, true),
    ("com.microsoft.intune.mam.public.jpeg", "com.microsoft.intune.mam.public.image", false, true),
    ("com.microsoft.intune.mam.public.heic", "com.microsoft.intune.mam.public.data", false, true),
    ("com.microsoft.intune.mam.public.jpeg", "public.image", false, false),
    ("com.microsoft.intune.mam.public.jpeg", "public.jpeg", false, false),
    ("public.jpeg", "com.microsoft.intune.mam.public.image", false, false),
    ("com.microsoft.intune.mam.public.image", "com.microsoft.intune.mam.public.jpeg", false, false),
    ("com.microsoft.intune.mam.org.example.x", "com.microsoft.intune.mam.org.example.x", true, true),
    ("com.microsoft.intune.mam.org.example.x", "com.microsoft.intune.mam.public.data", false, false),
  ]

  @Test("conformance under each policy", arguments: cases)
  func policies(type: String, supertype: String, literal: Bool, mirrored: Bool) {
    let literalRegistry = TypeRegistry.system
    let mirroredRegistry = TypeRegistry.system.withTwinPolicy(.mirrored)
    #expect(literalRegistry.twinPolicy == .literal)
    #expect(literalRegistry.conforms(type, to: supertype) == literal)
    #expect(mirroredRegistry.conforms(type, to: supertype) == mirrored)
    #expect(
      mirroredRegistry.conforms(mirroredRegistry.resolve(type), to: mirroredRegistry.resolve(supertype))
        == mirrored)
  }

  @Test("ancestors and descendants of a twin under each policy")
  func closures() {
    let twin = "com.microsoft.intune.mam.public.jpeg"
    #expect(TypeRegistry.system.ancestors(of: twin) == [twin])
    let mirrored = TypeRegistry.system.withTwinPolicy(.mirrored)
    #expect(
      mirrored.ancestors(of: twin) == [
        twin, "com.microsoft.intune.mam.public.image", "com.microsoft.intune.mam.public.data",
        "com.microsoft.intune.mam.public.content", "com.microsoft.intune.mam.public.item",
      ])
    #expect(mirrored.descendants(of: "com.microsoft.intune.mam.public.image").contains(twin))
    #expect(
      TypeRegistry.system.descendants(of: "com.microsoft.intune.mam.public.image") == [
        "com.microsoft.intune.mam.public.image"
      ])
  }

  @Test("a declared twin follows its declaration under both policies")
  func declaredTwin() {
    let registry = TypeRegistry.system.adding([
      TypeDeclaration(identifier: "com.microsoft.intune.mam.public.jpeg", conformsTo: ["public.jpeg"])
    ])
    #expect(registry.conforms("com.microsoft.intune.mam.public.jpeg", to: "public.image"))
    #expect(
      registry.withTwinPolicy(.mirrored).conforms("com.microsoft.intune.mam.public.jpeg", to: "public.image"))
    #expect(
      registry.withTwinPolicy(.mirrored).conforms(
        "com.microsoft.intune.mam.public.jpeg", to: "com.microsoft.intune.mam.public.image"))
    #expect(
      !registry.conforms("com.microsoft.intune.mam.public.jpeg", to: "com.microsoft.intune.mam.public.image"))
  }
}
