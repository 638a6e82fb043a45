import Foundation
import PropertyLists
import Testing

@Suite("Reading XML plists")
struct ParserTests {
  @Test("values of every element kind")
  func values() throws {
    let document = try TestPaths.fixture("entities-cdata.plist")
    let root = try #require(document.value.dictionaryValue)
    #expect(root["Quoted"] == .string("He said \"hi\" & left \u{2014} it's \u{1F600} <b>"))
    #expect(root["Raw"] == .string("if (a < b && c > d) { \"x\" }"))
    #expect(root["Mixed"] == .string("before<cdata>After"))
    #expect(root["Empty"] == .string(""))
    #expect(root["EmptyPair"] == .string(""))
    #expect(root["Negative"] == .integer(-42))
    #expect(root["Hex"] == .integer(31))
    #expect(root["SelfClosingFalse"] == .bool(false))
    #expect(root["Ünïcødé"] == .string("ключ → 値"))
    #expect(root.keys.first == "Quoted")

    let app = try #require(try TestPaths.fixture("app-info.plist").value.dictionaryValue)
    #expect(app["ScaleFactor"] == .real(1.5))
    #expect(app["BuildDate"] == .date(Date(timeIntervalSince1970: 1_767_323_045)))
    #expect(app["Token"] == .data(Data("Hello, RuleKit!".utf8)))
    #expect(app["UIRequiredDeviceCapabilities"] == .array([]))
    #expect(app["IntuneMAMSettings"] == .dictionary([:]))
  }

  @Test("a plist without the <plist> wrapper is read like Foundation reads it")
  func bareRootValue() throws {
    let document = try PropertyListDocument(text: "<array><string>a</string></array>")
    #expect(document.value == .array([.string("a")]))
  }

  @Test("lookup by key path and element positions")
  func lookup() throws {
    let document = try TestPaths.fixture("share-extension.plist")
    let rule = try #require(
      document.node(at: ["NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule"]))
    #expect(rule.kind == .string)
    #expect(rule.position == PropertyListPosition(line: 13, column: 4, offset: rule.elementRange.lowerBound))
    #expect(
      document.text.utf8.dropFirst(rule.elementRange.lowerBound).starts(with: "<string>SUBQUERY (".utf8))
    #expect(document.node(at: ["NSExtension", "Missing"]) == nil)
    #expect(document.node(at: ["CFBundleDisplayName", "Deeper"]) == nil)

    let app = try TestPaths.fixture("app-info.plist")
    let scheme = try #require(app.node(at: ["CFBundleURLTypes", 0, "CFBundleURLSchemes", 1]))
    #expect(scheme.value == .string("msauth.com.example.notes"))
    #expect(scheme.position.line == 20)
    #expect(scheme.position.column == 5)
    #expect(app.node(at: ["CFBundleURLTypes", 1]) == nil)
    let entry = try #require(app.entry(at: ["CFBundleVersion"]))
    #expect(entry.keyPosition.line == 10)
    #expect(app.sourceLine(entry.keyPosition.line) == "\t<key>CFBundleVersion</key>")
    #expect(app.entry(at: ["CFBundleURLTypes", 0, "CFBundleURLName"])?.keyPosition.description == "15:4")
    #expect(app.entry(at: ["CFBundleURLTypes", 0]) == nil)
    #expect(app.sourceLine(0) == nil)
    let crlf = try TestPaths.fixture("crlf.plist")
    #expect(crlf.sourceLine(5) == "\t<key>CFBundleName</key>")
  }

  @Test(
    "every decoded offset of a string maps, in one walk, to its byte: entities at their &, CDATA byte for byte",
    arguments: [
      ("abc", [0, 1, 2, 3]),
      ("a&amp;b<![CDATA[<x>]]>&#233;", [0, 1, 6, 16, 17, 18, 22, 22, 28]),
      ("&#x1F600;&lt;", [0, 0, 0, 0, 9, 13]),
      ("<![CDATA[]]>x", [12, 13]),
      ("", [0]),
    ] as [(String, [Int])])
  func stringOffsetMap(_ content: String, _ expected: [Int]) throws {
    let prefix = "<plist version=\"1.0\"><string>"
    let document = try PropertyListDocument(text: prefix + content + "</string></plist>")
    let offsets = document.sourceOffsets(ofStringNode: document.root).map { $0 - prefix.utf8.count }
    #expect(offsets == expected)
    let decoded = try #require(document.root.value.stringValue)
    #expect(offsets.count == decoded.utf8.count + 1)
    for (offset, expectedByte) in expected.enumerated() {
      let position = document.sourcePosition(ofStringNode: document.root, decodedUTF8Offset: offset)
      #expect(position?.offset == expectedByte + prefix.utf8.count)
    }
  }

  @Test("decoded string offsets map to file positions through entities")
  func stringPositions() throws {
    let document = try TestPaths.fixture("share-extension.plist")
    let rule = try #require(
      document.node(at: ["NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule"]))
    let text = try #require(rule.value.stringValue)
    let quote = try #require(text.range(of: "\"public.mpeg-4\""))
    let opening = text.utf8.distance(from: text.startIndex, to: quote.lowerBound)
    // Line 19 is five tabs, then `ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO &quot;public.mpeg-4&quot; ||`.
    #expect(document.sourcePosition(ofStringNode: rule, decodedUTF8Offset: opening)?.description == "19:64")
    #expect(
      document.sourcePosition(ofStringNode: rule, decodedUTF8Offset: opening + 1)?.description == "19:70")
    #expect(
      document.sourcePosition(ofStringNode: rule, decodedUTF8Offset: opening + 14)?.description == "19:83")
    #expect(
      document.sourcePosition(ofStringNode: rule, decodedUTF8Offset: opening + 15)?.description == "19:89")
    #expect(document.sourcePosition(ofStringNode: rule, decodedUTF8Offset: 0)?.description == "13:12")
    let end = document.sourcePosition(ofStringNode: rule, decodedUTF8Offset: text.utf8.count)
    #expect(end?.offset == rule.contentRange.upperBound)
    #expect(document.sourcePosition(ofStringNode: rule, decodedUTF8Offset: text.utf8.count + 1) == nil)
  }

  @Test("CDATA maps byte for byte; a numeric reference is one position for all its decoded bytes")
  func cdataAndNumericReferencePositions() throws {
    let document = try TestPaths.fixture("entities-cdata.plist")
    let mixed = try #require(document.node(at: ["Mixed"]))
    // `    <string>before<![CDATA[<cdata>]]>&#65;fter</string>` is line 11.
    let positions = [0, 6, 12, 13, 14].map {
      document.sourcePosition(ofStringNode: mixed, decodedUTF8Offset: $0)?.description
    }
    #expect(positions == ["11:13", "11:28", "11:34", "11:38", "11:43"])
    let quoted = try #require(document.node(at: ["Quoted"]))
    let text = try #require(quoted.value.stringValue)
    let dash = text.utf8.distance(from: text.startIndex, to: try #require(text.firstIndex(of: "\u{2014}")))
    let dashStart = document.sourcePosition(ofStringNode: quoted, decodedUTF8Offset: dash)
    #expect(dashStart == document.sourcePosition(ofStringNode: quoted, decodedUTF8Offset: dash + 2))
    #expect(dashStart?.description == "7:47")
  }

  @Test("decoded key offsets map to file positions")
  func keyPositions() throws {
    let document = try PropertyListDocument(text: "<plist><dict>\n  <key>a&amp;b</key><true/></dict></plist>")
    let entry = try #require(document.entry(at: ["a&b"]))
    let positions = [0, 1, 2, 3].map {
      document.sourcePosition(ofKeyIn: entry, decodedUTF8Offset: $0)?.description
    }
    #expect(positions == ["2:8", "2:9", "2:14", "2:15"])
  }

  @Test("columns count characters, not bytes")
  func unicodeColumns() throws {
    let document = try TestPaths.fixture("entities-cdata.plist")
    let node = try #require(document.node(at: ["Ünïcødé"]))
    let position = document.sourcePosition(ofStringNode: node, decodedUTF8Offset: "ключ ".utf8.count)
    #expect(position?.description == "23:18")
  }

  @Test("the file's own style is detected")
  func styleDetection() throws {
    let app = try TestPaths.fixture("app-info.plist").style
    #expect(app.indentation == "\t")
    #expect(app.lineEnding == "\n")
    #expect(app.entities == .apple)
    let crlf = try TestPaths.fixture("crlf.plist").style
    #expect(crlf.lineEnding == "\r\n")
    let spaces = try TestPaths.fixture("raw-greater-than.plist").style
    #expect(spaces.indentation == "  ")
    #expect(!spaces.entities.escapesGreaterThan)
    let quoted = try TestPaths.fixture("share-extension.plist").style
    #expect(quoted.entities.escapesQuotationMark)
    let fourSpaces = try TestPaths.fixture("entities-cdata.plist").style
    #expect(fourSpaces.indentation == "    ")
    #expect(fourSpaces.entities.escapesApostrophe)
  }

  @Test("duplicate keys can be accepted, keeping the last value as Foundation does")
  func duplicateKeysKeptLast() throws {
    let text =
      "<plist>\n<dict>\n\t<key>A</key>\n\t<string>1</string>\n\t<key>A</key>\n\t<string>2</string>\n</dict>\n</plist>\n"
    let document = try PropertyListDocument(text: text, duplicateKeys: .keepLast)
    #expect(document.value == .dictionary(["A": .string("2")]))
    #expect(document.duplicateKeyWarnings.map { "\($0.key) \($0.first) \($0.duplicate)" } == ["A 3:2 5:2"])
    #expect(try foundationValue(of: Data(text.utf8)) == document.value)
    let removed = try document.applying(.remove(["A"]))
    #expect(removed.value == .dictionary([:]))
    #expect(removed.text == "<plist>\n<dict>\n</dict>\n</plist>\n")
    let set = try document.applying(.set(["A"], .string("3")))
    #expect(set.text == text.replacingOccurrences(of: "<string>2</string>", with: "<string>3</string>"))
  }
}
