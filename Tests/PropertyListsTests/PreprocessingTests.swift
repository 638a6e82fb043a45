import Foundation
import PropertyLists
import Testing

/// A root dictionary with `body` inside, as an Info.plist is laid out.
func preprocessedPlist(_ body: String) -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
  <plist version="1.0">
  <dict>
  \(body)</dict>
  </plist>

  """
}

func readPreprocessed(_ text: String, _ definitions: [String: String] = [:]) throws -> PropertyListDocument {
  try PropertyListDocument(text: text, preprocessing: PropertyListPreprocessing(definitions: definitions))
}

@Suite("Preprocessed Info.plists")
struct PreprocessingTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var body: String
    var definitions: [String: String] = [:]
    var keys: [String]
    var testDescription: String { name }
  }

  static func entry(_ key: String) -> String { "\t<key>\(key)</key>\n\t<true/>\n" }

  static let cases: [Case] = [
    Case(name: "ifdef undefined", body: "#ifdef DEBUG\n" + entry("A") + "#endif\n" + entry("B"), keys: ["B"]),
    Case(
      name: "ifdef defined", body: "#ifdef DEBUG\n" + entry("A") + "#endif\n", definitions: ["DEBUG": "1"],
      keys: ["A"]),
    Case(
      name: "ifndef", body: "#ifndef DEBUG\n" + entry("A") + "#else\n" + entry("B") + "#endif\n", keys: ["A"]),
    Case(name: "if 0", body: "#if 0\n<<< not xml >>>\n#endif\n" + entry("B"), keys: ["B"]),
    Case(name: "if 1 else", body: "#if 1\n" + entry("A") + "#else\n" + entry("B") + "#endif\n", keys: ["A"]),
    Case(
      name: "elif chain takes the first true",
      body: "#if X == 1\n" + entry("A") + "#elif X == 2\n" + entry("B")
        + "#elif X >= 2\n" + entry("C") + "#else\n" + entry("D") + "#endif\n", definitions: ["X": "2"],
      keys: ["B"]),
    Case(
      name: "defined with parentheses", body: "#if defined(A) && !defined(B)\n" + entry("Yes") + "#endif\n",
      definitions: ["A": ""], keys: ["Yes"]),
    Case(
      name: "defined without parentheses", body: "#if defined A || defined B\n" + entry("Yes") + "#endif\n",
      definitions: ["B": "0"], keys: ["Yes"]),
    Case(
      name: "undefined name is 0", body: "#if MISSING\n" + entry("A") + "#else\n" + entry("B") + "#endif\n",
      keys: ["B"]),
    Case(
      name: "macro value compared", body: "#if LEVEL > 2 && LEVEL <= 5\n" + entry("A") + "#endif\n",
      definitions: ["LEVEL": "3"], keys: ["A"]),
    Case(
      name: "macro defined as macro",
      body: "#if OUTER != 7\n" + entry("A") + "#else\n" + entry("B") + "#endif\n",
      definitions: ["OUTER": "INNER", "INNER": "7"], keys: ["B"]),
    Case(
      name: "parentheses and precedence", body: "#if (0 || 1) && !(2 < 1)\n" + entry("A") + "#endif\n",
      keys: ["A"]),
    Case(name: "hex and octal", body: "#if 0x10 == 020\n" + entry("A") + "#endif\n", keys: ["A"]),
    Case(
      name: "nested inside a skipped branch",
      body: "#ifdef NO\n#if 1\n" + entry("A") + "#else\n" + entry("B")
        + "#endif\n#else\n" + entry("C") + "#endif\n", keys: ["C"]),
    Case(
      name: "define then test",
      body: "#define FEATURE 1\n#if FEATURE\n" + entry("A") + "#endif\n"
        + "#undef FEATURE\n#ifdef FEATURE\n" + entry("B") + "#endif\n", keys: ["A"]),
    Case(
      name: "define without value is defined", body: "#define FLAG\n#ifdef FLAG\n" + entry("A") + "#endif\n",
      keys: ["A"]),
    Case(
      name: "indented directives and space after #",
      body: "  #  ifdef DEBUG\n" + entry("A") + "\t#else\n"
        + entry("B") + "  # endif\n", keys: ["B"]),
    Case(
      name: "trailing comments on directive lines",
      body: "#ifdef DEBUG // debug only\n" + entry("A")
        + "#endif /* DEBUG */\n" + entry("B"), keys: ["B"]),
    Case(name: "continued line", body: "#if 1 && \\\n    0\n" + entry("A") + "#endif\n", keys: []),
    Case(
      name: "include and import are not followed",
      body: "#include \"Shared.plist\"\n#import <Other.plist>\n"
        + entry("A"), keys: ["A"]),
    Case(name: "pragma and warning", body: "#pragma once\n#warning check me\n" + entry("A"), keys: ["A"]),
    Case(
      name: "comments between elements", body: "/* block\n comment */\n" + entry("A") + "// line comment\n",
      keys: ["A"]),
    Case(
      name: "hash inside a string is text", body: "\t<key>A</key>\n\t<string>\n#ifdef X\n</string>\n",
      keys: ["A"]),
    Case(
      name: "conditional around a whole value",
      body: "\t<key>Mode</key>\n#ifdef DEBUG\n\t<string>debug</string>\n"
        + "#else\n\t<string>release</string>\n#endif\n", keys: ["Mode"]),
  ]

  @Test(arguments: cases)
  func directives(_ testCase: Case) throws {
    let text = preprocessedPlist(testCase.body)
    let document = try readPreprocessed(text, testCase.definitions)
    guard case .dictionary(let root) = document.value else {
      Issue.record("root is not a dictionary")
      return
    }
    #expect(root.keys == testCase.keys)
    #expect(document.text == text)
  }

  @Test func definitionsChangeTheValue() throws {
    let text = preprocessedPlist(
      "\t<key>Mode</key>\n#ifdef DEBUG\n\t<string>debug</string>\n#else\n\t<string>release</string>\n#endif\n"
    )
    #expect(try readPreprocessed(text).value == ["Mode": "release"])
    #expect(try readPreprocessed(text, ["DEBUG": "1"]).value == ["Mode": "debug"])
    let fromBuildSetting = PropertyListPreprocessing(preprocessorDefinitions: ["DEBUG=1", "OTHER"])
    #expect(fromBuildSetting.definitions == ["DEBUG": "1", "OTHER": "1"])
    #expect(try PropertyListDocument(text: text, preprocessing: fromBuildSetting).value == ["Mode": "debug"])
  }

  @Test func reportListsDirectivesIncludesAndSkippedText() throws {
    let text = preprocessedPlist("#include \"Shared.plist\"\n#ifdef DEBUG\n" + Self.entry("A") + "#endif\n")
    let document = try readPreprocessed(text)
    let report = try #require(document.preprocessorReport)
    #expect(report.includes.map(\.path) == ["Shared.plist"])
    #expect(report.includes.first?.position.line == 5)
    #expect(report.directives.map(\.kind) == [.include, .ifdef, .endif])
    let skipped = try #require(report.inactiveRanges.first)
    #expect(String(decoding: document.bytes[skipped], as: UTF8.self) == Self.entry("A"))
    let block = try #require(report.conditionalBlocks.first)
    #expect(
      String(decoding: document.bytes[block], as: UTF8.self) == "#ifdef DEBUG\n" + Self.entry("A") + "#endif")
  }

  @Test func positionsAreOffsetsIntoTheOriginalFile() throws {
    let text = preprocessedPlist(
      "#if 0\n" + Self.entry("A") + "#endif\n\t<key>B</key>\n\t<string>b</string>\n")
    let document = try readPreprocessed(text)
    let entry = try #require(document.entry(at: ["B"]))
    #expect(entry.keyPosition.line == 9)
    #expect(entry.keyPosition.column == 2)
    #expect(String(decoding: document.bytes[entry.value.contentRange], as: UTF8.self) == "b")
  }

  struct ErrorCase: Sendable, CustomTestStringConvertible {
    var name: String
    var body: String
    var line: Int
    var column: Int
    var message: String
    var testDescription: String { name }
  }

  static let errorCases: [ErrorCase] = [
    ErrorCase(
      name: "unterminated if", body: entry("A") + "#ifdef DEBUG\n" + entry("B"), line: 7, column: 1,
      message: "#ifdef is not closed by #endif"),
    ErrorCase(
      name: "unterminated skipped if", body: "#if 0\n" + entry("B"), line: 5, column: 1,
      message: "#if is not closed by #endif"),
    ErrorCase(
      name: "stray endif", body: entry("A") + "  #endif\n", line: 7, column: 3, message: "#endif without #if"),
    ErrorCase(name: "stray else", body: "#else\n", line: 5, column: 1, message: "#else without #if"),
    ErrorCase(
      name: "else after else", body: "#if 1\n#else\n#else\n#endif\n", line: 7, column: 1,
      message: "#else after #else"),
    ErrorCase(
      name: "active error", body: "#ifndef DEBUG\n#error needs DEBUG\n#endif\n", line: 6, column: 1,
      message: "#error needs DEBUG"),
    ErrorCase(
      name: "bad expression", body: "#if 1 +\n#endif\n", line: 5, column: 7,
      message: "cannot evaluate #if 1 +"),
    ErrorCase(
      name: "unknown directive", body: "#frobnicate\n", line: 5, column: 1,
      message: "#frobnicate is not a preprocessor directive"),
    ErrorCase(
      name: "include without a file", body: "#include Shared\n", line: 5, column: 10,
      message: "#include expects"),
  ]

  @Test(arguments: errorCases)
  func errors(_ testCase: ErrorCase) {
    #expect {
      _ = try readPreprocessed(preprocessedPlist(testCase.body))
    } throws: { error in
      guard let error = error as? PropertyListError else { return false }
      return error.kind == .malformed && error.position?.line == testCase.line
        && error.position?.column == testCase.column && error.message.hasPrefix(testCase.message)
        && error.hint != nil
    }
  }

  @Test func errorInSkippedBranchIsIgnored() throws {
    let text = preprocessedPlist(
      "#ifdef DEBUG\n#error debug builds are not supported\n#endif\n" + Self.entry("A"))
    #expect(try readPreprocessed(text).value == ["A": true])
  }

  @Test func directiveWithoutPreprocessingIsAnErrorNamingTheOption() throws {
    let text = preprocessedPlist("#ifndef DEBUG\n" + Self.entry("A") + "#endif\n")
    #expect {
      _ = try PropertyListDocument(text: text)
    } throws: { error in
      guard let error = error as? PropertyListError else { return false }
      return error.position?.line == 5 && error.position?.column == 1
        && (error.hint ?? "").contains("INFOPLIST_PREPROCESS")
        && (error.hint ?? "").contains("--project")
        && (error.hint ?? "").contains("PropertyListPreprocessing")
    }
  }

  @Test func fileReaderDetectsXMLAfterLeadingDirectives() throws {
    let text = "#include \"Header.h\"\n" + preprocessedPlist(Self.entry("A"))
    let file = try PropertyListFile(data: Data(text.utf8), preprocessing: PropertyListPreprocessing())
    #expect(file.format == .xml)
    #expect(file.value == ["A": true])
    #expect(file.document?.preprocessorReport?.includes.count == 1)
    #expect(throws: PropertyListError.self) { try PropertyListFile(data: Data(text.utf8)) }
    #expect(PropertyListFile.detectFormat(Data(text.utf8)) == .xml)
  }
}

@Suite("Macros of a prefix header and their expansion, as cc -E reads them")
struct PrefixHeaderMacroTests {
  @Test(
    "definitions(inPrefixHeader:) keeps object-like #defines outside conditionals",
    arguments: [
      ("#define SCHEME woocommerce\n", ["SCHEME": "woocommerce"]),
      ("  #  define SCHEME\twoo  \n", ["SCHEME": "woo"]),
      ("#define EMPTY\n", ["EMPTY": ""]),
      ("#define SCHEME woo // the app\n#define OTHER /* x */ two\n", ["SCHEME": "woo", "OTHER": "two"]),
      ("#define LONG a \\\n  b\n", ["LONG": "a   b"]),
      ("#define URL \"https://example.com\"\n", ["URL": "\"https://example.com\""]),
      ("#define F(x) x\n#define G (x)\n", ["G": "(x)"]),
      ("#define A 1\n#undef A\n", [:]),
      ("#ifdef DEBUG\n#define A debug\n#else\n#define A release\n#endif\n#define B b\n", ["B": "b"]),
      ("/* #define HIDDEN 1\n */\n#define SHOWN 1\n", ["SHOWN": "1"]),
      ("#define 1BAD x\n#include \"Other.h\"\n#definex y\n", [:]),
      ("#define CRLF value\r\n#define NEXT next\r\n", ["CRLF": "value", "NEXT": "next"]),
    ] as [(String, [String: String])])
  func definitionsInPrefixHeader(_ header: String, _ expected: [String: String]) {
    #expect(PropertyListPreprocessing.definitions(inPrefixHeader: header) == expected)
  }

  @Test(
    "expansion(ofMacro:) rescans the replacement, never a macro inside its own expansion",
    arguments: [
      ("SCHEME", ["SCHEME": "woocommerce"], "woocommerce"),
      ("SCHEME", ["SCHEME": "BASE-dev", "BASE": "woo"], "woo-dev"),
      ("SELF", ["SELF": "SELF-x"], "SELF-x"),
      ("A", ["A": "B", "B": "A"], "A"),
      ("Q", ["Q": "\"BASE\" BASE", "BASE": "woo"], "\"BASE\" woo"),
      ("N", ["N": "1BASE BASE2 BASE", "BASE": "woo"], "1BASE BASE2 woo"),
      ("MISSING", ["OTHER": "x"], nil),
    ] as [(String, [String: String], String?)])
  func expansionOfMacro(_ name: String, _ definitions: [String: String], _ expected: String?) {
    #expect(PropertyListPreprocessing(definitions: definitions).expansion(ofMacro: name) == expected)
  }
}
