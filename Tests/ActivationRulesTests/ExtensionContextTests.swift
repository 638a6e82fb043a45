import Foundation
import Testing
import UniformTypes

@testable import ActivationRules

@Suite struct ExtensionContextTests {
  @Test func jsonRoundTrips() throws {
    let json =
      #"{"extensionItems":[{"attachments":[{"registeredTypeIdentifiers":["com.adobe.pdf","public.file-url"]}]}]}"#
    let context = try ExtensionContext(json: Data(json.utf8))
    #expect(context == HostPreset.filesPDF.context)
    #expect(String(decoding: context.jsonData(), as: UTF8.self) == json)
  }

  @Test func itemWithoutAttachmentsDecodesAsEmpty() throws {
    let context = try ExtensionContext(
      json: Data(#"{"extensionItems":[{"attributedContentText":"hi"}]}"#.utf8))
    #expect(context.extensionItems == [ExtensionItem(attachments: [], attributedContentText: "hi")])
  }

  @Test func malformedJSONIsATypedError() {
    #expect(throws: ActivationRuleError.self) { try ExtensionContext(json: Data("{\"items\":[]}".utf8)) }
  }

  @Test(arguments: [
    ("public.jpeg,public.file-url", ["public.jpeg", "public.file-url"]),
    (" public.url , ,public.text", ["public.url", "public.text"]),
    ("", []),
  ])
  func attachmentShorthand(text: String, types: [String]) {
    #expect(ExtensionContext.attachmentTypes(fromShorthand: text) == types)
  }

  @Test func twinImageReplacesEveryTypeOnce() {
    let context = ExtensionContext(attachments: [["public.url", "com.microsoft.intune.mam.public.text"]])
    #expect(
      context.twinImage.allAttachments.map(\.registeredTypeIdentifiers) == [
        ["com.microsoft.intune.mam.public.url", "com.microsoft.intune.mam.public.text"]
      ])
    #expect(context.twinImage.twinImage == context.twinImage)
  }

  @Test(arguments: [
    ("public.url", "com.microsoft.intune.mam.public.url"),
    ("com.microsoft.intune.mam.public.url", "com.microsoft.intune.mam.public.url"),
    ("COM.MICROSOFT.INTUNE.MAM.public.url", "COM.MICROSOFT.INTUNE.MAM.public.url"),
  ])
  func twins(identifier: String, twin: String) {
    #expect(IntuneTwin.twinIfNeeded(identifier) == twin)
    #expect(IntuneTwin.isTwin(twin))
  }

  @Test func summaryShowsItemsAndAttachments() {
    #expect(HostPreset.firefoxURLText.context.summary == "[[public.url], [public.plain-text]]")
    #expect(HostPreset.safariPage.context.summary == "[[public.url]] +text")
    #expect(ExtensionContext(extensionItems: []).summary == "(no extension items)")
  }

  @Test func summaryCountsRunsOfThreeOrMore() {
    let image = ExtensionAttachment(registeredTypeIdentifiers: ["public.image"])
    let url = ExtensionAttachment(registeredTypeIdentifiers: ["public.url"])
    let item = ExtensionItem(attachments: Array(repeating: image, count: 21) + [url, url])
    #expect(
      ExtensionContext(extensionItems: [item]).summary == "[21 × [public.image], [public.url], [public.url]]")
    let small = ExtensionItem(attachments: [url])
    #expect(
      ExtensionContext(extensionItems: [small, small, small, item]).summary
        == "3 × [[public.url]] | [21 × [public.image], [public.url], [public.url]]")
  }
}

@Suite struct HostPresetTests {
  @Test func namesAreUniqueAndResolve() {
    let names = HostPreset.all.map(\.name)
    #expect(Set(names).count == names.count)
    for name in names { #expect(HostPreset.named(name)?.name == name) }
    #expect(
      names == [
        "safari-page", "photos-1", "photos-3", "files-pdf", "firefox-url-text", "finder-file-url", "mail",
        "safari-javascript-preprocessing", "intune-managed-app",
      ])
  }

  @Test func everyPresetCitesASource() {
    for preset in HostPreset.all { #expect(!preset.source.isEmpty, "\(preset.name)") }
  }

  @Test(arguments: [("photos-7", 7), ("photos-1", 1)])
  func photosOfAnyCount(name: String, count: Int) throws {
    let preset = try #require(HostPreset.named(name))
    #expect(preset.context.allAttachments.count == count)
  }

  @Test(arguments: ["photos-0", "photos-x", "nothing"])
  func unknownNames(name: String) {
    #expect(HostPreset.named(name) == nil)
  }

  @Test func filesPDFIsApplesDocumentedShape() {
    #expect(
      HostPreset.filesPDF.context.allAttachments == [
        .init(registeredTypeIdentifiers: ["com.adobe.pdf", "public.file-url"])
      ])
  }
}
