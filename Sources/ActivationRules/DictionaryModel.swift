import UniformTypes

/// This package's documented model of what an `NSExtensionActivationRule` dictionary accepts.
///
/// Apple never published the predicate it builds from the dictionary, so this is a model, not a copy
/// (spec apple-predicates-and-utis.md §B.3–B.4). Every assumption is listed here and marked.
///
/// ## Key → type table
///
/// | key | category type | excluded type | limit |
/// |---|---|---|---|
/// | `…SupportsFileWithMaxCount` | `public.file-url` (ASSUMED: files arrive as file URLs) | — | the value |
/// | `…SupportsImageWithMaxCount` | `public.image` | — | the value |
/// | `…SupportsMovieWithMaxCount` | `public.movie` (ASSUMED: not `public.audiovisual-content`) | — | the value |
/// | `…SupportsText` | `public.plain-text` (ASSUMED; IntuneMAMConfigurator links only `UTTypePlainText`) | — | none |
/// | `…SupportsWebURLWithMaxCount` | `public.url` | `public.file-url` | the value |
/// | `…SupportsWebPageWithMaxCount` | ASSUMED the same category as web URLs; the larger limit wins | | |
///
/// A count of zero or less, or `false`, disables the category (Apple: "use 0 … or remove the key").
/// `…AttachmentsWithMaxCount` ≤ 0 is read as "no limit" (ASSUMED; otherwise the rule could never activate).
///
/// ## A dictionary that limits only the attachment count
///
/// When `…AttachmentsWithMaxCount` (or `…WithMinCount`) is the only key that enables anything, the
/// dictionary accepts attachments **of any type** within the count (``acceptsAnyAttachment``), read as the
/// category "every attachment" (ASSUMED). Evidence, none of it a device test:
///
/// - Apple's reference words the key like the per-type keys that enable their category — "The maximum
///   number of attachments that the app extension supports" beside "The maximum number of image files that
///   the app extension supports" — and names no type.
/// - Code and notes in public projects read it the same way: a share-sheet simulator that treats an
///   attachment of any type as supported when the key is above 0; a test asserting that the key announces
///   attachment types the extension cannot send; a build note suggesting the key when audio files do not
///   activate an image/movie/file rule.
/// - Pocket Casts shipped this shape (`Tests/Fixtures/real-rules/02.plist`) for its OPML import, an
///   extension that would be pointless if the system showed it for nothing (it later moved to a predicate).
///
/// Whether the key also widens a dictionary that enables categories (strict matching then covering every
/// attachment) is not known; there it stays a bound on the count, as before.
///
/// ## Matching (spec §B.4, the community reading of Apple's behaviour)
///
/// An attachment *matches* a category when ANY of its registered types conforms to the category type and
/// NONE conforms to the excluded type. Limits apply per extension item (ASSUMED: every host observed
/// shares a single item; this is also how IntuneMAMConfigurator's templates count).
///
/// - **Strict** (dictionary version 1 or absent — `…UsesStrictMatching` is ignored there because it arrived
///   with version 2 — or version 2 with `…UsesStrictMatching` true): there is at least one attachment, and
///   in every extension item every attachment matches some enabled category, every category's matches are
///   within its limit, and the item's attachment count is within the attachment min/max.
/// - **Fuzzy** (version 2 otherwise): some extension item has, for some enabled category, between one and
///   the category's limit matching attachments, and its attachment count is within the attachment min/max.
public struct DictionaryModel: Sendable, Hashable {
  /// One enabled category of the table above.
  public struct Category: Sendable, Hashable {
    /// The dictionary key (for web URLs and pages: the web URL key).
    public var key: ActivationDictionary.Key
    /// The type an attachment must register (or conform to).
    public var type: String
    /// A type that disqualifies the attachment (web URLs exclude file URLs).
    public var excludedType: String?
    /// The most matching attachments per extension item; `nil` means no limit (text).
    public var maximum: Int?

    /// A key that counts attachments conforming to `type` (and not to `excludedType`), up to `maximum`.
    public init(key: ActivationDictionary.Key, type: String, excludedType: String? = nil, maximum: Int?) {
      self.key = key
      self.type = type
      self.excludedType = excludedType
      self.maximum = maximum
    }
  }

  /// Enabled categories, in the table's order.
  public var categories: [Category]
  /// Attachments per extension item, at least.
  public var minimumAttachments: Int?
  /// Attachments per extension item, at most.
  public var maximumAttachments: Int?
  /// Strict or fuzzy, see above.
  public var isStrict: Bool
  /// No category is enabled but the attachment count is limited: every attachment matches, whatever its
  /// types (see "A dictionary that limits only the attachment count" above).
  public var acceptsAnyAttachment: Bool {
    categories.isEmpty && (maximumAttachments != nil || minimumAttachments != nil)
  }

  /// The model of `dictionary`.
  public init(_ dictionary: ActivationDictionary) {
    var categories: [Category] = []
    func limit(_ key: ActivationDictionary.Key) -> Int? {
      guard let value = dictionary.count(key), value > 0 else { return nil }
      return value
    }
    if let maximum = limit(.fileMaxCount) {
      categories.append(Category(key: .fileMaxCount, type: "public.file-url", maximum: maximum))
    }
    if let maximum = limit(.imageMaxCount) {
      categories.append(Category(key: .imageMaxCount, type: "public.image", maximum: maximum))
    }
    if let maximum = limit(.movieMaxCount) {
      categories.append(Category(key: .movieMaxCount, type: "public.movie", maximum: maximum))
    }
    if dictionary.supportsText {
      categories.append(Category(key: .text, type: "public.plain-text", maximum: nil))
    }
    let web = [limit(.webURLMaxCount), limit(.webPageMaxCount)].compactMap { $0 }.max()
    if let web {
      categories.append(
        Category(key: .webURLMaxCount, type: "public.url", excludedType: "public.file-url", maximum: web))
    }
    self.categories = categories
    self.minimumAttachments = limit(.attachmentsMinCount)
    self.maximumAttachments = limit(.attachmentsMaxCount)
    self.isStrict = dictionary.isStrict
  }

  /// Evaluates the model directly against a context. `conforms(a, b)` answers "does type `a` conform to
  /// type `b`" (a UTI registry, or plain equality in tests).
  public func accepts(_ context: ExtensionContext, conforms: (String, String) -> Bool) -> Bool {
    func matches(_ attachment: ExtensionAttachment, _ category: Category) -> Bool {
      let types = attachment.registeredTypeIdentifiers
      if acceptsAnyAttachment { return true }
      guard types.contains(where: { conforms($0, category.type) }) else { return false }
      guard let excluded = category.excludedType else { return true }
      return !types.contains(where: { conforms($0, excluded) })
    }
    func countWithinBounds(_ item: ExtensionItem) -> Bool {
      if let minimum = minimumAttachments, item.attachments.count < minimum { return false }
      if let maximum = maximumAttachments, item.attachments.count > maximum { return false }
      return true
    }
    func matchCount(_ item: ExtensionItem, _ category: Category) -> Int {
      item.attachments.filter { matches($0, category) }.count
    }
    if isStrict {
      guard !categories.isEmpty || acceptsAnyAttachment, !context.allAttachments.isEmpty else { return false }
      return context.extensionItems.allSatisfy { item in
        item.attachments.allSatisfy { attachment in
          acceptsAnyAttachment || categories.contains { matches(attachment, $0) }
        }
          && categories.allSatisfy { category in
            category.maximum.map { matchCount(item, category) <= $0 } ?? true
          }
          && countWithinBounds(item)
      }
    }
    return context.extensionItems.contains { item in
      countWithinBounds(item)
        && ((acceptsAnyAttachment && !item.attachments.isEmpty)
          || categories.contains { category in
            let count = matchCount(item, category)
            return count >= 1 && (category.maximum.map { count <= $0 } ?? true)
          })
    }
  }

  /// Evaluates the model directly against a context, asking `registry` about conformance.
  public func accepts(_ context: ExtensionContext, registry: TypeRegistry) -> Bool {
    accepts(context) { registry.conforms($0, to: $1) }
  }

  /// Every type the model mentions (category and excluded types), for building test contexts.
  public var mentionedTypes: [String] {
    var seen: [String] = []
    for category in categories {
      for type in [category.type] + (category.excludedType.map { [$0] } ?? []) where !seen.contains(type) {
        seen.append(type)
      }
    }
    return seen
  }
}
