import Foundation
import PropertyLists
import Testing

@Suite("Edits of preprocessed Info.plists")
struct PreprocessingEditTests {
  static let none = PropertyListPreprocessing()
  static let debug = PropertyListPreprocessing(definitions: ["DEBUG": "1"])

  /// The text of every directive line, in order.
  static func directiveLines(_ document: PropertyListDocument) -> [String] {
    (document.preprocessorReport?.directives ?? []).map {
      String(decoding: document.bytes[$0.range], as: UTF8.self)
    }
  }

  static let ats = """
    #ifndef DEBUG
    \t<key>NSAppTransportSecurity</key>
    \t<dict>
    \t\t<key>NSAllowsArbitraryLoads</key>
    \t\t<false/>
    \t</dict>
    #endif

    """

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var body: String
    var edits: [PropertyListEdit]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "insert at end after an active block", body: "\t<key>A</key>\n\t<string>a</string>\n" + ats,
      edits: [.insert(key: "New", value: "n", into: [])]),
    Case(
      name: "insert at end after a skipped block",
      body: "\t<key>A</key>\n\t<string>a</string>\n#ifdef DEBUG\n\t<key>D</key>\n\t<true/>\n#endif\n",
      edits: [.insert(key: "New", value: "n", into: [])]),
    Case(
      name: "insert at end after else branch",
      body:
        "#ifdef DEBUG\n\t<key>M</key>\n\t<string>d</string>\n#else\n\t<key>M</key>\n\t<string>r</string>\n#endif\n",
      edits: [.set(["New"], .array(["x"]))]),
    Case(
      name: "insert before a key inside a block", body: "\t<key>A</key>\n\t<string>a</string>\n" + ats,
      edits: [.insert(key: "New", value: "n", into: [], position: .before("NSAppTransportSecurity"))]),
    Case(
      name: "insert after a key inside a block", body: ats + "\t<key>Z</key>\n\t<string>z</string>\n",
      edits: [.insert(key: "New", value: "n", into: [], position: .after("NSAppTransportSecurity"))]),
    Case(
      name: "insert into a dictionary inside a block", body: ats,
      edits: [.set(["NSAppTransportSecurity", "NSAllowsLocalNetworking"], true)]),
    Case(
      name: "set a value inside a block in place", body: ats,
      edits: [.set(["NSAppTransportSecurity", "NSAllowsArbitraryLoads"], true)]),
    Case(
      name: "remove the entry inside a block", body: "\t<key>A</key>\n\t<string>a</string>\n" + ats,
      edits: [.remove(["NSAppTransportSecurity"])]),
    Case(
      name: "insert into a dictionary holding only a skipped block",
      body: "\t<key>Sub</key>\n\t<dict>\n#ifdef DEBUG\n\t\t<key>D</key>\n\t\t<true/>\n#endif\n\t</dict>\n",
      edits: [.set(["Sub", "New"], "n")]),
    Case(
      name: "batch of edits", body: "\t<key>A</key>\n\t<string>a</string>\n#include \"Shared.plist\"\n" + ats,
      edits: [
        .set(["A"], "changed"), .insert(key: "B", value: 2, into: [], position: .after("A")),
        .insert(key: "New", value: "n", into: []),
      ]),
  ]

  @Test(arguments: cases)
  func editKeepsDirectiveLines(_ testCase: Case) throws {
    let original = try PropertyListDocument(text: preprocessedPlist(testCase.body), preprocessing: Self.none)
    var expected = original.value
    for edit in testCase.edits { expected = try expected.applying(edit) }
    let edited = try original.applying(testCase.edits)
    #expect(edited.value == expected)
    #expect(Self.directiveLines(edited) == Self.directiveLines(original))
    #expect(try PropertyListDocument(bytes: edited.bytes, preprocessing: Self.none).value == expected)
    // New keys are outside every conditional block: with DEBUG defined they are there as well, and what
    // DEBUG adds is still there.
    let debugBefore = try PropertyListDocument(bytes: original.bytes, preprocessing: Self.debug).value
    let debugAfter = try PropertyListDocument(bytes: edited.bytes, preprocessing: Self.debug).value
    if case .dictionary(let before) = original.value, case .dictionary(let after) = edited.value,
      case .dictionary(let debugBeforeRoot) = debugBefore, case .dictionary(let debugAfterRoot) = debugAfter
    {
      for key in after.keys where before[key] == nil {
        #expect(debugAfterRoot[key] != nil, "\(key) landed inside a conditional block")
      }
      for key in debugBeforeRoot.keys where after[key] != nil || before[key] == nil {
        #expect(debugAfterRoot[key] != nil)
      }
    }
    // Applying the same edits again changes nothing.
    #expect(try edited.applying(testCase.edits).bytes == edited.bytes)
  }

  @Test func insertAtEndLandsAfterTheEndifLine() throws {
    let original = try PropertyListDocument(
      text: preprocessedPlist("\t<key>A</key>\n\t<string>a</string>\n" + Self.ats), preprocessing: Self.none)
    let edited = try original.applying(.insert(key: "New", value: "n", into: []))
    #expect(edited.text.contains("#endif\n\t<key>New</key>\n\t<string>n</string>\n</dict>"))
  }

  @Test func replacingAContainerWithDirectivesInsideIsRefused() throws {
    let original = try PropertyListDocument(
      text: preprocessedPlist(
        "\t<key>Sub</key>\n\t<dict>\n#ifdef DEBUG\n\t\t<key>D</key>\n\t\t<true/>\n#endif\n\t</dict>\n"),
      preprocessing: Self.none)
    #expect {
      _ = try original.applying(.set(["Sub"], "now a string"))
    } throws: { error in
      (error as? PropertyListError)?.kind == .invalidEdit
    }
    // Removing the whole entry would drop the directive lines too.
    #expect(throws: PropertyListError.self) { try original.applying(.remove(["Sub"])) }
  }
}

@Suite("Duplicate keys in Info.plists")
struct DuplicateKeyInfoPlistTests {
  static let text = preprocessedPlist(
    "\t<key>CFBundleName</key>\n\t<string>First</string>\n\t<key>CFBundleVersion</key>\n\t<string>1</string>\n"
      + "\t<key>CFBundleName</key>\n\t<string>Last</string>\n")

  @Test func readsWithKeepLastAndBothPositions() throws {
    let file = try PropertyListFile(data: Data(Self.text.utf8), duplicateKeys: .keepLast)
    #expect(file.value == ["CFBundleName": "Last", "CFBundleVersion": "1"])
    let warning = try #require(file.duplicateKeyWarnings.first)
    #expect(file.duplicateKeyWarnings.count == 1)
    #expect(warning.key == "CFBundleName")
    #expect((warning.first.line, warning.first.column) == (5, 2))
    #expect((warning.duplicate.line, warning.duplicate.column) == (9, 2))
    #expect(throws: PropertyListError.self) { try PropertyListFile(data: Data(Self.text.utf8)) }
  }

  @Test func editsWork() throws {
    let file = try PropertyListFile(data: Data(Self.text.utf8), duplicateKeys: .keepLast)
    let inserted = try file.applying([
      .insert(key: "IntuneMAMSettings", value: ["ADALClientId": "x"], into: [])
    ])
    #expect(
      inserted.value == [
        "CFBundleName": "Last", "CFBundleVersion": "1", "IntuneMAMSettings": ["ADALClientId": "x"],
      ])
    #expect(inserted.duplicateKeyWarnings.count == 1)
    // A set changes the occurrence that counts, the last; the first keeps its text.
    let set = try file.applying([.set(["CFBundleName"], "Renamed")])
    #expect(set.value == ["CFBundleName": "Renamed", "CFBundleVersion": "1"])
    #expect(set.document?.text.contains("<string>First</string>") == true)
    let removed = try file.applying([.remove(["CFBundleName"])])
    #expect(removed.value == ["CFBundleVersion": "1"])
    #expect(removed.duplicateKeyWarnings.isEmpty)
  }
}

extension DuplicateKeyInfoPlistTests {
  /// The policy's claim: Foundation, which Xcode's Info.plist processing reads with, keeps the last value.
  @Test func foundationAlsoKeepsTheLastValue() throws {
    #expect(
      try foundationValue(of: Data(Self.text.utf8)) == ["CFBundleName": "Last", "CFBundleVersion": "1"])
  }
}
