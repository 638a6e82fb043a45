import Foundation
import RuleKitFoundation
import TestSupport
import Testing

@testable import PropertyLists

@Suite("OpenStep property lists: our reader against Foundation's")
struct OpenStepReaderTests {
  /// Hand-written OpenStep text, each read by Foundation and by us.
  static let fixtures: [(String, String)] = [
    ("dictionary", "{ CFBundleName = Notes; CFBundleVersion = \"1.0\"; }"),
    (
      "comments",
      """
      // A line comment.
      {
          /* a block
             comment */ name = Notes; // after an entry
          url = http://example.com/a//b; /* a '/' in a word is not a comment */
          path = /usr/bin;
      }
      // The end.
      """
    ),
    (
      "escapes",
      #"{ a = "\a\b\f\n\r\t\v\\\"\'"; b = 'single \' "double"'; c = "\101\142\0633"; d = "\U00e9\U263A!"; "#
        + #"e = "\UD83D\UDE00"; f = "\q\"# + "\n" + #"    g"; }"#
    ),
    (
      "octal escapes in the NeXTSTEP encoding",
      #"{ a = "\200\201\244\251\256\320\341\350\351\352\365\370\373\375"; }"#
    ),
    ("arrays", "( a, \"b c\", (), (x,), ( (nested) ), {k = v;}, <00ff>, )"),
    ("data", "{ d = <0fbd 7a\n\t00>; empty = <>; upper = <ABCDEF>; }"),
    ("strings file", "\"greeting\" = \"Hello\";\n/* comment */\n\"farewell\" = \"Goodbye\";\nshortcut;\n"),
    ("strings file of one entry", "key = value;"),
    ("key; shortcut in a dictionary", "{ a; b = c; }"),
    ("unquoted characters", "{ $x_1 = -2.5e10; a:b = /p/q.r-s; }"),
    ("byte order mark", "\u{FEFF}{ a = b; }"),
    ("top-level string", "\"just a string\""),
    ("top-level word", "word"),
    ("top-level data", "<0001 0203>"),
    ("comment-only file", "// nothing here\n"),
    ("non-ASCII", "{ \"clé\" = \"值 😀\"; \"Ünicode\" = \"\u{2028}\"; }"),
    ("whitespace everywhere", "{\u{2028}a\u{2029}=\u{0B}b\u{0C};\r\n}"),
    ("empty containers", "{ a = {}; b = (); c = \"\"; }"),
  ]

  static func fixture(_ name: String) throws -> [UInt8] {
    Array(try #require(fixtures.first { $0.0 == name }?.1).utf8)
  }

  @Test("hand-written OpenStep reads as Foundation reads it", arguments: fixtures.map(\.0))
  func agreesWithFoundation(name: String) throws {
    let bytes = try Self.fixture(name)
    var format = PropertyListSerialization.PropertyListFormat.xml
    let object = try PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: &format)
    #expect(format == .openStep)
    let ours = try OpenStepReader.read(bytes)
    #expect(ours.normalizedKeyOrder == (try PropertyListValue(foundationObject: object)))
    #expect(PropertyListFile.detectFormat(Data(bytes)) == .openStep || name == "comment-only file")
  }

  @Test("the values themselves, key order kept")
  func values() throws {
    #expect(
      try OpenStepReader.read(try Self.fixture("escapes"))
        == .dictionary([
          "a": "\u{7}\u{8}\u{C}\n\r\t\u{B}\\\"'", "b": "single ' \"double\"", "c": "Ab33", "d": "é☺!",
          "e": "😀",
          "f": "q\n    g",
        ]))
    #expect(
      try OpenStepReader.read(try Self.fixture("strings file"))
        == .dictionary(["greeting": "Hello", "farewell": "Goodbye", "shortcut": "shortcut"]))
    #expect(try OpenStepReader.read(try Self.fixture("comment-only file")) == .dictionary([:]))
    #expect(
      try OpenStepReader.read(try Self.fixture("data"))
        == .dictionary([
          "d": .data(Data([0x0F, 0xBD, 0x7A, 0x00])), "empty": .data(Data()),
          "upper": .data(Data([0xAB, 0xCD, 0xEF])),
        ]))
  }

  @Test("every octal escape from \\200 to \\377 reads as Foundation reads it (NeXTSTEP encoding)")
  func nextStepTable() throws {
    for byte in 0x80...0xFF {
      let text = "\"\\" + String(byte, radix: 8) + "\""
      let ours = try OpenStepReader.read(Array(text.utf8))
      let theirs = try foundationValue(of: Data(text.utf8))
      #expect(ours == theirs, "\\\(String(byte, radix: 8)): ours \(ours), Foundation's \(theirs)")
    }
  }

  @Test("OpenStepWriter's output reads back (seeded), and Foundation reads it the same")
  func writerRoundTrip() throws {
    var generator = SeededGenerator(seed: 0x0_5E_17)
    var checked = 0
    while checked < 300 {
      let value = RandomPropertyList.value(using: &generator)
      guard !RandomPropertyList.containsDate(value) else { continue }
      checked += 1
      let text = try OpenStepWriter.document(value)
      let expected = RandomPropertyList.openStepReading(of: value)
      let ours = try OpenStepReader.read(Array(text.utf8))
      #expect(ours == expected, "written as:\n\(text)")
      #expect(try foundationValue(of: Data(text.utf8)) == expected.normalizedKeyOrder, "written as:\n\(text)")
    }
  }

  /// Reading `text` fails with `kind` at `line`:`column`, and the message contains `fragment`.
  func expectFailure(
    _ text: String, _ kind: PropertyListError.Kind, at position: (Int, Int)?, _ fragment: String,
    duplicateKeys: PropertyListDuplicateKeyPolicy = .error, foundationAgrees: Bool = true,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    do {
      let value = try OpenStepReader.read(Array(text.utf8), duplicateKeys: duplicateKeys)
      Issue.record("read as \(value)", sourceLocation: sourceLocation)
    } catch {
      #expect(error.kind == kind, "\(error.message)", sourceLocation: sourceLocation)
      #expect(error.message.contains(fragment), "\(error.message)", sourceLocation: sourceLocation)
      #expect(
        error.position.map { ($0.line, $0.column) } ?? (0, 0) == position ?? (0, 0),
        sourceLocation: sourceLocation)
      #expect(error.hint != nil, sourceLocation: sourceLocation)
    }
    if foundationAgrees {
      #expect(throws: (any Error).self, "Foundation reads it", sourceLocation: sourceLocation) {
        try PropertyListSerialization.propertyList(from: Data(text.utf8), options: [], format: nil)
      }
    }
  }

  @Test("malformed text: line, column and what is wrong")
  func malformed() {
    expectFailure(
      "{ CFBundleName = ; }", .malformed, at: (1, 18),
      "expected the value of \"CFBundleName\" after '=', found ';'")
    expectFailure("{ a = b }", .malformed, at: (1, 8), "missing ';' after the value of \"a\", before '}'")
    expectFailure(
      "{\n  a = b;\n  c = d\n", .malformed, at: (3, 8),
      "missing ';' after the value of \"c\" (the file ends there)")
    expectFailure("{ a = b;", .malformed, at: (1, 1), "the dictionary opened here is not closed")
    expectFailure("( a, b", .malformed, at: (1, 1), "the array opened here is not closed")
    expectFailure("( a b )", .malformed, at: (1, 5), "expected ',' or ')' after an array element, found 'b'")
    expectFailure("( a, , b )", .malformed, at: (1, 6), "expected an element or ')' in the array, found ','")
    expectFailure("{ a = \"open; }", .malformed, at: (1, 7), "the string opened here is not closed")
    expectFailure("{ a = <0f1>; }", .malformed, at: (1, 10), "odd number of hex digits")
    expectFailure("{ a = <0g>; }", .malformed, at: (1, 8), "odd number of hex digits")
    expectFailure("{ a = <zz>; }", .malformed, at: (1, 8), "unexpected 'z' in <data>")
    expectFailure("{ a = <00", .malformed, at: (1, 7), "the data opened here is not closed")
    expectFailure("{ a b; }", .malformed, at: (1, 5), "expected '=' or ';' after the key \"a\", found 'b'")
    expectFailure(
      "{ (x) = y; }", .malformed, at: (1, 3), "expected a key or '}' in the dictionary, found '('")
    expectFailure(
      "{ a = b; } junk", .malformed, at: (1, 12), "unexpected 'j' after the end of the property list")
    expectFailure(
      "hello world", .malformed, at: (1, 7), "expected '=' or ';' after the key \"hello\", found 'w'")
    expectFailure("{\"a\": 1}", .malformed, at: (1, 5), "expected '=' or ';' after the key \"a\", found ':'")
    // CoreFoundation ignores what follows the entries of a strings file; we report it.
    expectFailure(
      "a = b; }", .malformed, at: (1, 8), "expected a key or the end of the file, found '}'",
      foundationAgrees: false)
  }

  @Test("input that is not a property list at all says so, without a position")
  func notAPropertyList() {
    expectFailure("\u{1}\u{2}garbage", .malformed, at: nil, "not OpenStep text (it begins with U+0001)")
    expectFailure(";", .malformed, at: nil, "not OpenStep text (it begins with ';')")
    var garbage = Array("t\u{BD}".utf8)
    garbage[1] = 0xBD
    do {
      _ = try OpenStepReader.read(garbage)
      Issue.record("garbage read")
    } catch {
      #expect(error.kind == .invalidEncoding)
      #expect(error.position == nil)
      #expect(error.message.hasSuffix("not OpenStep text (byte 0xBD at offset 1 is not UTF-8)"))
    }
  }

  @Test("nesting past PropertyListLimits.maximumDepth")
  func tooDeep() throws {
    _ = try OpenStepReader.read(
      Array((String(repeating: "(", count: 256) + String(repeating: ")", count: 256)).utf8))
    expectFailure(
      String(repeating: "(", count: 257) + String(repeating: ")", count: 257), .limitExceeded, at: (1, 257),
      "nested deeper than the limit of 256 levels", foundationAgrees: false)
    // A strings file's implicit dictionary is the first level.
    expectFailure(
      "a = " + String(repeating: "(", count: 256) + String(repeating: ")", count: 256) + ";", .limitExceeded,
      at: (1, 260), "nested deeper than the limit of 256 levels", foundationAgrees: false)
  }

  @Test("duplicate keys follow the policy")
  func duplicateKeys() throws {
    expectFailure(
      "{ a = 1;\n  a = 2; }", .duplicateKey, at: (2, 3), "duplicate key \"a\" (first at 1:3)",
      foundationAgrees: false)
    #expect(
      try OpenStepReader.read(Array("{ a = 1; b = 2; a = 3; }".utf8), duplicateKeys: .keepLast)
        == .dictionary(["a": "3", "b": "2"]))
  }

  @Test("PropertyListFile lists an OpenStep file's duplicate keys under keepLast, as for XML")
  func duplicateKeysAreListed() throws {
    let text = "{\n  a = 1;\n  b = { c = 2; c = 3; };\n  a = 4;\n}"
    let file = try PropertyListFile(data: Data(text.utf8), duplicateKeys: .keepLast)
    #expect(file.value == .dictionary(["a": "4", "b": .dictionary(["c": "3"])]))
    #expect(
      file.duplicateKeyWarnings.map { "\($0.key) \($0.first) \($0.duplicate)" } == [
        "c 3:9 3:16", "a 2:3 4:3",
      ])
    let edited = try file.applying([.set(["d"], "5")])
    #expect(edited.duplicateKeyWarnings.isEmpty)
  }

  @Test("PropertyListFile reads OpenStep through it, with the file's path in errors")
  func throughFile() throws {
    let file = try PropertyListFile(data: Data("{ a = (b, <00>); }".utf8), path: "old.plist")
    #expect(file.format == .openStep)
    #expect(file.value == .dictionary(["a": .array(["b", .data(Data([0]))])]))
    let error = try #require(throws: PropertyListError.self) {
      try PropertyListFile(data: Data("{ a = b }".utf8), path: "old.plist")
    }
    #expect(
      error.description
        == "old.plist:1:8: error: OpenStep property list: missing ';' after the value of \"a\", before '}'")
  }
}
