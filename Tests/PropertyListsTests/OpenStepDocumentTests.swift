import Testing

@testable import PropertyLists

@Suite("OpenStep documents: nodes with byte ranges and positions")
struct OpenStepDocumentTests {
  static func document(_ text: String) throws -> OpenStepDocument {
    try OpenStepDocument(bytes: Array(text.utf8), path: "test.pbxproj")
  }

  static func text(_ document: OpenStepDocument, _ range: Range<Int>) -> String {
    document.text(of: range)
  }

  @Test("the node tree's value is the value reader's", arguments: OpenStepReaderTests.fixtures.map(\.0))
  func nodesAgreeWithTheValueReader(name: String) throws {
    let bytes = try OpenStepReaderTests.fixture(name)
    let document = try OpenStepDocument(bytes: bytes)
    #expect(document.value == (try OpenStepReader.read(bytes)))
  }

  @Test("keys, quoted and unquoted strings: ranges and positions")
  func stringsAndKeys() throws {
    let document = try Self.document("{\n  name = Notes;\n  \"title\" = \"Caf\\U00e9\";\n  k;\n}\n")
    let name = try #require(document.root.entry(forKey: "name"))
    #expect(Self.text(document, name.keyRange) == "name")
    #expect(name.keyPosition.description == "2:3")
    #expect(Self.text(document, name.value.elementRange) == "Notes")
    #expect(Self.text(document, name.value.contentRange) == "Notes")
    #expect(!name.value.isQuoted)
    #expect(Self.text(document, name.entryRange) == "name = Notes;")
    let title = try #require(document.root.entry(forKey: "title"))
    #expect(Self.text(document, title.keyRange) == "\"title\"")
    #expect(Self.text(document, title.keyContentRange) == "title")
    #expect(Self.text(document, title.value.elementRange) == "\"Caf\\U00e9\"")
    #expect(Self.text(document, title.value.contentRange) == "Caf\\U00e9")
    #expect(title.value.isQuoted)
    #expect(title.value.string == "Café")
    #expect(title.value.position.description == "3:13")
    let shortcut = try #require(document.root.entry(forKey: "k"))
    #expect(Self.text(document, shortcut.value.elementRange) == "k")
    #expect(shortcut.value.string == "k")
    #expect(Self.text(document, document.root.elementRange).hasPrefix("{"))
    #expect(Self.text(document, document.root.elementRange).hasSuffix("}"))
    #expect(document.root.position.description == "1:1")
  }

  @Test("arrays, data and nested dictionaries")
  func containers() throws {
    let document = try Self.document(
      "{ a = ( x, \"y z\", ( ) ); d = <00 ff>; n = { inner = { deep = 1; }; }; }")
    let array = try #require(document.root["a"])
    #expect(array.kind == .array)
    #expect(Self.text(document, array.elementRange) == "( x, \"y z\", ( ) )")
    #expect(Self.text(document, array.contentRange) == " x, \"y z\", ( ) ")
    #expect(array.elements.map { Self.text(document, $0.elementRange) } == ["x", "\"y z\"", "( )"])
    let data = try #require(document.root["d"])
    #expect(data.kind == .data)
    #expect(Self.text(document, data.elementRange) == "<00 ff>")
    #expect(Self.text(document, data.contentRange) == "00 ff")
    let deep = try #require(document.node(at: ["n", "inner", "deep"]))
    #expect(Self.text(document, deep.elementRange) == "1")
    let inner = try #require(document.node(at: ["n", "inner"]))
    #expect(Self.text(document, inner.elementRange) == "{ deep = 1; }")
    #expect(Self.text(document, inner.contentRange) == " deep = 1; ")
  }

  @Test("comments between tokens are trivia")
  func commentsAreTrivia() throws {
    let text = """
      // !$*UTF8*$!
      {
      \t/* Begin PBXBuildFile section */
      \t13B07F961A680F5B00A75B9A /* App */ = /* c */ {isa = PBXNativeTarget; name = App; } /* d */ ;
      \tlist = ( /* a */ one /* b */, // line
      \t\ttwo );
      }
      """
    let document = try Self.document(text)
    let target = try #require(document.root.entry(forKey: "13B07F961A680F5B00A75B9A"))
    #expect(Self.text(document, target.keyRange) == "13B07F961A680F5B00A75B9A")
    #expect(target.keyPosition.description == "4:2")
    #expect(Self.text(document, target.value.elementRange) == "{isa = PBXNativeTarget; name = App; }")
    #expect(Self.text(document, target.entryRange).hasSuffix("/* d */ ;"))
    let list = try #require(document.root["list"])
    #expect(list.elements.map { Self.text(document, $0.elementRange) } == ["one", "two"])
    #expect(list.elements[1].position.description == "6:3")
  }

  @Test("a strings file's implicit dictionary, and a comment-only file")
  func implicitDictionaries() throws {
    let strings = try Self.document("a = b;\n\"c\" = d;\n")
    #expect(strings.root.kind == .dictionary)
    #expect(strings.root.entries.map(\.key) == ["a", "c"])
    let empty = try Self.document("// nothing\n")
    #expect(empty.root.kind == .dictionary && empty.root.entries.isEmpty)
  }

  @Test("errors are the value reader's, with the file")
  func errors() throws {
    #expect {
      try Self.document("{ a = b }")
    } throws: { error in
      guard let error = error as? PropertyListError else { return false }
      return error.path == "test.pbxproj" && error.position?.line == 1 && error.kind == .malformed
    }
  }

  @Test("position(ofOffset:) counts lines and columns")
  func positions() throws {
    let document = try Self.document("{\n\ta = \"é\";\n}")
    #expect(document.position(ofOffset: 0).description == "1:1")
    #expect(document.position(ofOffset: 3).description == "2:2")
    #expect(document.sourceLine(2) == "\ta = \"é\";")
  }
}
