/// What a real host app shares, as an ``ExtensionContext`` with the evidence for its shape.
///
/// The table below is the data; `rulekit presets` prints it (also as JSON). Shapes not backed by a public
/// source say so in ``source`` with the word "UNVERIFIED", so nobody mistakes a model for an observation.
public struct HostPreset: Sendable, Hashable, Codable {
  /// The name used on the command line and in expectations files, e.g. `files-pdf`.
  public var name: String
  /// One line saying what the host does.
  public var summary: String
  /// Where the shape comes from.
  public var source: String
  /// What the host shares.
  public var context: ExtensionContext

  /// A preset named `name`, described by `summary`, whose context comes from the evidence cited in `source`.
  public init(name: String, summary: String, source: String, context: ExtensionContext) {
    self.name = name
    self.summary = summary
    self.source = source
    self.context = context
  }

  /// Every preset in a stable order. `photos-N` is listed as `photos-1` and `photos-3`; any
  /// `photos-N` with 1 ≤ N ≤ 100 resolves through ``named(_:)``.
  public static let all: [HostPreset] = [
    safariPage, photos(count: 1), photos(count: 3), filesPDF, firefoxURLText, finderFileURL, mail,
    safariJavaScriptPreprocessing, intuneManagedApp,
  ]

  /// The preset called `name`, including any `photos-N`.
  public static func named(_ name: String) -> HostPreset? {
    if let preset = all.first(where: { $0.name == name }) { return preset }
    if name.hasPrefix("photos-"), let count = Int(name.dropFirst("photos-".count)), (1...100).contains(count)
    {
      return photos(count: count)
    }
    return nil
  }

  /// Safari (iOS) sharing the page it shows.
  public static let safariPage = HostPreset(
    name: "safari-page",
    summary: "Safari shares the current page: one item, its title as content text, one URL attachment",
    source:
      "Apple App Extension Programming Guide, \"Accessing a Webpage\" (spec apple-predicates-and-utis.md "
      + "§B.6): the page arrives as a public.url attachment; the title in attributedContentText",
    context: ExtensionContext(extensionItems: [
      ExtensionItem(
        attachments: [ExtensionAttachment(registeredTypeIdentifiers: ["public.url"])],
        attributedContentText: "Example Domain")
    ]))

  /// Photos sharing `count` pictures.
  public static func photos(count: Int) -> HostPreset {
    HostPreset(
      name: "photos-\(count)",
      summary: "Photos shares \(count) picture\(count == 1 ? "" : "s"), one attachment each",
      source:
        "UNVERIFIED model: Photos registers each picture as public.jpeg (HEIC originals also offer public.heic); "
        + "one attachment per picture per NSExtensionItem.attachments docs (§B.6)",
      context: ExtensionContext(
        attachments: Array(repeating: ["public.heic", "public.jpeg"], count: Swift.max(count, 0))))
  }

  /// Files (iOS) sharing a PDF.
  public static let filesPDF = HostPreset(
    name: "files-pdf",
    summary: "Files shares a PDF: one attachment registering com.adobe.pdf and public.file-url",
    source:
      "Apple App Extension Programming Guide, \"Declaring Supported Data Types\": the attachment structure "
      + "for a shared PDF (spec §B.5)",
    context: ExtensionContext(attachments: [["com.adobe.pdf", "public.file-url"]]))

  /// Firefox sharing a page.
  public static let firefoxURLText = HostPreset(
    name: "firefox-url-text",
    summary: "Firefox shares a page as a URL attachment plus a plain-text attachment",
    source:
      "acez/bookmark-companion issue #24 and MaxAst/expo-share-extension issue #77 (spec §B.5–B.6): "
      + "Firefox/Chrome send public.url and public.plain-text",
    context: ExtensionContext(attachments: [["public.url"], ["public.plain-text"]]))

  /// Finder or Preview (macOS) sharing a file.
  public static let finderFileURL = HostPreset(
    name: "finder-file-url",
    summary: "Finder/Preview share a file as a file URL only, whatever its content type",
    source: "Apple DTS in openradar 30184633 / lionheart/openradar-mirror #16792 (spec §B.6)",
    context: ExtensionContext(attachments: [["public.file-url"]]))

  /// Mail sharing selected text.
  public static let mail = HostPreset(
    name: "mail",
    summary: "Mail shares selected message text: one item with content text and a plain-text attachment",
    source:
      "UNVERIFIED model: no public source records Mail's registered types; chosen as the common text share "
      + "(public.plain-text) per NSExtensionItem docs (§B.6)",
    context: ExtensionContext(extensionItems: [
      ExtensionItem(
        attachments: [ExtensionAttachment(registeredTypeIdentifiers: ["public.plain-text"])],
        attributedContentText: "Hello from Mail")
    ]))

  /// Safari running the extension's JavaScript preprocessing file.
  public static let safariJavaScriptPreprocessing = HostPreset(
    name: "safari-javascript-preprocessing",
    summary: "Safari with NSExtensionJavaScriptPreprocessingFile: the page URL plus the script's results",
    source:
      "Apple App Extension Programming Guide, \"Accessing a Webpage\" (spec §B.2, §B.6): results arrive as a "
      + "com.apple.property-list (kUTTypePropertyList) attachment under "
      + "NSExtensionJavaScriptPreprocessingResultsKey",
    context: ExtensionContext(attachments: [["com.apple.property-list", "public.url"]]))

  /// An Intune-managed app sharing a PDF with twin types.
  public static let intuneManagedApp = HostPreset(
    name: "intune-managed-app",
    summary: "An Intune-managed app shares a PDF under Intune twin types only",
    source:
      "Intune App SDK guide V2018/V2020 \"Update existing Share and Action extensions\" (spec "
      + "intune-guide-requirements.md §1.4–1.5): managed apps share com.microsoft.intune.mam.-prefixed types",
    context: ExtensionContext(attachments: [
      ["com.microsoft.intune.mam.com.adobe.pdf", "com.microsoft.intune.mam.public.file-url"]
    ]))
}
