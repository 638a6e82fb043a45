import PredicateEvaluation

/// What a host app shares, as the extension context a rule is evaluated against
/// (apple-predicates-and-utis.md §B.5–B.6): extension items → attachments → registered type identifiers.
enum HostSituation: String, Sendable, CaseIterable, CustomStringConvertible {
  /// Files shares one PDF: Apple's own example attachment, `com.adobe.pdf` plus `public.file-url` (§B.5).
  case pdfFromFiles
  /// Safari shares the page as one URL attachment (the preprocessing property list only appears for
  /// extensions that declare a JavaScript file, §B.6).
  case safariPage
  /// Photos shares three images, one attachment each.
  case threePhotos
  /// Firefox shares a `public.url` attachment and a `public.plain-text` attachment (§B.6 host quirks).
  case firefoxURLAndText
  /// Finder and Preview share only a `public.file-url` (Apple DTS, openradar 30184633, §B.6).
  case finderFileURL
  /// One extension item with no attachments, e.g. text shared only as `attributedContentText`.
  case noAttachments

  /// Registered type identifiers per attachment, all in one extension item.
  var attachments: [[String]] {
    switch self {
    case .pdfFromFiles: [["com.adobe.pdf", "public.file-url"]]
    case .safariPage: [["public.url"]]
    case .threePhotos: [["public.jpeg"], ["public.jpeg"], ["public.jpeg"]]
    case .firefoxURLAndText: [["public.url"], ["public.plain-text"]]
    case .finderFileURL: [["public.file-url"]]
    case .noAttachments: []
    }
  }

  /// `{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": [...]}, ...]}]}`
  var context: PredicateValue {
    let providers = attachments.map { identifiers -> PredicateValue in
      ["registeredTypeIdentifiers": .array(identifiers.map(PredicateValue.string))]
    }
    return ["extensionItems": [["attachments": .array(providers)]]]
  }

  var description: String { rawValue }
}
