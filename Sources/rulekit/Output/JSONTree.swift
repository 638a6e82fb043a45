#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A JSON document as the CLI assembles it: `[String: Any]` trees of `String`, `Int`, `Double`, `Bool`,
/// arrays, dictionaries and ``null``, written through `JSONEncoder` (FoundationEssentials has no
/// `JSONSerialization`, and the CLI links nothing beyond it).
enum JSONTree: Codable, Equatable {
  case null
  case bool(Bool)
  case integer(Int)
  case double(Double)
  case string(String)
  case array([JSONTree])
  case object([String: JSONTree])

  /// The tree of a value assembled from the types above (a `JSONTree` is taken as it is); `nil` for any
  /// other type.
  init?(_ value: Any) {
    switch value {
    case let tree as JSONTree: self = tree
    case let flag as Bool: self = .bool(flag)
    case let number as Int: self = .integer(number)
    case let number as Double: self = .double(number)
    case let text as String: self = .string(text)
    case let elements as [Any]:
      var trees: [JSONTree] = []
      for element in elements {
        guard let tree = JSONTree(element) else { return nil }
        trees.append(tree)
      }
      self = .array(trees)
    case let members as [String: Any]:
      var trees: [String: JSONTree] = [:]
      for (key, member) in members {
        guard let tree = JSONTree(member) else { return nil }
        trees[key] = tree
      }
      self = .object(trees)
    default: return nil
    }
  }

  /// The tree of an `Encodable` value, as its JSON encoding reads back.
  init(encoding value: some Encodable) throws {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    try self.init(json: encoder.encode(value))
  }

  /// The tree of a JSON document.
  init(json: Data) throws {
    self = try JSONDecoder().decode(JSONTree.self, from: json)
  }

  /// The tree as `[String: Any]` pieces, to merge into a document.
  var anyValue: Any {
    switch self {
    case .null: JSONTree.null
    case .bool(let flag): flag
    case .integer(let number): number
    case .double(let number): number
    case .string(let text): text
    case .array(let elements): elements.map(\.anyValue)
    case .object(let members): members.mapValues(\.anyValue)
    }
  }

  /// Pretty-printed with sorted keys and unescaped slashes, as the CLI's JSON output has always been.
  var prettyPrinted: String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
    guard let data = try? encoder.encode(self) else { return "null" }
    return String(decoding: data, as: UTF8.self)
  }

  init(from decoder: any Decoder) throws {
    let container = try decoder.singleValueContainer()
    // Booleans first: JSONDecoder reads `true` as no number and `1` as no Bool, so the order only matters
    // between integers and reals, where a whole number stays an integer.
    if container.decodeNil() {
      self = .null
    } else if let flag = try? container.decode(Bool.self) {
      self = .bool(flag)
    } else if let number = try? container.decode(Int.self) {
      self = .integer(number)
    } else if let number = try? container.decode(Double.self) {
      self = .double(number)
    } else if let text = try? container.decode(String.self) {
      self = .string(text)
    } else if let elements = try? container.decode([JSONTree].self) {
      self = .array(elements)
    } else {
      self = .object(try container.decode([String: JSONTree].self))
    }
  }

  func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    switch self {
    case .null: try container.encodeNil()
    case .bool(let flag): try container.encode(flag)
    case .integer(let number): try container.encode(number)
    case .double(let number): try container.encode(number)
    case .string(let text): try container.encode(text)
    case .array(let elements): try container.encode(elements)
    case .object(let members): try container.encode(members)
    }
  }
}
