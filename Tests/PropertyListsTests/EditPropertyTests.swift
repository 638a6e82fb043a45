import Foundation
import TestSupport
import Testing

@testable import PropertyLists

/// Random edits on every fixture: the text edit must mean exactly what the value edit means.
@Suite("Edit properties (seeded)")
struct EditPropertyTests {
  static let textPool: [String] = [
    "plain", "a < b", "x > y", "Tom & Jerry", "say \"hi\"", "it's", "ключ", "😀", "tab\there", "line\nbreak",
    "",
    " padded ", "&amp;", "]]>", "$(VAR)",
  ]

  static func randomValue(depth: Int, using generator: inout SeededGenerator) -> PropertyListValue {
    let choice = Int.random(in: 0..<(depth > 1 ? 6 : 8), using: &generator)
    switch choice {
    case 0: return .integer(Int64.random(in: -1_000_000...1_000_000, using: &generator))
    case 1: return .real(Double(Int.random(in: -1000...1000, using: &generator)) / 8)
    case 2: return .bool(Bool.random(using: &generator))
    case 3:
      return .date(
        Date(timeIntervalSince1970: TimeInterval(Int.random(in: 0...2_000_000_000, using: &generator))))
    case 4:
      return .data(
        Data(
          (0..<Int.random(in: 0...70, using: &generator)).map { _ in
            UInt8.random(in: 0...255, using: &generator)
          }))
    case 5: return .string(textPool.randomElement(using: &generator) ?? "")
    case 6:
      return .array(
        (0..<Int.random(in: 0...3, using: &generator)).map { _ in
          randomValue(depth: depth + 1, using: &generator)
        })
    default:
      var dictionary = PropertyListDictionary()
      for _ in 0..<Int.random(in: 0...3, using: &generator) {
        dictionary[randomKey(using: &generator)] = randomValue(depth: depth + 1, using: &generator)
      }
      return .dictionary(dictionary)
    }
  }

  static func randomKey(using generator: inout SeededGenerator) -> String {
    ["Key", "NSExtension", "a<b", "q\"uote", "Ünï", "k&v", "space key"].randomElement(using: &generator).map {
      $0 + String(Int.random(in: 0...20, using: &generator))
    } ?? "Key"
  }

  /// Every path in a value, with the value there.
  static func paths(in value: PropertyListValue, at path: PropertyListPath = []) -> [(
    PropertyListPath, PropertyListValue
  )] {
    var result = [(path, value)]
    switch value {
    case .array(let elements):
      for (index, element) in elements.enumerated() {
        result += paths(in: element, at: path.appending(.index(index)))
      }
    case .dictionary(let dictionary):
      for entry in dictionary.entries {
        result += paths(in: entry.value, at: path.appending(.key(entry.key)))
      }
    default:
      break
    }
    return result
  }

  static func randomEdit(for value: PropertyListValue, using generator: inout SeededGenerator)
    -> PropertyListEdit?
  {
    let all = paths(in: value)
    let dictionaries = all.filter { $0.1.dictionaryValue != nil }
    let arrays = all.filter { $0.1.arrayValue != nil }
    switch Int.random(in: 0..<6, using: &generator) {
    case 0:
      guard let (path, _) = all.randomElement(using: &generator) else { return nil }
      return .set(path, randomValue(depth: path.components.count, using: &generator))
    case 1:
      guard let (path, dictionary) = dictionaries.randomElement(using: &generator) else { return nil }
      let neighbour = dictionary.dictionaryValue?.keys.randomElement(using: &generator)
      let position: PropertyListEdit.Position =
        neighbour.map { Bool.random(using: &generator) ? .after($0) : .before($0) } ?? .end
      var key = randomKey(using: &generator)
      // A new key: inserting one that exists is refused (tested in EditTests).
      while dictionary.dictionaryValue?[key] != nil { key += "+" }
      return .insert(
        key: key, value: randomValue(depth: path.components.count + 1, using: &generator), into: path,
        position: position)
    case 2:
      guard let (path, _) = arrays.randomElement(using: &generator) else { return nil }
      return .append(
        randomValue(depth: path.components.count + 1, using: &generator), to: path, unlessPresent: true)
    case 3:
      guard let (path, _) = all.filter({ !$0.0.components.isEmpty }).randomElement(using: &generator) else {
        return nil
      }
      return .remove(path)
    case 4:
      guard let (path, array) = arrays.randomElement(using: &generator) else { return nil }
      let index = Int.random(in: 0...(array.arrayValue?.count ?? 0), using: &generator)
      return .insertElement(
        randomValue(depth: path.components.count + 1, using: &generator), into: path, at: index)
    default:
      guard let (path, _) = dictionaries.randomElement(using: &generator) else { return nil }
      return .set(path.appending(.key(randomKey(using: &generator))).appending(.key("Inner")), .string("new"))
    }
  }

  @Test(
    "text edits equal value edits; results reparse, agree with Foundation, and are idempotent",
    arguments: TestPaths.fixturePlists)
  func randomEdits(fixture: String) throws {
    var generator = SeededGenerator(seed: UInt64(fixture.utf8.reduce(0) { $0 &* 31 &+ Int($1) }.magnitude))
    for round in 0..<25 {
      var document = try TestPaths.fixture(fixture)
      var expected = document.value
      for step in 0..<6 {
        guard let edit = Self.randomEdit(for: expected, using: &generator) else { continue }
        let context = "\(fixture) round \(round) step \(step): \(edit)"
        let before = document
        do {
          document = try document.applying(edit)
          expected = try expected.applying(edit)
        } catch {
          Issue.record("\(context): \(error)")
          return
        }
        #expect(document.value == expected, "\(context)")
        #expect(try PropertyListDocument(bytes: document.bytes).value == expected, "\(context)")
        switch edit {
        case .remove, .insertElement:
          break  // Removing or inserting by index again would act on another element.
        default:
          #expect(try document.applying(edit).bytes == document.bytes, "\(context): not idempotent")
        }
        let changed = document.bytes != before.bytes
        #expect(changed == (before.value != expected), "\(context): text changed without a value change")
      }
      #expect(
        try foundationValue(of: document.data) == expected.normalizedKeyOrder, "\(fixture) round \(round)")
    }
  }

  /// Edits that build on each other's nodes, or touch one node twice, are left to the one-by-one path.
  static func randomBatch(for value: PropertyListValue, using generator: inout SeededGenerator)
    -> [PropertyListEdit]
  {
    (0..<Int.random(in: 2...6, using: &generator)).compactMap { _ in
      randomEdit(for: value, using: &generator)
    }
  }

  @Test(
    "several edits applied together give the bytes of applying them one by one",
    arguments: TestPaths.fixturePlists)
  func batchEqualsOneByOne(fixture: String) throws {
    var generator = SeededGenerator(seed: UInt64(fixture.utf8.count &* 7919))
    var batched = 0
    for round in 0..<40 {
      let document = try TestPaths.fixture(fixture)
      let edits = Self.randomBatch(for: document.value, using: &generator)
      var oneByOne: PropertyListDocument? = document
      for edit in edits { oneByOne = try? oneByOne?.applying(edit) }
      let together = try? document.applying(edits)
      #expect(together?.bytes == oneByOne?.bytes, "\(fixture) round \(round): \(edits)")
      if document.batchApplying(edits) != nil { batched += 1 }
    }
    // The fast path must actually be taken, or this test checks nothing new.
    #expect(batched > 0, "\(fixture): no batch applied")
  }
}
