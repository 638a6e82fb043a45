import Foundation

/// Paths of the reference UTI table (scripts/uti-table), found from this file's location (Tests/UniformTypesTests/…).
enum Fixtures {
  static let packageRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

  static let referenceTable = packageRoot.appendingPathComponent("scripts/uti-table/apple-system-utis.json")

  /// One entry of the reference JSON.
  struct ReferenceType: Decodable, Sendable {
    let identifier: String
    let conformsTo: [String]
    let tags: [String: [String]]
    let description: String
  }

  static func referenceTypes() throws -> [ReferenceType] {
    try JSONDecoder().decode([ReferenceType].self, from: Data(contentsOf: referenceTable))
  }
}
