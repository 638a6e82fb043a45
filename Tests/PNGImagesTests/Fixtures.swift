import Foundation
import PNGImages

/// The PNG fixtures of `Tests/Fixtures/png` (see its README).
enum PNGFixtures {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/png")

  struct Case: Decodable, CustomStringConvertible, Sendable {
    var name: String
    var width: Int
    var height: Int
    var description: String { name }
  }

  static let cases: [Case] = {
    guard let data = try? Data(contentsOf: folder.appendingPathComponent("fixtures.json")),
      let cases = try? JSONDecoder().decode([Case].self, from: data)
    else { return [] }
    return cases
  }()

  static func bytes(_ name: String) throws -> [UInt8] {
    [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
  }
}
