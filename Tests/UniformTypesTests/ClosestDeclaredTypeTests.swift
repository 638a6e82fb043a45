import Testing

import UniformTypes

/// The "did you mean" hint for an identifier nobody declares (`rulekit lint`'s unknown-type fix).
@Suite struct ClosestDeclaredTypeTests {
  @Test(
    "a misspelled identifier is named as the declared one it means",
    arguments: [
      // Both in Alfresco's share extension rule (alfresco-mobile-workspace-ios, Share/Info.plist, f13aa5c).
      ("public.camera-raw-imag", "public.camera-raw-image"),
      ("public.public.xbitmap-image", "public.xbitmap-image"),
      ("public.jpg", "public.jpeg"),
      ("com.adobe.pfd", "com.adobe.pdf"),
      ("Public.Plain-Txt", "public.plain-text"),
      ("public.file-ulr", "public.file-url"),
    ])
  func misspelling(written: String, meant: String) {
    #expect(TypeRegistry.system.closestDeclaredType(to: written) == meant)
  }

  @Test(
    "no hint for a declared identifier or one far from every declared identifier",
    arguments: [
      "public.jpeg", "PUBLIC.IMAGE", "org.appextension.find-login-action", "com.example.custom",
      "public.opml", "x",
    ])
  func noHint(written: String) {
    #expect(TypeRegistry.system.closestDeclaredType(to: written) == nil)
  }

  @Test func typesTheAppDeclaresAreCandidatesToo() {
    let registry = TypeRegistry.system.adding([
      TypeDeclaration(identifier: "com.example.notebook", conformsTo: ["public.data"])
    ])
    #expect(registry.closestDeclaredType(to: "com.example.notebok") == "com.example.notebook")
    #expect(TypeRegistry.system.closestDeclaredType(to: "com.example.notebok") == nil)
  }
}

/// The optimal-string-alignment distance the hints rank candidates by.
@Suite struct EditDistanceTests {
  @Test(arguments: [
    ("", "abc", 3), ("kitten", "sitting", 3), ("same", "same", 0), ("com.adobe.pdf", "com.adobe.pfd", 1),
    // Not ASCII: counted by characters, not bytes (é is two bytes), canonically equivalent ones equal.
    ("café", "cafe", 1), ("naïve", "naive", 1), ("e\u{301}clair", "éclair", 0),
    ("public.jpég", "public.jpg", 1),
  ])
  func distances(_ a: String, _ b: String, _ expected: Int) {
    #expect(editDistance(a, b) == expected)
    #expect(editDistance(b, a) == expected)
    #expect(editDistance(a, b, limit: expected) == expected)
    if expected > 0 { #expect(editDistance(a, b, limit: expected - 1) == nil) }
  }
}
