import Foundation
import PropertyLists
import Testing

@Suite("Round trip and agreement with Foundation")
struct RoundTripTests {
  @Test("corpus plists write back byte-identical", arguments: TestPaths.corpusPlists)
  func corpusRoundTrip(name: String) throws {
    let data = try Data(contentsOf: TestPaths.corpus.appendingPathComponent(name))
    let file = try PropertyListFile(data: data, path: name)
    #expect(file.format == .xml)
    #expect(try file.serialized() == data)
    #expect(try file.applying([]).serialized() == data)
  }

  @Test("corpus plists: our values equal Foundation's", arguments: TestPaths.corpusPlists)
  func corpusAgreesWithFoundation(name: String) throws {
    let data = try Data(contentsOf: TestPaths.corpus.appendingPathComponent(name))
    let document = try PropertyListDocument(data: data, path: name)
    #expect(document.value.normalizedKeyOrder == (try foundationValue(of: data)))
  }

  @Test("Examples/ plists write back byte-identical", arguments: TestPaths.examplePlists)
  func examplesRoundTrip(name: String) throws {
    let data = try Data(contentsOf: TestPaths.examples.appendingPathComponent(name))
    let file = try PropertyListFile(data: data, path: name)
    #expect(file.format == .xml)
    #expect(try file.serialized() == data)
    #expect(try file.applying([]).serialized() == data)
    #expect(
      try PropertyListDocument(data: data, path: name).value.normalizedKeyOrder == foundationValue(of: data))
  }

  @Test("the Examples/ folder is found and holds the sample app's plists")
  func examplesArePresent() {
    #expect(TestPaths.examplePlists.count >= 5)
    #expect(TestPaths.examplePlists.contains("SampleApp/App/App.entitlements"))
  }

  @Test("the corpus directory is found and holds plists")
  func corpusIsPresent() {
    #expect(TestPaths.corpusPlists.count >= 20)
  }

  @Test("hand-made fixtures write back byte-identical", arguments: TestPaths.fixturePlists)
  func fixtureRoundTrip(name: String) throws {
    let data = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent(name))
    let document = try PropertyListDocument(data: data, path: name)
    #expect(document.data == data)
  }

  @Test("hand-made fixtures: our values equal Foundation's", arguments: TestPaths.fixturePlists)
  func fixtureAgreesWithFoundation(name: String) throws {
    let data = try Data(contentsOf: TestPaths.fixtures.appendingPathComponent(name))
    let document = try PropertyListDocument(data: data, path: name)
    #expect(document.value.normalizedKeyOrder == (try foundationValue(of: data)))
  }

  @Test(
    "Apple-style corpus files are exactly what the canonical serializer writes",
    arguments: TestPaths.corpusPlists)
  func canonicalSerializerMatchesXcode(name: String) throws {
    let data = try Data(contentsOf: TestPaths.corpus.appendingPathComponent(name))
    let document = try PropertyListDocument(data: data, path: name)
    if document.style.indentation == "\t" {
      #expect(PropertyListSerializer.xmlDocument(document.value) == document.text)
    } else {
      #expect(PropertyListSerializer.xmlDocument(document.value) != document.text)
    }
  }

  @Test("the canonical serializer's output for every value kind")
  func canonicalGolden() throws {
    let value = PropertyListValue.dictionary([
      "String": .string("a < b & c > d \"quoted\" it's"),
      "Integer": .integer(-7),
      "Real": .real(2.5),
      "WholeReal": .real(3),
      "True": .bool(true),
      "False": .bool(false),
      "Date": .date(Date(timeIntervalSince1970: 1_767_322_245)),
      "Data": .data(Data((0..<60).map { UInt8($0) })),
      "EmptyArray": .array([]),
      "EmptyDictionary": .dictionary([:]),
      "Nested": .array([.dictionary(["Key": .string("value")]), .array([.integer(1)])]),
    ])
    let text = PropertyListSerializer.xmlDocument(value)
    try expectGolden(text, named: "canonical.plist")
    #expect(try PropertyListDocument(text: text).value == value)
    #expect(try foundationValue(of: Data(text.utf8)) == value.normalizedKeyOrder)
  }

  static let rawStyle = PropertyListEntityStyle(
    escapesQuotationMark: false, escapesApostrophe: false, escapesGreaterThan: false)
  static let entityStyle = PropertyListEntityStyle(
    escapesQuotationMark: true, escapesApostrophe: true, escapesGreaterThan: true)

  @Test(
    "text is escaped in the file's entity style",
    arguments: [
      ("a < b & c", Self.rawStyle, "a &lt; b &amp; c"),
      ("x > \"y\" 'z'", Self.rawStyle, "x > \"y\" 'z'"),
      ("x > \"y\" 'z'", Self.entityStyle, "x &gt; &quot;y&quot; &apos;z&apos;"),
      ("x > \"y\"", PropertyListEntityStyle.apple, "x &gt; \"y\""),
      ("a]]>b ]>", Self.rawStyle, "a]]&gt;b ]>"),
    ])
  func escaping(text: String, style: PropertyListEntityStyle, expected: String) {
    #expect(PropertyListSerializer.escape(text, style) == expected)
  }
}
