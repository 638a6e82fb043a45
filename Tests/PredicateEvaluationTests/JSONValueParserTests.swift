import Foundation
import PredicateEvaluation
import PredicateSyntax
import RuleKitFoundation
import Testing

@Suite("JSON input")
struct JSONValueParserTests {
  @Test(
    "JSON values map onto PredicateValue",
    arguments: [
      ("true", PredicateValue.bool(true)),
      ("1", .integer(1)),
      ("1.0", .double(1)),
      ("-0", .integer(0)),
      ("9223372036854775807", .integer(Int.max)),
      ("9223372036854775808", .double(9_223_372_036_854_775_808)),
      ("1e2", .double(100)),
      ("null", .null),
      (#""a\"b\\c\u00e9\ud83d\ude00\n""#, .string("a\"b\\cé😀\n")),
      ("[1, [true], {}]", .array([.integer(1), .array([.bool(true)]), .dictionary([:])])),
      (#" {"a": {"b": [null]}} "#, .dictionary(["a": .dictionary(["b": .array([.null])])])),
    ])
  func parses(text: String, expected: PredicateValue) throws {
    #expect(try PredicateValue(json: text) == expected)
  }

  @Test("true and 1 stay distinct values")
  func booleansAreNotNumbers() throws {
    let value = try PredicateValue(json: #"{"flag": true, "one": 1}"#)
    guard case .dictionary(let members) = value else {
      Issue.record("expected a dictionary, got \(value)")
      return
    }
    #expect(members["flag"] == .bool(true))
    #expect(members["one"] == .integer(1))
    #expect(members["flag"] != members["one"])
  }

  @Test(
    "malformed JSON is reported at its line and column",
    arguments: [
      ("{\"a\": }", 1, 7, "expected a JSON value"),
      ("[1,\n 2,\n x]", 3, 2, "expected a JSON value"),
      ("{\"é\": 1,,}", 1, 9, "expected a string key"),
      ("\"abc", 1, 5, "unterminated string"),
      ("[1] 2", 1, 5, "unexpected text"),
      ("01", 1, 2, "unexpected text"),
      ("\"\\ud800\"", 1, 8, "unpaired UTF-16 surrogate"),
      ("[1.]", 1, 4, "expected a digit after the decimal point"),
      ("tru", 1, 4, "expected 'true'"),
    ])
  func reportsErrors(text: String, line: Int, column: Int, message: String) {
    #expect {
      _ = try PredicateValue(json: text)
    } throws: { error in
      guard let error = error as? JSONParseError else { return false }
      return error.position.line == line && error.position.column == column && error.message.contains(message)
    }
  }

  @Test("deep nesting is refused, not a stack overflow")
  func deepNesting() {
    let text = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
    #expect(throws: JSONParseError.self) { try PredicateValue(json: text) }
  }
}

@Suite("Property-list input")
struct PropertyListInputTests {
  @Test("plist booleans, integers, reals, dates and data keep their types")
  func convertsPropertyList() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict>
      <key>flag</key><true/><key>one</key><integer>1</integer><key>half</key><real>0.5</real>
      <key>when</key><date>2001-01-01T00:00:00Z</date><key>bytes</key><data>AQI=</data>
      <key>list</key><array><string>x</string></array>
      </dict></plist>
      """
    let object = try PropertyListSerialization.propertyList(from: Data(xml.utf8), format: nil)
    let value = try PredicateValue(propertyList: object)
    #expect(
      value
        == .dictionary([
          "flag": .bool(true), "one": .integer(1), "half": .double(0.5),
          "when": .date(Date(timeIntervalSinceReferenceDate: 0)), "bytes": .data(Data([1, 2])),
          "list": .array([.string("x")]),
        ]))
  }

  @Test("an object that is not a plist type is reported with its key path")
  func rejectsForeignObjects() {
    #expect {
      _ = try PredicateValue(propertyList: ["items": [NSObject()]] as [String: Any])
    } throws: { error in
      (error as? UnsupportedPropertyListValue)?.keyPath == "items.0"
    }
  }
}
