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
