import Foundation
import Testing
import XcodeProjects

@Suite("xcconfig files")
struct XCConfigTests {
  @Test("assignments, conditions, comments, semicolons, continuations, positions")
  func assignments() throws {
    let text = """
      // comment
      A = 1
        B[sdk=iphoneos*][arch=arm64] = $(inherited) -ObjC ; // trailing comment
      URL = https://example.com/path
      SAFE_URL = https:/$()/example.com
      LIST = one \\
        two
      EMPTY =
      """
    let file = try XCConfigFile.parse(bytes: Array(text.utf8), path: "Config/A.xcconfig")
    #expect(file.problems.isEmpty)
    let byName = Dictionary(file.assignments.map { ($0.name, $0) }, uniquingKeysWith: { $1 })
    #expect(byName["A"]?.value == "1")
    #expect(byName["A"]?.location.description == "Config/A.xcconfig:2:1")
    #expect(byName["B"]?.value == "$(inherited) -ObjC")
    #expect(byName["B"]?.location.description == "Config/A.xcconfig:3:3")
    #expect(
      byName["B"]?.conditions == [
        BuildSettingCondition(parameter: "sdk", pattern: "iphoneos*"),
        BuildSettingCondition(parameter: "arch", pattern: "arm64"),
      ])
    // `//` starts a comment even inside a URL, as in Xcode (swift-build's parseNonListAssignmentRHS).
    #expect(byName["URL"]?.value == "https:")
    #expect(byName["SAFE_URL"]?.value == "https:/$()/example.com")
    #expect(byName["LIST"]?.value == "one two")
    #expect(byName["EMPTY"]?.value == "")
  }

  @Test("lines Xcode rejects are reported with their position and skipped")
  func problems() throws {
    let file = try XCConfigFile.parse(
      bytes: Array("A = 1\n9X = 2\nB 3\n#import \"x\"\nC = 4\n".utf8), path: "a.xcconfig")
    #expect(file.assignments.map(\.name) == ["A", "C"])
    #expect(file.problems.map { $0.location?.line } == [2, 3, 4])
  }

  @Test("#include is relative to the including file; #include? of a missing file is skipped")
  func includes() throws {
    let root = try Fixtures.folder([
      "Config/Debug.xcconfig":
        "#include \"Shared/Base.xcconfig\"\n#include? \"Missing.xcconfig\"\nX = $(inherited) debug\n",
      "Config/Shared/Base.xcconfig": "X = base\n",
    ])
    let file = try XCConfigFile.read(path: root.appendingPathComponent("Config/Debug.xcconfig").path)
    #expect(file.assignments.map(\.value) == ["base", "$(inherited) debug"])
    #expect(file.assignments[0].location.file.hasSuffix("Config/Shared/Base.xcconfig"))
    #expect(file.includedFiles.count == 1)
  }

  @Test("a missing #include is an error at its line, or recorded on request")
  func missingInclude() throws {
    let root = try Fixtures.folder(["a.xcconfig": "A = 1\n#include \"nope.xcconfig\"\n"])
    let path = root.appendingPathComponent("a.xcconfig").path
    #expect {
      try XCConfigFile.read(path: path)
    } throws: { error in
      guard let error = error as? XcodeProjectError else { return false }
      return error.kind == .includeNotFound && error.location?.line == 2 && error.location?.file == path
    }
    let recorded = try XCConfigFile.read(path: path, missingIncludes: .record)
    #expect(recorded.missingIncludes.map(\.location.line) == [2])
  }

  // Include cycles: XCConfigIncludeCycleTests.
}
