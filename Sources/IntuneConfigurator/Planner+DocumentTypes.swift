import PropertyLists
import UniformTypes
import XcodeProjects

extension Planner {
  // MARK: Document types

  mutating func planDocumentTypes() {
    guard case .array(let documentTypes) = info["CFBundleDocumentTypes"] else { return }
    for (typeIndex, documentType) in documentTypes.enumerated() {
      guard case .dictionary(let dictionary) = documentType,
        case .array(let contentTypes) = dictionary["LSItemContentTypes"]
      else { continue }
      let path: PropertyListPath = ["CFBundleDocumentTypes", .index(typeIndex), "LSItemContentTypes"]
      let identifiers = contentTypes.compactMap(\.stringValue)
      var present = Set(identifiers.map { $0.lowercased() })
      var added: [String] = []
      for identifier in identifiers where !IntuneTwin.isTwin(identifier) {
        let twin = IntuneTwin.twin(of: identifier)
        if present.insert(twin.lowercased()).inserted { added.append(twin) }
      }
      if !added.isEmpty {
        changes.append(
          ConfiguratorChange(
            .documentTypeTwin, at: path, "add " + added.joined(separator: ", "),
            edits: added.map { .append(.string($0), to: path) }))
      }
    }
  }
}
