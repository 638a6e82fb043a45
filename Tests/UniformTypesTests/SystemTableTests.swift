import Foundation
import Testing

@testable import UniformTypes

@Suite("System type table")
struct SystemTableTests {
  @Test("every reference type is declared with its parents, tags and description, in order")
  func referenceTableIsComplete() throws {
    let reference = try Fixtures.referenceTypes()
    #expect(reference.count == 876)
    let generated = SystemTypeTable.parse(SystemTypeTable.reference)
    #expect(generated.count == reference.count)
    for (entry, declaration) in zip(reference, generated) {
      #expect(declaration.identifier == entry.identifier)
      #expect(declaration.conformsTo == entry.conformsTo, "\(entry.identifier)")
      #expect(declaration.filenameExtensions == entry.tags["public.filename-extension"] ?? [])
      #expect(declaration.mimeTypes == entry.tags["public.mime-type"] ?? [])
      #expect(declaration.typeDescription == entry.description)
    }
  }

  @Test("every parent edge of the reference table answers true, and declarations match the table")
  func everyEdgeConforms() throws {
    let registry = TypeRegistry.system
    for entry in try Fixtures.referenceTypes() {
      let declaration = try #require(registry.declaration(for: entry.identifier))
      #expect(declaration.origin == .system)
      #expect(registry.parents(of: entry.identifier) == entry.conformsTo)
      #expect(registry.conforms(entry.identifier, to: entry.identifier))
      for parent in entry.conformsTo {
        #expect(registry.conforms(entry.identifier, to: parent), "\(entry.identifier) → \(parent)")
        #expect(registry.conforms(entry.identifier.uppercased(), to: parent.uppercased()))
        #expect(!registry.conforms(parent, to: entry.identifier), "\(parent) ↛ \(entry.identifier)")
      }
    }
  }

  @Test("interned ids of the system graph follow the records, then the identifiers only named as parents")
  func internedOrder() {
    let identifiers = SystemTypeTable.declarations.map(\.identifier)
    #expect(SystemTypeTable.recordIdentifiers == identifiers)
    #expect(identifiers.count == SystemTypeTable.declaredCount)
    #expect(TypeGraph.system.identifiers == identifiers + SystemTypeTable.undeclaredIdentifiers)
    #expect(SystemTypeTable.undeclaredIdentifiers == ["com.apple.homebuttonless-device"])
    #expect(TypeRegistry.system.declaration(for: "com.apple.homebuttonless-device") == nil)
  }

  @Test("the system table has no cycles and reports nothing")
  func systemTableIsClean() {
    #expect(TypeRegistry.system.graph.droppedCycleEdges.isEmpty)
    #expect(TypeRegistry.system.diagnostics.isEmpty)
  }

  @Test(
    "types newer than the reference table are present (spec §C.3)",
    arguments: [
      ("public.jpeg-xl", "public.image", "jxl"),
      ("public.geojson", "public.json", "geojson"),
      ("com.adobe.raw-image", "public.image", "dng"),
      ("net.daringfireball.markdown", "public.utf8-plain-text", "md"),
      ("public.heics", "public.heif-standard", "heics"),
      ("com.microsoft.internet-shortcut", "public.stored-url", "url"),
    ])
  func newerTypes(identifier: String, parent: String, filenameExtension: String) {
    let registry = TypeRegistry.system
    #expect(registry.conforms(identifier, to: parent))
    #expect(registry.conforms(identifier, to: "public.data"))
    #expect(registry.preferredType(forFilenameExtension: filenameExtension) == identifier)
  }

  @Test("the generated tag lines answer every tag as the index built from the parsed declarations does")
  func tagLinesMatchDeclarations() {
    var expected: [TypeTagClass: [String: [Int32]]] = [:]
    for (id, declaration) in SystemTypeTable.declarations.enumerated() {
      TypeGraph.index(declaration.tags, of: Int32(id), into: &expected)
    }
    var keyCount = 0
    for (tagClass, tags) in expected {
      for (tag, ids) in tags {
        keyCount += 1
        #expect(SystemTypeTable.ids(forTag: tag, tagClass: tagClass) == ids, "\(tagClass) \(tag)")
      }
    }
    // No line beyond those: one per key.
    #expect(SystemTypeTable.tags.split(separator: "\n").count == keyCount)
    #expect(SystemTypeTable.ids(forTag: "jpg", tagClass: .filenameExtension).isEmpty == false)
    // Tags before, between and after every line, and prefixes of real tags, find nothing.
    let probes = ["", "!", "0", "jp", "jpgg", "zzzz", "~", "image/", "image/jpe", "a", "m|", "e|jpg"]
    for tagClass in [TypeTagClass.filenameExtension, .mimeType] {
      for missing in probes where expected[tagClass]?[missing] == nil {
        #expect(SystemTypeTable.ids(forTag: missing, tagClass: tagClass).isEmpty, "\(tagClass) \(missing)")
      }
    }
    #expect(SystemTypeTable.ids(forTag: "jpg", tagClass: TypeTagClass(rawValue: "com.apple.ostype")).isEmpty)
    #expect(TypeRegistry.system.types(forTag: "JPG", tagClass: .filenameExtension).first == "public.jpeg")
  }

  @Test("the generated Swift table is what scripts/generate-uti-table makes from the JSON")
  func generatedFileIsUpToDate() throws {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = [
      "python3", Fixtures.packageRoot.appendingPathComponent("scripts/generate-uti-table").path, "--check",
    ]
    try process.run()
    process.waitUntilExit()
    #expect(process.terminationStatus == 0)
  }
}
