import Foundation
import Testing
import UniformTypes

@testable import ActivationRules

/// Conformance by a tiny hand-written hierarchy, enough to test the model without the UTI registry.
func testConforms(_ type: String, _ parent: String) -> Bool {
  let parents: [String: [String]] = [
    "public.jpeg": ["public.image"], "public.heic": ["public.image"], "public.file-url": ["public.url"],
    "public.mpeg-4": ["public.movie"], "public.plain-text": ["public.text"],
  ]
  if type.lowercased() == parent.lowercased() { return true }
  return (parents[type] ?? []).contains { testConforms($0, parent) }
}

@Suite struct DictionaryModelTests {
  static let imagesAndURL = ActivationDictionary([.imageMaxCount: 2, .webURLMaxCount: 1])
  static let imagesAndURLFuzzy = ActivationDictionary([
    .imageMaxCount: 2, .webURLMaxCount: 1, .dictionaryVersion: 2,
  ])

  @Test(arguments: [
    // Strict: every attachment covered, limits per category.
    ([["public.jpeg"]], true, true),
    ([["public.jpeg"], ["public.jpeg"]], true, true),
    ([["public.jpeg"], ["public.jpeg"], ["public.jpeg"]], false, false),
    ([["public.jpeg"], ["public.plain-text"]], false, true),
    ([["public.url"], ["public.plain-text"]], false, true),
    ([["public.file-url"]], false, false),
    ([["public.url"], ["public.url"]], false, false),
    ([], false, false),
  ])
  func strictAndFuzzy(attachments: [[String]], strict: Bool, fuzzy: Bool) {
    let context = ExtensionContext(attachments: attachments)
    #expect(DictionaryModel(Self.imagesAndURL).accepts(context, conforms: testConforms) == strict)
    #expect(DictionaryModel(Self.imagesAndURLFuzzy).accepts(context, conforms: testConforms) == fuzzy)
  }

  @Test(arguments: [
    (ActivationDictionary([.dictionaryVersion: 1, .usesStrictMatching: 0]), true),
    (ActivationDictionary([.dictionaryVersion: 2]), false),
    (ActivationDictionary([.dictionaryVersion: 2, .usesStrictMatching: 1]), true),
    (ActivationDictionary([:]), true),
  ])
  func strictness(dictionary: ActivationDictionary, strict: Bool) {
    #expect(DictionaryModel(dictionary).isStrict == strict)
  }

  @Test func webPageSharesTheWebURLCategoryWithTheLargerLimit() {
    let model = DictionaryModel(ActivationDictionary([.webURLMaxCount: 1, .webPageMaxCount: 3]))
    #expect(
      model.categories == [
        .init(key: .webURLMaxCount, type: "public.url", excludedType: "public.file-url", maximum: 3)
      ])
  }

  @Test func attachmentBoundsApplyPerItem() {
    let model = DictionaryModel(
      ActivationDictionary([.imageMaxCount: 9, .attachmentsMinCount: 2, .attachmentsMaxCount: 3]))
    #expect(!model.accepts(ExtensionContext(attachments: [["public.jpeg"]]), conforms: testConforms))
    #expect(
      model.accepts(
        ExtensionContext(attachments: [["public.jpeg"], ["public.jpeg"]]), conforms: testConforms))
    #expect(
      !model.accepts(
        ExtensionContext(attachments: Array(repeating: ["public.jpeg"], count: 4)), conforms: testConforms))
  }

  @Test func dictionaryEnablingNothingNeverActivates() {
    for dictionary in [
      ActivationDictionary([.imageMaxCount: 0]), ActivationDictionary([.dictionaryVersion: 2]),
    ] {
      let model = DictionaryModel(dictionary)
      #expect(!model.acceptsAnyAttachment)
      #expect(!model.accepts(ExtensionContext(attachments: [["public.jpeg"]]), conforms: testConforms))
    }
  }

  /// Pocket Casts' shape (real rule 02): only the attachment count is limited, so any attachment counts.
  @Test(
    arguments: [
      ([["com.example.opml"]], true), ([[]], true), ([["public.jpeg"], ["public.jpeg"]], false), ([], false),
    ] as [([[String]], Bool)])
  func attachmentCountAloneAcceptsAnyAttachment(attachments: [[String]], accepted: Bool) {
    for version in [1, 2] {
      let model = DictionaryModel(
        ActivationDictionary([.attachmentsMaxCount: 1, .dictionaryVersion: version]))
      #expect(model.acceptsAnyAttachment)
      #expect(model.accepts(ExtensionContext(attachments: attachments), conforms: testConforms) == accepted)
    }
  }
}

@Suite struct DictionaryModelRegistryTests {
  @Test(arguments: [
    (HostPreset.filesPDF, false),
    (HostPreset.photos(count: 3), true),
    (HostPreset.photos(count: 11), false),
    (HostPreset.safariPage, true),
    (HostPreset.firefoxURLText, false),
    (HostPreset.finderFileURL, false),
  ])
  func appleExampleAgainstPresets(preset: HostPreset, accepted: Bool) {
    // Apple's example dictionary: up to ten images, one movie and one web URL (strict, version 1).
    let model = DictionaryModel(
      ActivationDictionary([.imageMaxCount: 10, .movieMaxCount: 1, .webURLMaxCount: 1]))
    #expect(model.accepts(preset.context, registry: .system) == accepted)
  }
}
