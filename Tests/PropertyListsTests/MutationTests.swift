import Foundation
import PropertyLists
import TestSupport
import Testing

/// Damaged input must give an error value, never a crash or a hang: seeded byte-level mutations of every
/// fixture, each parsed; when one parses, its positions and lookups must still be consistent.
@Suite("Damaged input (seeded mutations)")
struct MutationTests {
  static let fragments: [[UInt8]] = [
    "<", ">", "&", "&amp", "&#x;", "&#99999999;", "]]>", "<![CDATA[", "<!--", "-->", "</dict>", "<dict>",
    "<key>",
    "</string>", "<!DOCTYPE plist [", "<!ENTITY x \"y\">", "\"", "\r\n", "\u{FEFF}", "é",
  ].map { Array($0.utf8) }

  static func mutate(_ bytes: [UInt8], using generator: inout SeededGenerator) -> [UInt8] {
    var result = bytes
    for _ in 0..<Int.random(in: 1...3, using: &generator) {
      let position = Int.random(in: 0...result.count, using: &generator)
      switch Int.random(in: 0..<5, using: &generator) {
      case 0:
        result = Array(result.prefix(position))
      case 1 where position < result.count:
        result[position] = UInt8.random(in: 0...255, using: &generator)
      case 2 where position < result.count:
        result.remove(at: min(position, result.count - 1))
      default:
        result.insert(contentsOf: fragments.randomElement(using: &generator) ?? [], at: position)
      }
    }
    return result
  }

  @Test("mutated fixtures parse or fail with a positioned error", arguments: TestPaths.fixturePlists)
  func mutations(fixture: String) throws {
    let original = try [UInt8](Data(contentsOf: TestPaths.fixtures.appendingPathComponent(fixture)))
    var generator = SeededGenerator(seed: UInt64(original.count))
    var failures = 0
    for _ in 0..<400 {
      let bytes = Self.mutate(original, using: &generator)
      do {
        let document = try PropertyListDocument(bytes: bytes)
        #expect(document.bytes == bytes)
        for node in [document.root] + document.root.elements + document.root.entries.map(\.value) {
          #expect(document.position(ofOffset: node.elementRange.lowerBound) == node.position)
          if node.kind == .string, let text = node.value.stringValue {
            #expect(document.sourcePosition(ofStringNode: node, decodedUTF8Offset: text.utf8.count) != nil)
          }
        }
      } catch {
        failures += 1
        let position = try #require(error.position, "\(error)")
        #expect(position.line >= 1 && position.column >= 1 && position.offset <= bytes.count, "\(error)")
      }
    }
    #expect(failures > 0)
  }
}
