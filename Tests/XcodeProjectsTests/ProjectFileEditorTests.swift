import Foundation
import PropertyLists
import Testing
import XcodeProjects

@Suite("Minimal text edits of project.pbxproj build settings")
struct ProjectFileEditorTests {
  static let fixture: [UInt8] = {
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/edit/Notes.pbxproj")
    return (try? [UInt8](Data(contentsOf: url))) ?? []
  }()

  static let projectDebug = "1A0000000000000000000050"
  static let projectRelease = "1A0000000000000000000051"
  static let targetDebug = "1A0000000000000000000052"
  static let targetRelease = "1A0000000000000000000053"

  static func edit(_ id: String, _ name: String, _ value: String, sdk: String? = nil) -> BuildSettingEdit {
    BuildSettingEdit(
      configurationID: id, name: name,
      conditions: sdk.map { [BuildSettingCondition(parameter: "sdk", pattern: $0)] } ?? [], value: value)
  }

  /// The text of the configuration's buildSettings block after applying `edits` to the fixture.
  static func settingsText(_ id: String, after edits: [BuildSettingEdit]) throws -> String {
    let bytes = try ProjectFileEditor(bytes: fixture).applying(edits)
    let document = try OpenStepDocument(bytes: bytes)
    let node = try #require(document.node(at: ["objects", .key(id), "buildSettings"]))
    return document.text(of: node.elementRange)
  }

  static func setting(_ bytes: [UInt8], _ id: String, _ key: String) throws -> PropertyListValue? {
    try OpenStepDocument(bytes: bytes).value.value(at: ["objects", .key(id), "buildSettings", .key(key)])
  }

  @Test func untouchedProjectIsByteIdentical() throws {
    let editor = try ProjectFileEditor(bytes: Self.fixture)
    #expect(try editor.applying([]) == Self.fixture)
    let alreadyThere = [
      Self.edit(Self.projectDebug, "SDKROOT", "iphoneos"),
      Self.edit(Self.projectDebug, "CODE_SIGN_IDENTITY", "iPhone Developer", sdk: "iphoneos*"),
      Self.edit(Self.targetDebug, "PRODUCT_NAME", "$(TARGET_NAME)"),
    ]
    #expect(try editor.applying(alreadyThere) == Self.fixture)
    #expect(try editor.diff(alreadyThere) == "")
  }

  struct InsertCase: Sendable, CustomTestStringConvertible {
    var name: String
    var key: String
    var sdk: String?
    var after: String?
    var before: String?
    var testDescription: String { name }
  }

  static let insertCases: [InsertCase] = [
    InsertCase(name: "start", key: "AAA_FIRST", after: nil, before: "ALWAYS_SEARCH_USER_PATHS"),
    InsertCase(
      name: "middle", key: "CLANG_ENABLE_MODULES", after: "ALWAYS_SEARCH_USER_PATHS",
      before: "CLANG_WARN_UNREACHABLE_CODE"),
    // `Z` (0x5A) sorts before `_` (0x5F): byte order, as Xcode writes CLANG_WARN__DUPLICATE_METHOD_MATCH last.
    InsertCase(
      name: "byte order before underscore", key: "CLANG_WARN_ZERO", after: "CLANG_WARN_UNREACHABLE_CODE",
      before: "CLANG_WARN__DUPLICATE_METHOD_MATCH"),
    // `[` (0x5B) sorts before `_`: the plain name goes before its conditional variant, as in Xcode's files.
    InsertCase(
      name: "name before its conditional variant", key: "CODE_SIGN_IDENTITY",
      after: "CLANG_WARN__DUPLICATE_METHOD_MATCH", before: "\"CODE_SIGN_IDENTITY[sdk=iphoneos*]\""),
    InsertCase(
      name: "conditional key", key: "CODE_SIGN_IDENTITY", sdk: "macosx*",
      after: "\"CODE_SIGN_IDENTITY[sdk=iphoneos*]\"", before: "COPY_PHASE_STRIP"),
    InsertCase(name: "end", key: "VALIDATE_PRODUCT", after: "SDKROOT", before: nil),
  ]

  @Test(arguments: insertCases)
  func insertsInXcodesSortedPosition(_ testCase: InsertCase) throws {
    let edit = Self.edit(Self.projectDebug, testCase.key, "YES", sdk: testCase.sdk)
    let text = try Self.settingsText(Self.projectDebug, after: [edit])
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let new = "\t\t\t\t\(PBXProjectText.quoted(edit.key)) = YES;"
    let index = try #require(lines.firstIndex(of: new), "no line \(new) in\n\(text)")
    if let after = testCase.after { #expect(lines[index - 1].hasPrefix("\t\t\t\t\(after) = ")) }
    if let before = testCase.before { #expect(lines[index + 1].hasPrefix("\t\t\t\t\(before) = ")) }
    if testCase.before == nil { #expect(lines[index + 1] == "\t\t\t}") }
  }

  @Test func replacesQuotedAndUnquotedValues() throws {
    let edits = [
      Self.edit(Self.projectDebug, "IPHONEOS_DEPLOYMENT_TARGET", "16.4"),
      Self.edit(Self.projectDebug, "CODE_SIGN_IDENTITY", "Apple Development", sdk: "iphoneos*"),
      Self.edit(Self.targetDebug, "PRODUCT_NAME", "Notes"),
      Self.edit(Self.targetDebug, "PRODUCT_BUNDLE_IDENTIFIER", "com.example.notes"),
      Self.edit(Self.projectDebug, "GCC_PREPROCESSOR_DEFINITIONS", "DEBUG=1 $(inherited)"),
    ]
    let bytes = try ProjectFileEditor(bytes: Self.fixture).applying(edits)
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.contains("\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 16.4;\n"))
    #expect(text.contains("\t\t\t\t\"CODE_SIGN_IDENTITY[sdk=iphoneos*]\" = \"Apple Development\";\n"))
    #expect(text.contains("\t\t\t\tPRODUCT_NAME = Notes;\n"))
    #expect(text.contains("\t\t\t\tPRODUCT_BUNDLE_IDENTIFIER = com.example.notes;\n"))
    #expect(
      text.contains("\t\t\t\tGCC_PREPROCESSOR_DEFINITIONS = \"DEBUG=1 $(inherited)\";\n\t\t\t\tIPHONEOS"))
    for edit in edits {
      #expect(try Self.setting(bytes, edit.configurationID, edit.key) == .string(edit.value))
    }
  }

  struct QuoteCase: Sendable, CustomTestStringConvertible {
    var value: String
    var written: String
    var testDescription: String { value }
  }

  static let quoteCases: [QuoteCase] = [
    QuoteCase(value: "YES", written: "YES"), QuoteCase(value: "17.0", written: "17.0"),
    QuoteCase(value: "Info.plist", written: "Info.plist"),
    QuoteCase(value: "App/Info.plist", written: "App/Info.plist"),
    QuoteCase(value: "$TARGET_NAME", written: "$TARGET_NAME"),
    QuoteCase(value: "com.example.app", written: "com.example.app"),
    QuoteCase(value: "", written: "\"\""),
    QuoteCase(value: "$(inherited) -ObjC", written: "\"$(inherited) -ObjC\""),
    QuoteCase(value: "$(TARGET_NAME)", written: "\"$(TARGET_NAME)\""),
    QuoteCase(value: "-ObjC", written: "\"-ObjC\""),
    QuoteCase(value: "com.example.my-app", written: "\"com.example.my-app\""),
    QuoteCase(value: "iPhone Developer", written: "\"iPhone Developer\""),
    QuoteCase(value: "a:b", written: "\"a:b\""),
    QuoteCase(value: "say \"hi\"", written: "\"say \\\"hi\\\"\""),
    QuoteCase(value: "back\\slash", written: "\"back\\\\slash\""),
    QuoteCase(value: "two\nlines\tand tab", written: "\"two\\nlines\\tand tab\""),
    QuoteCase(value: "http://x", written: "\"http://x\""), QuoteCase(value: "a//b", written: "\"a//b\""),
    QuoteCase(value: "___VAR___", written: "\"___VAR___\""), QuoteCase(value: "Café", written: "\"Café\""),
    QuoteCase(value: "NAME[sdk=iphoneos*]", written: "\"NAME[sdk=iphoneos*]\""),
  ]

  @Test(arguments: quoteCases)
  func quotesAsXcodeDoes(_ testCase: QuoteCase) throws {
    #expect(PBXProjectText.quoted(testCase.value) == testCase.written)
    // And the reader reads it back to the value.
    let edit = Self.edit(Self.targetDebug, "RULEKIT_TEST", testCase.value)
    let bytes = try ProjectFileEditor(bytes: Self.fixture).applying([edit])
    #expect(String(decoding: bytes, as: UTF8.self).contains("\tRULEKIT_TEST = \(testCase.written);\n"))
    #expect(try Self.setting(bytes, Self.targetDebug, "RULEKIT_TEST") == .string(testCase.value))
  }

  @Test func fillsAnEmptyBuildSettingsInXcodesLayout() throws {
    let text = try Self.settingsText(
      Self.projectRelease,
      after: [
        Self.edit(Self.projectRelease, "SWIFT_VERSION", "5.0"),
        Self.edit(Self.projectRelease, "OTHER_LDFLAGS", "$(inherited) -ObjC"),
      ])
    #expect(
      text == "{\n\t\t\t\tOTHER_LDFLAGS = \"$(inherited) -ObjC\";\n\t\t\t\tSWIFT_VERSION = 5.0;\n\t\t\t}")
  }

  @Test func createsAbsentBuildSettingsInXcodesLayout() throws {
    let bytes = try ProjectFileEditor(bytes: Self.fixture).applying([
      Self.edit(Self.targetRelease, "PRODUCT_NAME", "$(TARGET_NAME)")
    ])
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(
      text.contains(
        "\t\t\tbaseConfigurationReference = 1A0000000000000000000004 /* Info.plist */;\n"
          + "\t\t\tbuildSettings = {\n\t\t\t\tPRODUCT_NAME = \"$(TARGET_NAME)\";\n\t\t\t};\n\t\t\tname = Release;\n"
      ))
  }

  @Test func batchIsIdempotentAndKeepsEverythingElse() throws {
    let edits = [
      Self.edit(Self.projectDebug, "OTHER_LDFLAGS", "$(inherited) -ObjC"),
      Self.edit(Self.projectDebug, "ENABLE_BITCODE", "NO"),
      Self.edit(Self.projectDebug, "ENABLE_TESTABILITY", "YES"),
      Self.edit(Self.projectDebug, "SDKROOT", "iphoneos"),
      Self.edit(Self.projectRelease, "SDKROOT", "iphoneos"),
      Self.edit(Self.targetDebug, "CODE_SIGN_ENTITLEMENTS", "Notes/Notes.entitlements"),
      Self.edit(Self.targetRelease, "CODE_SIGN_ENTITLEMENTS", "Notes/Notes.entitlements"),
      Self.edit(Self.targetDebug, "INFOPLIST_FILE", "Notes/Info.plist"),
    ]
    let once = try ProjectFileEditor(bytes: Self.fixture).applying(edits)
    let twice = try ProjectFileEditor(bytes: once).applying(edits)
    #expect(twice == once)
    // Only added or changed lines differ: every original line but the one replaced is still there, in order.
    let original = String(decoding: Self.fixture, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)
    var remaining = String(decoding: once, as: UTF8.self).split(
      separator: "\n", omittingEmptySubsequences: false)[...]
    for line in original where line != "\t\t\t\tINFOPLIST_FILE = Info.plist;" {
      guard let found = remaining.firstIndex(of: line) else {
        Issue.record("line lost: \(line)")
        break
      }
      remaining = remaining[(found + 1)...]
    }
    for edit in edits {
      #expect(try Self.setting(once, edit.configurationID, edit.key) == .string(edit.value))
    }
    let diff = try ProjectFileEditor(bytes: Self.fixture).diff(edits)
    #expect(diff.contains("+\t\t\t\tOTHER_LDFLAGS = \"$(inherited) -ObjC\";\n"))
    #expect(
      diff.contains("-\t\t\t\tINFOPLIST_FILE = Info.plist;\n+\t\t\t\tINFOPLIST_FILE = Notes/Info.plist;\n"))
    #expect(diff.hasPrefix("--- a/project.pbxproj\n+++ b/project.pbxproj\n"))
  }

  @Test func laterEditOfTheSameKeyWins() throws {
    let bytes = try ProjectFileEditor(bytes: Self.fixture).applying([
      Self.edit(Self.projectDebug, "NEW_SETTING", "first"),
      Self.edit(Self.projectDebug, "NEW_SETTING", "second"),
    ])
    #expect(try Self.setting(bytes, Self.projectDebug, "NEW_SETTING") == "second")
  }

  @Test func refusesIdsThatAreNoBuildConfiguration() throws {
    let editor = try ProjectFileEditor(bytes: Self.fixture, path: "Notes.xcodeproj/project.pbxproj")
    #expect {
      _ = try editor.applying([Self.edit("1A0000000000000000000020", "X", "1")])
    } throws: { error in
      guard let error = error as? PropertyListError else { return false }
      return error.kind == .invalidEdit && error.message.contains("PBXNativeTarget")
        && error.position?.line == 40
    }
    #expect(throws: PropertyListError.self) {
      try editor.applying([Self.edit("FFFFFFFFFFFFFFFFFFFFFFFF", "X", "1")])
    }
  }

  @Test func inlineProjectWithSpacesAndNoSection() throws {
    let text =
      "{\n  objects = {\n    C1 = {\n      isa = XCBuildConfiguration;\n      buildSettings = {\n"
      + "        B = 1;\n      };\n      name = Debug;\n    };\n  };\n}\n"
    let bytes = try ProjectFileEditor(bytes: Array(text.utf8)).applying([
      BuildSettingEdit(configurationID: "C1", name: "A", value: "x y"),
      BuildSettingEdit(configurationID: "C1", name: "C", value: "z"),
    ])
    #expect(
      String(decoding: bytes, as: UTF8.self)
        == "{\n  objects = {\n    C1 = {\n      isa = XCBuildConfiguration;\n      buildSettings = {\n"
        + "        A = \"x y\";\n        B = 1;\n        C = z;\n      };\n      name = Debug;\n    };\n  };\n}\n"
    )
  }

  /// Found while tightening the `xcode` fuzz target (which had counted the failure as a refusal): a project
  /// holding a build-setting key twice, as a merge can leave it, reads with the last entry kept (as Xcode
  /// reads it), but every edit of it failed, `rulekit configure --project` included, because the editor
  /// re-read its result refusing duplicate keys. The input is a seed of `scripts/fuzz xcode`.
  @Test("a project holding a setting twice is edited as it is read, the last entry kept (fuzz target)")
  func duplicateKeyIsEditedAsRead() throws {
    let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Fixtures/fuzz/duplicate-setting.pbxproj").path
    let project = try XcodeProject(path: path)
    let edits = [
      Self.edit(Self.projectDebug, "SDKROOT", "iphonesimulator"),
      Self.edit(Self.projectDebug, "NEW_SETTING", "1"),
    ]
    let bytes = try ProjectFileEditor(document: project.document).applying(edits)
    let reread = try XcodeProject(bytes: bytes, pbxprojPath: path)
    let settings = try #require(reread.objects[Self.projectDebug]?.node["buildSettings"])
    #expect(settings["SDKROOT"]?.string == "iphonesimulator")
    #expect(settings["NEW_SETTING"]?.string == "1")
    #expect(
      settings.entries.filter { $0.key == "SDKROOT" }.map(\.value.string) == ["macosx", "iphonesimulator"])
    #expect(try ProjectFileEditor(document: reread.document).applying(edits) == bytes)
  }
}
