import PredicateEvaluation
import PredicateSyntax
import PropertyLists
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// What a host app hands a share or action extension: the object `NSExtensionActivationRule` is evaluated
/// against (Apple's App Extension Programming Guide shows it as `{extensionItems = ({attachments = (…)})}`).
///
/// The JSON form is the one the CLI reads:
/// `{"extensionItems":[{"attachments":[{"registeredTypeIdentifiers":["public.url"]}]}]}`.
public struct ExtensionContext: Sendable, Hashable, Codable {
  /// The host's `NSExtensionItem`s, in order.
  public var extensionItems: [ExtensionItem]

  /// A context holding `extensionItems`, in the order the host passes them.
  public init(extensionItems: [ExtensionItem]) {
    self.extensionItems = extensionItems
  }

  /// One extension item holding one attachment per element, each registering the listed types.
  ///
  /// This is the `--attachment public.jpeg,public.file-url` shorthand (repeatable, one attachment each).
  public init(attachments: [[String]]) {
    self.init(extensionItems: [ExtensionItem(attachments: attachments.map(ExtensionAttachment.init))])
  }

  /// Parses one `--attachment` value: type identifiers separated by commas, blanks ignored.
  public static func attachmentTypes(fromShorthand text: String) -> [String] {
    text.split(separator: ",").map { String($0.trimming(while: \.isSpaceOrTab)) }.filter { !$0.isEmpty }
  }

  /// Every attachment of every item, in order.
  public var allAttachments: [ExtensionAttachment] { extensionItems.flatMap(\.attachments) }

  /// The same context with every type identifier replaced by its Intune twin (what an Intune-managed app
  /// shares). Identifiers that already are twins stay as they are.
  public var twinImage: ExtensionContext {
    ExtensionContext(
      extensionItems: extensionItems.map { item in
        var copy = item
        copy.attachments = item.attachments.map {
          ExtensionAttachment(
            registeredTypeIdentifiers: $0.registeredTypeIdentifiers.map(IntuneTwin.twinIfNeeded))
        }
        return copy
      })
  }

  /// Reads the JSON form.
  public init(json data: Data) throws(ActivationRuleError) {
    // RuleKit's own reader first: it enforces `PredicateValue.JSONLimits` and positions syntax errors.
    do {
      _ = try PredicateValue(jsonUTF8: [UInt8](data))
    } catch {
      throw .jsonSyntax(message: error.message, position: error.position)
    }
    do {
      self = try JSONDecoder().decode(ExtensionContext.self, from: data)
    } catch let error as DecodingError {
      throw .malformedJSON(message: Self.describe(error))
    } catch {
      throw .malformedJSON(message: String(describing: error))
    }
  }

  /// A decoding error as `path: what is wrong`, with the expected shape.
  static func describe(_ error: DecodingError) -> String {
    func path(_ codingPath: [any CodingKey]) -> String {
      var text = ""
      for key in codingPath {
        if let index = key.intValue {
          text += "[\(index)]"
        } else {
          text += (text.isEmpty ? "" : ".") + key.stringValue
        }
      }
      return text.isEmpty ? "the top level" : text
    }
    let shape =
      #"; an extension context is {"extensionItems":[{"attachments":[{"registeredTypeIdentifiers":["public.url"]}]}]}"#
    switch error {
    case .typeMismatch(let type, let context):
      return "\(path(context.codingPath)): expected \(describeType(type))" + shape
    case .valueNotFound(let type, let context):
      return "\(path(context.codingPath)): expected \(describeType(type)), found null" + shape
    case .keyNotFound(let key, let context):
      return "\(path(context.codingPath + [key])): missing" + shape
    case .dataCorrupted(let context):
      return "\(path(context.codingPath)): \(context.debugDescription)"
    @unknown default:
      return String(describing: error)
    }
  }

  private static func describeType(_ type: Any.Type) -> String {
    switch type {
    case is String.Type: "a string"
    case is [Any].Type: "an array"
    case is [String: Any].Type: "an object"
    default:
      String(describing: type).hasPrefix("Array") ? "an array" : "an object (\(type))"
    }
  }

  /// The JSON form, keys sorted so output is stable.
  public func jsonData() -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    return (try? encoder.encode(self)) ?? Data()
  }

  /// A compact one-line rendering for tables and diff output, e.g. `[[public.url], [public.plain-text]]`
  /// for one item with two attachments; items are separated by ` | `. Three or more equal attachments (or
  /// items) in a row are written once with their number, `[21 × [public.image]]`: an exact diff's smallest
  /// witness of a `@count <= 20` rule is 21 of them, which spelt out made a line of 1 500 characters.
  public var summary: String {
    if extensionItems.isEmpty { return "(no extension items)" }
    let items = extensionItems.map { item in
      let attachments = item.attachments.map {
        "[" + $0.registeredTypeIdentifiers.joined(separator: ", ") + "]"
      }
      var text = "[" + Self.runs(attachments).joined(separator: ", ") + "]"
      if item.attributedContentText != nil { text += " +text" }
      return text
    }
    return Self.runs(items).joined(separator: " | ")
  }

  /// `parts`, each run of three or more equal ones written `N × part`.
  private static func runs(_ parts: [String]) -> [String] {
    var result: [String] = []
    var index = parts.startIndex
    while index < parts.endIndex {
      var end = index + 1
      while end < parts.endIndex, parts[end] == parts[index] { end += 1 }
      let count = end - index
      if count >= 3 {
        result.append("\(count) × \(parts[index])")
      } else {
        result.append(contentsOf: parts[index..<end])
      }
      index = end
    }
    return result
  }
}

/// One `NSExtensionItem`.
public struct ExtensionItem: Sendable, Hashable, Codable {
  /// The item's `NSItemProvider`s.
  public var attachments: [ExtensionAttachment]
  /// `attributedContentText` as plain text, when the host sets it (Safari sets the page title here).
  public var attributedContentText: String?
  /// `attributedTitle` as plain text, when the host sets it.
  public var attributedTitle: String?

  /// An extension item with `attachments` and, when the host sets them, its text and title.
  public init(
    attachments: [ExtensionAttachment], attributedContentText: String? = nil, attributedTitle: String? = nil
  ) {
    self.attachments = attachments
    self.attributedContentText = attributedContentText
    self.attributedTitle = attributedTitle
  }

  private enum CodingKeys: String, CodingKey {
    case attachments, attributedContentText, attributedTitle
  }

  /// Reads an item from JSON; only `attachments` is required.
  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    // A host that shares only text sends an item without attachments; Apple's runtime sees nil there.
    attachments = try container.decodeIfPresent([ExtensionAttachment].self, forKey: .attachments) ?? []
    attributedContentText = try container.decodeIfPresent(String.self, forKey: .attributedContentText)
    attributedTitle = try container.decodeIfPresent(String.self, forKey: .attributedTitle)
  }
}

/// One attachment (`NSItemProvider`): one logical item offered in several representations.
public struct ExtensionAttachment: Sendable, Hashable, Codable {
  /// The provider's `registeredTypeIdentifiers`, in registration order (highest fidelity first).
  public var registeredTypeIdentifiers: [String]

  /// An attachment whose provider registers `registeredTypeIdentifiers`, highest fidelity first.
  public init(registeredTypeIdentifiers: [String]) {
    self.registeredTypeIdentifiers = registeredTypeIdentifiers
  }
}

extension IntuneTwin {
  /// The twin of `identifier`, or `identifier` itself when it already is a twin, so applying it twice
  /// changes nothing.
  static func twinIfNeeded(_ identifier: String) -> String {
    isTwin(identifier) ? identifier : twin(of: identifier)
  }
}

extension ExtensionContext {
  /// Reads a context JSON file.
  ///
  /// A file larger than `PredicateValue.JSONLimits.maximumBytes` is refused before it is read
  /// (``ActivationRuleError/fileTooLarge(path:message:)``).
  public static func load(_ url: URL) throws(ActivationRuleError) -> ExtensionContext {
    let limit = PredicateValue.JSONLimits.maximumBytes
    let data = try FileLoading.data(at: url, limit: limit) { size in
      "the extension context \(size.exceeding(limit: limit)) "
        + "(\(BoundedFileReader.describe(limit: limit)), PredicateValue.JSONLimits.maximumBytes); "
        + #"check that this is the context you meant: {"extensionItems":[{"attachments":[…]}]}, "#
        + "a few hundred bytes"
    }
    return try ExtensionContext(json: data)
  }
}
