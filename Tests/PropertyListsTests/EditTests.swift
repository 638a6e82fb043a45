import Foundation
import PropertyLists
import Testing

@Suite("Minimal text edits")
struct EditTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var fixture: String
    var edits: [PropertyListEdit]
    var testDescription: String { name }
  }

  static let rule = PropertyListPath(["NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule"])

  static let cases: [Case] = [
    Case(
      name: "set-string-keeps-quot-entities", fixture: "share-extension.plist",
      edits: [
        .set(
          rule,
          .string(
            "SUBQUERY (extensionItems, $e, SUBQUERY ($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
              + "UTI-CONFORMS-TO \"public.url\").@count >= 1).@count == 1"))
      ]),
    // A dictionary rule rewritten as a predicate string: its comments stay, before the string.
    Case(
      name: "set-dictionary-to-string-keeps-its-comments",
      fixture: "info-plists/flutter-share-extension.plist",
      edits: [
        .set(
          rule,
          .string(
            "SUBQUERY (extensionItems, $e, SUBQUERY ($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
              + "UTI-CONFORMS-TO \"public.image\").@count <= 100).@count == 1"))
      ]),
    Case(
      name: "set-scalars-in-place", fixture: "app-info.plist",
      edits: [
        .set(["CFBundleVersion"], .integer(119)),
        .set(["LSRequiresIPhoneOS"], .bool(false)),
        .set(["ScaleFactor"], .real(2)),
        .set(["BuildDate"], .date(Date(timeIntervalSince1970: 1_800_000_000))),
        .set(["CFBundleShortVersionString"], .string("2.5 <beta> & more")),
      ]),
    Case(
      name: "set-changes-type", fixture: "app-info.plist",
      edits: [.set(["CFBundleVersion"], .string("118")), .set(["Token"], .data(Data([1, 2, 3])))]),
    Case(
      name: "insert-after-key", fixture: "app-info.plist",
      edits: [
        .insert(
          key: "NSFaceIDUsageDescription", value: .string("Unlock your notes with Face ID."), into: [],
          position: .after("CFBundleVersion"))
      ]),
    Case(
      name: "insert-before-key-keeps-its-comment", fixture: "app-info.plist",
      edits: [
        .insert(
          key: "CFBundleDevelopmentRegion", value: .string("en"), into: [],
          position: .before("CFBundleIdentifier")),
        .insert(
          key: "A", value: .bool(true), into: ["CFBundleURLTypes", 0], position: .before("CFBundleURLSchemes")
        ),
      ]),
    Case(
      name: "insert-at-end", fixture: "app-info.plist",
      edits: [.insert(key: "ZLast", value: .dictionary(["Nested": .array([.string("x")])]), into: [])]),
    Case(
      name: "insert-into-empty-dict", fixture: "app-info.plist",
      edits: [
        .insert(
          key: "AppGroupIdentifiers", value: .array([.string("group.com.example.notes")]),
          into: ["IntuneMAMSettings"]
        )
      ]),
    Case(
      name: "append-to-arrays", fixture: "app-info.plist",
      edits: [
        .append(
          .string("notes-intunemam"), to: ["CFBundleURLTypes", 0, "CFBundleURLSchemes"], unlessPresent: true),
        .append(.string("msauthv2"), to: ["LSApplicationQueriesSchemes"], unlessPresent: true),
        .append(.string("arm64"), to: ["UIRequiredDeviceCapabilities"], unlessPresent: true),
      ]),
    Case(
      name: "replace-subtree", fixture: "app-info.plist",
      edits: [
        .set(
          ["CFBundleURLTypes", 0],
          .dictionary(["CFBundleURLName": .string("notes"), "CFBundleURLSchemes": .array([.string("notes")])])
        )
      ]),
    Case(
      name: "replace-subtree-in-another-order-rewrites-it", fixture: "app-info.plist",
      edits: [
        .set(
          ["CFBundleURLTypes", 0],
          .dictionary(["CFBundleURLSchemes": .array([.string("notes")]), "CFBundleURLName": .string("notes")])
        ),
        .set(["LSApplicationQueriesSchemes"], .string("not an array any more")),
      ]),
    Case(
      name: "remove-entries-and-elements", fixture: "app-info.plist",
      edits: [
        .remove(["CFBundleShortVersionString"]),
        .remove(["CFBundleURLTypes", 0, "CFBundleURLSchemes", 0]),
        .remove(["Token"]),
        .remove(["NoSuchKey"]),
      ]),
    Case(
      name: "set-creates-missing-dictionaries", fixture: "app-info.plist",
      edits: [
        .set(["IntuneMAMSettings", "ContainingAppBundleId"], .string("com.example.notes")),
        .set(["NSAppTransportSecurity", "NSExceptionDomains", "example.com"], .dictionary([:])),
      ]),
    Case(
      name: "crlf-kept", fixture: "crlf.plist",
      edits: [
        .append(
          .string("notes-intunemam"), to: ["CFBundleURLTypes", 0, "CFBundleURLSchemes"], unlessPresent: true),
        .insert(key: "LSApplicationQueriesSchemes", value: .array([.string("msauth")]), into: []),
        .set(["Multiline"], .string("one\r\ntwo")),
      ]),
    Case(
      name: "two-space-indent-and-raw-greater-than-kept", fixture: "raw-greater-than.plist",
      edits: [
        .set(Self.rule, .string("SUBQUERY (extensionItems, $e, $e.attachments.@count > 0).@count > 0")),
        .insert(
          key: "NSExtensionActivationUsesStrictMatching", value: .integer(0),
          into: ["NSExtension", "NSExtensionAttributes"],
          position: .after("NSExtensionActivationRule")),
      ]),
    Case(
      name: "four-space-indent-and-entities-kept", fixture: "entities-cdata.plist",
      edits: [
        .set(["Quoted"], .string("She said \"bye\" & it's <done>")),
        .set(["Raw"], .string("replaced CDATA")),
        .set(["Empty"], .string("filled")),
        .insert(key: "Added", value: .array([.bool(true)]), into: [], position: .after("Hex")),
      ]),
    Case(
      name: "insert-array-elements-first-and-last", fixture: "app.entitlements.plist",
      edits: [
        .insertElement(
          .string("$(AppIdentifierPrefix)com.example.notes"), into: ["keychain-access-groups"], at: 0,
          unlessPresent: true),
        .insertElement(
          .string("$(AppIdentifierPrefix)com.microsoft.intune.mam"), into: ["keychain-access-groups"], at: 2,
          unlessPresent: true),
        .append(
          .string("$(AppIdentifierPrefix)com.microsoft.adalcache"), to: ["keychain-access-groups"],
          unlessPresent: true),
      ]),
    // Tabs, then a four-space block pasted from a plugin's setup steps (as in Flutter apps' Info.plists): new
    // entries after the block nest by its four spaces, not by the file's first unit (a tab).
    Case(
      name: "mixed-tabs-and-spaces-nest-like-neighbours", fixture: "mixed-indent.plist",
      edits: [
        .insert(key: "LSApplicationQueriesSchemes", value: .array([.string("http-intunemam")]), into: []),
        .set(["IntuneMAMSettings", "AppGroupIdentifiers"], .array([.string("group.com.example.notes")])),
        .insert(
          key: "CFBundleTypeRole", value: .string("Editor"), into: ["CFBundleURLTypes", 0],
          position: .before("CFBundleURLSchemes")),
      ]),
    // Tabs, then four-space entries that hold no container (Hacki's Info.plist ends with two): entries added
    // after them nest by the four spaces they take from the dictionary, not by "    " + "\t".
    Case(
      name: "mixed-indent-scalar-tail-nests-by-its-own-step", fixture: "mixed-indent-scalar-tail.plist",
      edits: [
        .insert(key: "LSApplicationQueriesSchemes", value: .array([.string("http-intunemam")]), into: []),
        .insert(
          key: "IntuneMAMSettings", value: .dictionary(["AppGroupIdentifiers": .array([.string("group.a")])]),
          into: []),
      ]),
    Case(
      name: "one-line-document", fixture: "one-line-no-final-newline.plist",
      edits: [
        .append(.integer(3), to: ["List"], unlessPresent: true),
        .insert(key: "Inner", value: .string("x"), into: ["Empty"]),
        .remove(["Compact"]),
        .insertElement(.integer(0), into: ["List"], at: 0, unlessPresent: true),
      ]),
  ]

  @Test("golden output and diff", arguments: cases)
  func golden(testCase: Case) throws {
    let original = try TestPaths.fixture(testCase.fixture)
    let edited = try original.applying(testCase.edits)
    try expectGolden(edited.text, named: "\(testCase.name).plist")
    let diff = UnifiedDiff.make(
      from: original.text, to: edited.text, oldName: "a/\(testCase.fixture)", newName: "b/\(testCase.fixture)"
    )
    try expectGolden(diff, named: "\(testCase.name).diff")
  }

  @Test("text edits mean what value edits mean, and Foundation agrees", arguments: cases)
  func sameAsValueEdits(testCase: Case) throws {
    let original = try TestPaths.fixture(testCase.fixture)
    let edited = try original.applying(testCase.edits)
    var expected = original.value
    for edit in testCase.edits { expected = try expected.applying(edit) }
    #expect(edited.value == expected)
    #expect(try foundationValue(of: edited.data) == expected.normalizedKeyOrder)
  }

  @Test("applying the same edits again changes nothing", arguments: cases)
  func idempotent(testCase: Case) throws {
    let once = try TestPaths.fixture(testCase.fixture).applying(testCase.edits)
    let twice = try once.applying(testCase.edits.filter { if case .remove = $0 { false } else { true } })
    #expect(twice.bytes == once.bytes)
  }

  /// Comments come out of a rewritten container verbatim and in order; `<!--` inside a CDATA section is
  /// text, not a comment; a container sharing its line with its key gets them inline.
  @Test func rewrittenContainerKeepsOnlyItsComments() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      	<key>Rule</key>
      	<dict>
      		<!-- first -->
      		<key>A</key><string><![CDATA[<!-- not a comment -->]]></string>
      		<!-- second,
      		     two lines -->
      	</dict>
      	<key>Other</key><array><!-- inline --><string>x</string></array>
      </dict>
      </plist>

      """
    let document = try PropertyListDocument(data: Data(text.utf8), path: "comments.plist")
    let edited = try document.applying([.set(["Rule"], .string("r")), .set(["Other"], .integer(1))])
    #expect(
      edited.text == """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        	<key>Rule</key>
        	<!-- first -->
        	<!-- second,
        		     two lines -->
        	<string>r</string>
        	<key>Other</key><!-- inline --><integer>1</integer>
        </dict>
        </plist>

        """)
    #expect(edited.value == .dictionary(["Rule": .string("r"), "Other": .integer(1)]))
  }

  @Test("edits whose result is already there leave the bytes alone")
  func alreadyApplied() throws {
    let document = try TestPaths.fixture("app-info.plist")
    let noOps: [PropertyListEdit] = [
      .set(["CFBundleVersion"], .integer(118)),
      .set(
        ["CFBundleURLTypes", 0, "CFBundleURLSchemes"],
        .array([.string("notes"), .string("msauth.com.example.notes")])),
      .insert(key: "LSRequiresIPhoneOS", value: .bool(true), into: []),
      .append(.string("mailto"), to: ["LSApplicationQueriesSchemes"], unlessPresent: true),
      .remove(["Missing", "Deeper"]),
      .remove(["LSApplicationQueriesSchemes", 9]),
    ]
    #expect(try document.applying(noOps).bytes == document.bytes)
  }

  @Test("a plain append adds a duplicate; unlessPresent does not")
  func appendDuplicates() throws {
    let document = try TestPaths.fixture("app-info.plist")
    let path: PropertyListPath = ["LSApplicationQueriesSchemes"]
    let plain = try document.applying([.append(.string("mailto"), to: path)])
    #expect(plain.value.value(at: path) == .array([.string("mailto"), .string("msauth"), .string("mailto")]))
    let guarded = try document.applying([.append(.string("mailto"), to: path, unlessPresent: true)])
    #expect(guarded.bytes == document.bytes)
  }

  struct Refusal: Sendable, CustomTestStringConvertible {
    var edit: PropertyListEdit
    var message: String
    var testDescription: String { edit.description }
  }

  static let refusals: [Refusal] = [
    Refusal(
      edit: .insert(key: "CFBundleVersion", value: .integer(1), into: []),
      message: "app-info.plist:10:2: error: CFBundleVersion already exists with another value"),
    Refusal(
      edit: .insert(key: "A", value: .integer(1), into: ["LSApplicationQueriesSchemes"]),
      message: "app-info.plist: error: no dictionary at LSApplicationQueriesSchemes to insert A into"),
    Refusal(
      edit: .insert(key: "A", value: .integer(1), into: [], position: .after("Nope")),
      message: "app-info.plist:4:1: error: no key Nope in (root) to insert A after"),
    Refusal(
      edit: .insert(key: "A", value: .integer(1), into: [], position: .before("Nope")),
      message: "app-info.plist:4:1: error: no key Nope in (root) to insert A before"),
    Refusal(
      edit: .append(.integer(1), to: ["CFBundleVersion"]),
      message: "app-info.plist: error: no array at CFBundleVersion to append to"),
    Refusal(
      edit: .set(["CFBundleVersion", "Inner"], .integer(1)),
      message: "app-info.plist:11:2: error: CFBundleVersion is not a dictionary, so Inner cannot be set in it"
    ),
    Refusal(
      edit: .set(["LSApplicationQueriesSchemes", 5], .string("x")),
      message: "app-info.plist: error: LSApplicationQueriesSchemes › [5] does not exist"),
    Refusal(edit: .remove([]), message: "app-info.plist: error: the root value cannot be removed"),
    Refusal(
      edit: .insertElement(.string("x"), into: ["LSApplicationQueriesSchemes"], at: 3),
      message: "app-info.plist:25:2: error: LSApplicationQueriesSchemes has 2 elements; cannot insert at [3]"),
  ]

  @Test("impossible edits are refused with the path and position", arguments: refusals)
  func refused(refusal: Refusal) throws {
    let document = try TestPaths.fixture("app-info.plist")
    let error = try #require(throws: PropertyListError.self) { try document.applying([refusal.edit]) }
    #expect(error.description == refusal.message)
    #expect(error.kind == .invalidEdit)
    #expect(throws: PropertyListError.self) { try document.value.applying(refusal.edit) }
  }

  @Test("edits describe themselves for a printed plan")
  func descriptions() {
    let edits: [PropertyListEdit] = [
      .set(["IntuneMAMSettings", "AutoEnrollOnLaunch"], .bool(true)),
      .insert(key: "A", value: .array([]), into: [], position: .after("B")),
      .append(
        .string("x-intunemam"), to: ["CFBundleURLTypes", 0, "CFBundleURLSchemes"], unlessPresent: true),
      .remove(["Token"]),
      .insertElement(.string("b"), into: ["List"], at: 0, unlessPresent: true),
    ]
    #expect(
      edits.map(\.description) == [
        "set IntuneMAMSettings › AutoEnrollOnLaunch to true",
        "insert A = array of 0 into (root) after B",
        "append \"x-intunemam\" to CFBundleURLTypes › [0] › CFBundleURLSchemes unless present",
        "remove Token",
        "insert \"b\" into List at [0] unless present",
      ])
  }
}
