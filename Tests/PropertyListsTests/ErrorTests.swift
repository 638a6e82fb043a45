import Foundation
import PropertyLists
import Testing

@Suite("Malformed and refused input")
struct ErrorTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var kind: PropertyListError.Kind
    var expected: String
    var testDescription: String { name }
  }

  static let header = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"

  static let cases: [Case] = [
    Case(
      name: "truncated file",
      text: header + "<plist version=\"1.0\">\n<dict>\n\t<key>A</key>\n\t<string>x</string>\n",
      kind: .malformed,
      expected: "Info.plist:6:1: error: the file ends before <dict> (opened at 3:1) is closed"),
    Case(
      name: "truncated inside a string", text: "<plist><dict><key>A</key><string>abc", kind: .malformed,
      expected: "Info.plist:1:37: error: the file ends before <string> (opened at 1:26) is closed"),
    Case(
      name: "wrong nesting", text: "<plist>\n<dict>\n<key>A</key>\n<array>\n</dict>\n</array>\n</plist>\n",
      kind: .malformed,
      expected: "Info.plist:5:1: error: found </dict> where </array> was expected (<array> opened at 4:1)"),
    Case(
      name: "duplicate key",
      text: "<plist>\n<dict>\n\t<key>A</key>\n\t<true/>\n\t<key>A</key>\n\t<false/>\n</dict>\n</plist>",
      kind: .duplicateKey, expected: "Info.plist:5:2: error: duplicate key \"A\" (first at 3:2)"),
    Case(
      name: "external entity",
      text: header
        + "<!DOCTYPE plist [<!ENTITY xxe SYSTEM \"file:///etc/passwd\">]>\n<plist><string>&xxe;</string></plist>",
      kind: .forbiddenDeclaration,
      expected:
        "Info.plist:2:18: error: entity declarations are not allowed in a property list (nothing is fetched or expanded)"
    ),
    Case(
      name: "internal DTD subset", text: header + "<!DOCTYPE plist [\n]>\n<plist><dict/></plist>",
      kind: .forbiddenDeclaration,
      expected: "Info.plist:2:17: error: DOCTYPE internal subset is not allowed in a property list"),
    Case(
      name: "entity declaration outside a DOCTYPE", text: "<!ENTITY a \"b\">\n<plist><dict/></plist>",
      kind: .forbiddenDeclaration,
      expected:
        "Info.plist:1:1: error: entity declarations are not allowed in a property list (nothing is fetched or expanded)"
    ),
    Case(
      name: "entity declaration inside a dictionary",
      text: "<plist><dict>\n<!ENTITY a \"b\">\n</dict></plist>",
      kind: .forbiddenDeclaration,
      expected:
        "Info.plist:2:1: error: entity declarations are not allowed in a property list (nothing is fetched or expanded)"
    ),
    Case(
      name: "CDATA outside a string", text: "<plist><dict><![CDATA[x]]></dict></plist>", kind: .malformed,
      expected: "Info.plist:1:14: error: unexpected \"<![CDATA[x]]\" in <dict>"),
    Case(
      name: "undeclared entity", text: "<plist><string>&bomb;</string></plist>", kind: .forbiddenDeclaration,
      expected: "Info.plist:1:16: error: unknown entity &bomb; (entities are never expanded)"),
    Case(
      name: "bare ampersand", text: "<plist><string>Tom & Jerry</string></plist>", kind: .malformed,
      expected: "Info.plist:1:20: error: '&' must be written &amp; in text"),
    Case(
      name: "key without value", text: "<plist><dict>\n<key>A</key>\n</dict></plist>", kind: .malformed,
      expected: "Info.plist:2:1: error: key \"A\" has no value"),
    Case(
      name: "value without key", text: "<plist><dict>\n<string>A</string>\n</dict></plist>", kind: .malformed,
      expected: "Info.plist:2:1: error: expected <key> in <dict>, found <string>"),
    Case(
      name: "unknown element", text: "<plist><dict><key>A</key><number>1</number></dict></plist>",
      kind: .malformed,
      expected: "Info.plist:1:26: error: unknown element <number>"),
    Case(
      name: "bad integer", text: "<plist><dict><key>A</key>\n<integer>12a</integer></dict></plist>",
      kind: .invalidValue, expected: "Info.plist:2:10: error: \"12a\" is not an integer"),
    Case(
      name: "bad date", text: "<plist><date>yesterday</date></plist>", kind: .invalidValue,
      expected: "Info.plist:1:14: error: \"yesterday\" is not a date"),
    Case(
      name: "bad base64", text: "<plist><data>\n\tSGVs*bG8=\n</data></plist>", kind: .invalidValue,
      expected: "Info.plist:2:6: error: <data> is not valid base64"),
    Case(
      name: "base64 of a wrong length", text: "<plist><data>SGVsbG8</data></plist>", kind: .invalidValue,
      expected: "Info.plist:1:14: error: <data> is not valid base64"),
    Case(
      name: "markup in an attribute", text: "<plist version=\"1.<dict>0\"><dict/></plist>", kind: .malformed,
      expected: "Info.plist:1:19: error: attribute value in the <plist> tag contains \"<\""),
    Case(
      name: "markup in a DOCTYPE identifier",
      text: "<!DOCTYPE plist SYSTEM \"a<b.dtd\">\n<plist><dict/></plist>",
      kind: .malformed, expected: "Info.plist:1:26: error: a DOCTYPE identifier contains \"<\""),
    Case(
      name: "malformed XML declaration",
      text: "<?xml version=1.0\" encoding\"UTF-8\"?>\n<plist><dict/></plist>",
      kind: .malformed, expected: "Info.plist:1:1: error: malformed XML declaration"),
    Case(
      name: "text in a dictionary", text: "<plist><dict>oops</dict></plist>", kind: .malformed,
      expected: "Info.plist:1:14: error: unexpected text \"oops\" in <dict>"),
    Case(
      name: "content after the root", text: "<plist><dict/></plist>\n<dict/>", kind: .malformed,
      expected: "Info.plist:2:1: error: unexpected <dict> after the end of the property list"),
    Case(
      name: "comment inside a string", text: "<plist><string>a<!-- b --></string></plist>", kind: .malformed,
      expected:
        "Info.plist:1:17: error: a comment inside <string> is not allowed: Apple's property list reader rejects it"
    ),
    Case(
      name: "two root values", text: "<plist><dict/><dict/></plist>", kind: .malformed,
      expected: "Info.plist:1:15: error: <plist> holds more than one value (found <dict>)"),
    Case(
      name: "empty file", text: "", kind: .malformed,
      expected: "Info.plist:1:1: error: the file ends before any property list element"),
    Case(
      name: "unsupported encoding",
      text: "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist><dict/></plist>",
      kind: .malformed,
      expected: "Info.plist:1:1: error: the XML declaration says encoding \"UTF-16\"; only UTF-8 is supported"
    ),
  ]

  @Test("exact message, kind and position", arguments: cases)
  func malformed(testCase: Case) {
    do {
      _ = try PropertyListDocument(text: testCase.text, path: "Info.plist")
      Issue.record("parsed without error")
    } catch {
      #expect(error.description == testCase.expected)
      #expect(error.kind == testCase.kind)
    }
  }

  @Test("invalid UTF-8 is reported at the offending byte")
  func invalidUTF8() {
    let bytes = Array("<plist>\n<string>caf".utf8) + [0xE9] + Array("</string></plist>".utf8)
    #expect {
      try PropertyListDocument(bytes: bytes, path: "Info.plist")
    } throws: { error in
      let error = error as? PropertyListError
      return error?.kind == .invalidEncoding
        && error?.description == "Info.plist:2:12: error: the file is not valid UTF-8 (byte 0xE9)"
    }
  }

  @Test("a duplicate key error carries both positions and a hint")
  func duplicateKeyPositions() throws {
    let text = "<plist>\n<dict>\n\t<key>A</key>\n\t<true/>\n\t<key>A</key>\n\t<false/>\n</dict>\n</plist>"
    let error = try #require(throws: PropertyListError.self) { try PropertyListDocument(text: text) }
    #expect(error.position?.description == "5:2")
    #expect(error.relatedPosition?.description == "3:2")
    #expect(error.hint == "remove one of the two entries")
  }

  @Test("a refused DOCTYPE is never resolved: the message names the fix")
  func refusedDoctypeHint() throws {
    let text = "<!DOCTYPE plist SYSTEM \"http://example.invalid/x.dtd\" [ <!ENTITY a \"aaaa\"> ]><plist/>"
    let error = try #require(throws: PropertyListError.self) { try PropertyListDocument(text: text) }
    #expect(error.kind == .forbiddenDeclaration)
    #expect(error.hint == "remove the <!ENTITY …> declaration and write the text itself")
  }

  @Test("rendered with the source line, a caret that follows tabs, and the hint")
  func rendered() throws {
    let text = "<plist>\n<dict>\n\t<key>A</key>\n\t<integer>x1</integer>\n</dict>\n</plist>\n"
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListDocument(text: text, path: "Info.plist")
    }
    #expect(
      error.rendered(source: Array(text.utf8))
        == """
        Info.plist:4:11: error: "x1" is not an integer
        \t<integer>x1</integer>
        \t         ^
        hint: write a decimal (or 0x hexadecimal) integer between -2^63 and 2^63-1
        """)
    let noPosition = PropertyListError(.io, "cannot write: Permission denied", path: "Info.plist")
    #expect(noPosition.rendered(source: []) == "Info.plist: error: cannot write: Permission denied")
  }
}
