import Foundation
import TestSupport
import Testing
import UniformTypes

@Suite("App type declarations")
struct AppDeclarationTests {
  static func plist(_ body: String) -> Data {
    Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
      <plist version="1.0">
      <dict>
      \(body)
      </dict>
      </plist>
      """.utf8)
  }

  static func registry(_ body: String) throws -> TypeRegistry {
    TypeRegistry(declarations: try AppTypeDeclarations(propertyListData: plist(body)))
  }

  @Test("Apple's example declaration (spec §C.2) adds a type with its parents and tags")
  func appleExample() throws {
    let registry = try Self.registry(
      """
      <key>UTExportedTypeDeclarations</key>
      <array>
          <dict>
              <key>UTTypeIdentifier</key>
              <string>com.company.greatApp-document</string>
              <key>UTTypeConformsTo</key>
              <array>
                  <string>public.json</string>
              </array>
              <key>UTTypeDescription</key>
              <string>GreatApp Document</string>
              <key>UTTypeTagSpecification</key>
              <dict>
                  <key>public.filename-extension</key>
                  <array>
                      <string>greatappdoc</string>
                      <string>greatapp</string>
                  </array>
              </dict>
          </dict>
      </array>
      """)
    #expect(registry.diagnostics.isEmpty)
    #expect(registry.conforms("com.company.greatapp-document", to: "public.text"))
    #expect(registry.types(forFilenameExtension: "GreatApp") == ["com.company.greatApp-document"])
    #expect(registry.preferredFilenameExtension(of: "com.company.greatApp-document") == "greatappdoc")
    let declaration = try #require(registry.declaration(for: "com.company.greatapp-document"))
    #expect(declaration.origin == .exported)
    #expect(declaration.typeDescription == "GreatApp Document")
    #expect(declaration.keyPath == "UTExportedTypeDeclarations[0]")
  }

  @Test("bare strings are accepted where arrays are expected")
  func bareStrings() throws {
    let registry = try Self.registry(
      """
      <key>UTImportedTypeDeclarations</key>
      <array>
        <dict>
          <key>UTTypeIdentifier</key><string>com.topografix.gpx</string>
          <key>UTTypeConformsTo</key><string>public.xml</string>
          <key>UTTypeTagSpecification</key>
          <dict>
            <key>public.filename-extension</key><string>gpx</string>
            <key>public.mime-type</key><string>application/gpx+xml</string>
          </dict>
        </dict>
      </array>
      """)
    #expect(registry.diagnostics.isEmpty)
    #expect(registry.conforms("com.topografix.gpx", to: "public.xml"))
    #expect(registry.preferredType(forFilenameExtension: "gpx") == "com.topografix.gpx")
    #expect(registry.preferredType(forMIMEType: "APPLICATION/GPX+XML") == "com.topografix.gpx")
    #expect(registry.declaration(for: "com.topografix.gpx")?.origin == .imported)
  }

  /// (declarations body, expected severity, expected key path, line of the value the diagnostic points at)
  static let malformed: [(String, TypeDeclarationDiagnostic.Severity, String, Int)] = [
    (
      "<key>UTExportedTypeDeclarations</key>\n<dict/>", .error, "UTExportedTypeDeclarations", 6
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<string>com.a</string>\n</array>", .error,
      "UTExportedTypeDeclarations[0]", 7
    ),
    (
      "<key>UTImportedTypeDeclarations</key>\n<array>\n<dict>\n<key>UTTypeConformsTo</key><string>public.data</string>\n</dict>\n</array>",
      .error, "UTImportedTypeDeclarations[0]", 7
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict>\n<key>UTTypeIdentifier</key>\n<integer>7</integer>\n</dict>\n</array>",
      .error, "UTExportedTypeDeclarations[0].UTTypeIdentifier", 9
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict><key>UTTypeIdentifier</key><string>com.a</string></dict>\n<dict><key>UTTypeIdentifier</key><string>com.b</string>\n<key>UTTypeConformsTo</key>\n<array><string>public.data</string>\n<true/></array></dict>\n</array>",
      .error, "UTExportedTypeDeclarations[1].UTTypeConformsTo[1]", 11
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict><key>UTTypeIdentifier</key><string>com.a</string>\n<key>UTTypeConformsTo</key>\n<real>1.5</real></dict>\n</array>",
      .error, "UTExportedTypeDeclarations[0].UTTypeConformsTo", 9
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict><key>UTTypeIdentifier</key><string>com.a</string>\n<key>UTTypeTagSpecification</key>\n<string>a</string></dict>\n</array>",
      .error, "UTExportedTypeDeclarations[0].UTTypeTagSpecification", 9
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict><key>UTTypeIdentifier</key><string>com.a</string>\n<key>UTTypeTagSpecification</key>\n<dict><key>public.filename-extension</key>\n<dict/></dict></dict>\n</array>",
      .error, "UTExportedTypeDeclarations[0].UTTypeTagSpecification.public.filename-extension", 10
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict><key>UTTypeIdentifier</key>\n<string>dyn.ah62d4rv4ge80s6d2</string></dict>\n</array>",
      .error, "UTExportedTypeDeclarations[0].UTTypeIdentifier", 8
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict><key>UTTypeIdentifier</key>\n<string></string></dict>\n</array>",
      .error, "UTExportedTypeDeclarations[0].UTTypeIdentifier", 8
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict><key>UTTypeIdentifier</key><string>com.a</string>\n<key>UTTypeDescription</key>\n<array/></dict>\n</array>",
      .warning, "UTExportedTypeDeclarations[0].UTTypeDescription", 9
    ),
    (
      "<key>UTExportedTypeDeclarations</key>\n<array>\n<dict><key>UTTypeIdentifier</key>\n<string>com.my app</string></dict>\n</array>",
      .warning, "UTExportedTypeDeclarations[0].UTTypeIdentifier", 8
    ),
  ]

  @Test("malformed declarations give a diagnostic naming the key path and its position", arguments: malformed)
  func malformedDeclaration(
    body: String, severity: TypeDeclarationDiagnostic.Severity, keyPath: String, line: Int
  ) throws {
    let declarations = try AppTypeDeclarations(propertyListData: Self.plist(body))
    let diagnostic = try #require(declarations.diagnostics.first)
    #expect(declarations.diagnostics.count == 1)
    #expect(diagnostic.severity == severity)
    #expect(diagnostic.keyPath == keyPath)
    #expect(diagnostic.position?.line == line)
    #expect(declarations.hasErrors == (severity == .error))
    _ = TypeRegistry(declarations: declarations).conforms("com.a", to: "public.data")
  }

  @Test("a diagnostic prints compiler-style with the file, position and key path")
  func formatting() throws {
    let declarations = try AppTypeDeclarations(
      propertyListData: Self.plist(
        "<key>UTExportedTypeDeclarations</key>\n<array>\n  <dict><key>UTTypeIdentifier</key>\n  <integer>7</integer></dict>\n</array>"
      ))
    let diagnostic = try #require(declarations.diagnostics.first)
    #expect(
      diagnostic.formatted(file: "Info.plist")
        == "Info.plist:8:3: error: UTExportedTypeDeclarations[0].UTTypeIdentifier: expected a string, found an integer; the declaration is ignored"
    )
  }

  @Test("a conformance cycle is reported at the declaration that closes it, and never looped on")
  func cycles() throws {
    let registry = try Self.registry(
      """
      <key>UTExportedTypeDeclarations</key>
      <array>
        <dict><key>UTTypeIdentifier</key><string>com.example.a</string>
          <key>UTTypeConformsTo</key><array><string>com.example.b</string></array></dict>
        <dict><key>UTTypeIdentifier</key><string>com.example.b</string>
          <key>UTTypeConformsTo</key><array><string>com.example.c</string><string>public.data</string></array></dict>
        <dict><key>UTTypeIdentifier</key><string>com.example.c</string>
          <key>UTTypeConformsTo</key><array><string>com.example.A</string></array></dict>
      </array>
      """)
    let cycle = try #require(registry.diagnostics.first { $0.message.contains("cycle") })
    #expect(cycle.severity == .error)
    #expect(cycle.keyPath == "UTExportedTypeDeclarations[2].UTTypeConformsTo")
    #expect(cycle.message.contains("com.example.c → com.example.a → com.example.b → com.example.c"))
    #expect(registry.conforms("com.example.a", to: "com.example.c"))
    #expect(registry.conforms("com.example.a", to: "public.item"))
    #expect(!registry.conforms("com.example.c", to: "com.example.a"))
    #expect(registry.ancestors(of: "com.example.c") == ["com.example.c"])
  }

  @Test("adding more declarations to a registry reports an earlier cycle once, and a new cycle too")
  func chainedCycles() {
    let first = TypeRegistry.system.adding([
      TypeDeclaration(identifier: "com.example.a", conformsTo: ["com.example.b"], keyPath: "A"),
      TypeDeclaration(identifier: "com.example.b", conformsTo: ["com.example.a"], keyPath: "B"),
    ])
    #expect(first.diagnostics.filter { $0.message.contains("cycle") }.count == 1)
    let second = first.adding([
      TypeDeclaration(identifier: "com.example.c", conformsTo: ["com.example.d"], keyPath: "C"),
      TypeDeclaration(identifier: "com.example.d", conformsTo: ["com.example.c"], keyPath: "D"),
    ])
    #expect(second.diagnostics.filter { $0.message.contains("cycle") }.count == 2)
    #expect(
      second.conforms("com.example.c", to: "com.example.d")
        != second.conforms("com.example.d", to: "com.example.c"))
  }

  @Test("an exported declaration wins over an imported one of the same type")
  func exportedWins() throws {
    let registry = try Self.registry(
      """
      <key>UTImportedTypeDeclarations</key>
      <array>
        <dict><key>UTTypeIdentifier</key><string>com.example.doc</string>
          <key>UTTypeConformsTo</key><string>public.image</string></dict>
      </array>
      <key>UTExportedTypeDeclarations</key>
      <array>
        <dict><key>UTTypeIdentifier</key><string>com.example.DOC</string>
          <key>UTTypeConformsTo</key><string>public.text</string></dict>
      </array>
      """)
    #expect(registry.conforms("com.example.doc", to: "public.text"))
    #expect(!registry.conforms("com.example.doc", to: "public.image"))
    #expect(registry.declaration(for: "com.example.doc")?.origin == .exported)
    let warning = try #require(registry.diagnostics.first)
    #expect(warning.severity == .warning)
    #expect(warning.keyPath == "UTImportedTypeDeclarations[0].UTTypeIdentifier")
    #expect(warning.message.contains("exported declaration wins"))
  }

  @Test("redeclaring a system type is reported and the system declaration kept")
  func systemConflict() throws {
    let registry = try Self.registry(
      """
      <key>UTImportedTypeDeclarations</key>
      <array>
        <dict><key>UTTypeIdentifier</key><string>public.JPEG</string>
          <key>UTTypeConformsTo</key><string>public.text</string></dict>
      </array>
      """)
    #expect(!registry.conforms("public.jpeg", to: "public.text"))
    #expect(registry.conforms("public.jpeg", to: "public.image"))
    let warning = try #require(registry.diagnostics.first)
    #expect(warning.keyPath == "UTImportedTypeDeclarations[0].UTTypeIdentifier")
    #expect(warning.message.contains("the system declares 'public.jpeg'"))
  }

  @Test("a parent declared nowhere is reported")
  func undeclaredParent() throws {
    let registry = try Self.registry(
      """
      <key>UTExportedTypeDeclarations</key>
      <array>
        <dict><key>UTTypeIdentifier</key><string>com.example.doc</string>
          <key>UTTypeConformsTo</key><array><string>com.vendor.base</string></array></dict>
      </array>
      """)
    #expect(registry.conforms("com.example.doc", to: "com.vendor.base"))
    let warning = try #require(registry.diagnostics.first)
    #expect(warning.severity == .warning)
    #expect(warning.keyPath == "UTExportedTypeDeclarations[0].UTTypeConformsTo")
  }

  @Test("data that is not a property list, or not a dictionary, throws a diagnostic")
  func notAPropertyList() {
    #expect(throws: TypeDeclarationDiagnostic.self) {
      try AppTypeDeclarations(propertyListData: Data("<plist><dict><key>a</key></plist>".utf8))
    }
    #expect(throws: TypeDeclarationDiagnostic.self) {
      try AppTypeDeclarations(propertyListData: Data("<plist><array/></plist>".utf8))
    }
  }

  @Test(
    "messages name the property-list type found",
    arguments: [
      ("<true/>", "a boolean"), ("<integer>1</integer>", "an integer"), ("<real>1.5</real>", "a real"),
      ("<date>2020-01-01T00:00:00Z</date>", "a date"), ("<data>AA==</data>", "data"),
      ("<dict/>", "a dictionary"),
    ])
  func typeNames(value: String, name: String) throws {
    let declarations = try AppTypeDeclarations(
      propertyListData: Self.plist(
        "<key>UTExportedTypeDeclarations</key><array><dict><key>UTTypeIdentifier</key>\(value)</dict></array>"
      ))
    #expect(
      declarations.diagnostics.first?.message
        == "expected a string, found \(name); the declaration is ignored")
  }

  @Test("binary property lists are read too")
  func binaryPropertyList() throws {
    let root: [String: Any] = [
      "UTExportedTypeDeclarations": [
        ["UTTypeIdentifier": "com.example.bin", "UTTypeConformsTo": ["public.data"]],
        ["UTTypeConformsTo": "public.data"],
      ]
    ]
    let data = try PropertyListSerialization.data(fromPropertyList: root, format: .binary, options: 0)
    let declarations = try AppTypeDeclarations(propertyListData: data)
    #expect(declarations.exported.map(\.identifier) == ["com.example.bin"])
    #expect(declarations.diagnostics.map(\.keyPath) == ["UTExportedTypeDeclarations[1]"])
    #expect(declarations.diagnostics.first?.position == nil)
  }

  @Test("mutated declaration plists never crash the reader, the locator or the registry (seeded)")
  func mutatedPlists() throws {
    let original = Array(
      try Data(
        contentsOf: Fixtures.packageRoot.appendingPathComponent("Tests/Fixtures/uti/Info.plist")))
    let replacements =
      Array("<>/ ak\n=\"".utf8) + Array("<array></dict><integer>1</integer><string>x</string>".utf8)
    var generator = SeededGenerator(seed: 0xF022_0001)
    var located = 0
    for _ in 0..<300 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...4, using: &generator) {
        let index = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<3, using: &generator) {
        case 0:
          bytes.removeSubrange(index..<min(bytes.count, index + Int.random(in: 1...40, using: &generator)))
        case 1: bytes.insert(replacements.randomElement(using: &generator)!, at: index)
        default: bytes = Array(bytes[..<max(1, index)])
        }
      }
      do {
        let declarations = try AppTypeDeclarations(propertyListData: Data(bytes))
        let registry = TypeRegistry(declarations: declarations)
        _ = registry.ancestors(of: "com.example.tracks.route")
        located += declarations.diagnostics.filter { $0.position != nil }.count
      } catch {
        #expect(error.severity == .error)
      }
    }
    #expect(located > 0)
  }

  @Test("random declaration graphs: conformance equals the reachability closure, cycles never hang (seeded)")
  func randomGraphs() {
    var generator = SeededGenerator(seed: 0xC0FF_EE42)
    for _ in 0..<40 {
      let count = Int.random(in: 2...30, using: &generator)
      let names = (0..<count).map { "org.random.t\($0)" }
      var parents: [[String]] = []
      for _ in 0..<count {
        parents.append(
          (0..<Int.random(in: 0...3, using: &generator)).map { _ in names.randomElement(using: &generator)! })
      }
      let declarations = zip(names, parents).map {
        TypeDeclaration(identifier: $0, conformsTo: $1, origin: .exported)
      }
      let registry = TypeRegistry.system.adding(declarations)
      let kept = Dictionary(uniqueKeysWithValues: names.map { ($0, registry.parents(of: $0)) })
      for name in names {
        var reachable: Set<String> = [name]
        var stack = [name]
        while let current = stack.popLast() {
          for parent in kept[current] ?? [] where reachable.insert(parent).inserted { stack.append(parent) }
        }
        for other in names {
          #expect(registry.conforms(name, to: other) == reachable.contains(other))
        }
        #expect(Set(registry.ancestors(of: name)) == reachable)
      }
      let dropped = registry.diagnostics.filter { $0.message.contains("cycle") }.count
      let declaredEdges = Set(
        zip(names, parents).flatMap { name, list in list.filter { $0 != name }.map { name + ">" + $0 } })
      let keptEdges = Set(names.flatMap { name in kept[name, default: []].map { name + ">" + $0 } })
      #expect(declaredEdges.count - keptEdges.count == dropped)
    }
  }
}
