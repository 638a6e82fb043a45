import Foundation
import Testing

@testable import XcodeProjects

/// swift-build (SWBCore/MacroConfigFileLoader.swift, `foundPreprocessorInclusion`) skips an `#include` of a
/// file it is in the middle of reading, with a warning, and reads on; a file included twice without a
/// cycle is read twice.
@Suite("#include cycles as Xcode treats them: the line skipped with a warning, the rest read")
struct XCConfigIncludeCycleTests {
  static func read(_ files: [String: String], _ name: String) throws -> (XCConfigFile, URL) {
    let root = try Fixtures.folder(files)
    return (try XCConfigFile.read(path: root.appendingPathComponent(name).path), root)
  }

  @Test("a file including itself: the line is skipped, the lines around it read")
  func selfInclude() throws {
    let (file, root) = try Self.read(
      ["self.xcconfig": "A = 1\n  #include \"self.xcconfig\"\nB = 2\n"], "self.xcconfig")
    #expect(file.assignments.map(\.name) == ["A", "B"])
    #expect(file.includedFiles.isEmpty)
    let cycle = try #require(file.includeCycles.first)
    #expect(file.includeCycles.count == 1)
    let path = root.appendingPathComponent("self.xcconfig").path
    #expect(cycle.location == BuildSettingLocation(file: path, line: 2, column: 3))
    #expect(cycle.chain == [path, path])
    #expect(cycle.links.isEmpty)
    #expect(!cycle.isOptional)
  }

  @Test("two files including each other: each is read once, the other's lines after the skipped one too")
  func twoFiles() throws {
    let (file, root) = try Self.read(
      [
        "a.xcconfig": "#include \"b.xcconfig\"\nA = a\n",
        "b.xcconfig": "B = $(A)b\n#include \"./a.xcconfig\" // back\nC = c\n",
      ], "a.xcconfig")
    #expect(file.assignments.map(\.name) == ["B", "C", "A"])
    let a = root.appendingPathComponent("a.xcconfig").path
    let b = root.appendingPathComponent("b.xcconfig").path
    #expect(file.includedFiles == [b])
    let cycle = try #require(file.includeCycles.first)
    #expect(file.includeCycles.count == 1)
    #expect(cycle.location == BuildSettingLocation(file: b, line: 2, column: 1))
    #expect(cycle.written == "./a.xcconfig")
    #expect(cycle.chain == [a, b, a])
    #expect(cycle.links == [BuildSettingLocation(file: a, line: 1, column: 1)])
    #expect(
      cycle.problem
        == "it would read a.xcconfig again while that file is being read (a.xcconfig → b.xcconfig → "
        + "a.xcconfig); Xcode warns, skips this line and reads the rest of the file")
    #expect(
      cycle.hint
        == "remove the #include \"./a.xcconfig\" line: Xcode never follows it, so no resolved setting changes"
    )
  }

  @Test("a cycle through files further in: the chain starts at the file read again")
  func deeperCycle() throws {
    let (file, root) = try Self.read(
      [
        "top.xcconfig": "#include \"Shared/a.xcconfig\"\n",
        "Shared/a.xcconfig": "#include \"b\"\n", "Shared/b.xcconfig": "#include \"a.xcconfig\"\nB = 1\n",
      ], "top.xcconfig")
    #expect(file.assignments.map(\.name) == ["B"])
    let cycle = try #require(file.includeCycles.first)
    #expect(
      cycle.chain.map { URL(fileURLWithPath: $0).lastPathComponent } == [
        "a.xcconfig", "b.xcconfig", "a.xcconfig",
      ])
    #expect(cycle.links.map(\.line) == [1])
    #expect(cycle.links.first?.file == root.appendingPathComponent("Shared/a.xcconfig").path)
  }

  @Test("#include? of a file being read is skipped and listed the same way; without the extension too")
  func optionalCycle() throws {
    let (file, _) = try Self.read(["a.xcconfig": "#include? \"a\"\nA = 1\n"], "a.xcconfig")
    #expect(file.assignments.map(\.name) == ["A"])
    let cycle = try #require(file.includeCycles.first)
    #expect(cycle.isOptional)
    #expect(cycle.directive == "#include? \"a\"")
  }

  @Test("a diamond, a file included twice without a cycle, is read twice, as swift-build reads it")
  func diamond() throws {
    let (file, _) = try Self.read(
      [
        "top.xcconfig": "#include \"left.xcconfig\"\n#include \"right.xcconfig\"\n",
        "left.xcconfig": "#include \"shared.xcconfig\"\nX = $(inherited) left\n",
        "right.xcconfig": "#include \"shared.xcconfig\"\nX = $(inherited) right\n",
        "shared.xcconfig": "S = $(inherited) s\n",
      ], "top.xcconfig")
    #expect(file.includeCycles.isEmpty)
    #expect(
      file.includedFiles.map { URL(fileURLWithPath: $0).lastPathComponent } == [
        "left.xcconfig", "shared.xcconfig", "right.xcconfig", "shared.xcconfig",
      ])
    #expect(file.assignments.map(\.name) == ["S", "X", "S", "X"])
  }

  @Test("a shared file that includes the top one: skipped each time it is met, with each chain")
  func diamondWithCycle() throws {
    let (file, _) = try Self.read(
      [
        "top.xcconfig": "#include \"left.xcconfig\"\n#include \"right.xcconfig\"\n",
        "left.xcconfig": "#include \"shared.xcconfig\"\n", "right.xcconfig": "#include \"shared.xcconfig\"\n",
        "shared.xcconfig": "#include \"top.xcconfig\"\nS = 1\n",
      ], "top.xcconfig")
    #expect(file.assignments.map(\.name) == ["S", "S"])
    #expect(
      file.includeCycles.map(\.chainDescription) == [
        "top.xcconfig → left.xcconfig → shared.xcconfig → top.xcconfig",
        "top.xcconfig → right.xcconfig → shared.xcconfig → top.xcconfig",
      ])
  }

  @Test("two names for one file (a symbolic link) are one file, as swift-build resolves links")
  func symbolicLink() throws {
    let root = try Fixtures.folder(["a.xcconfig": "#include \"link.xcconfig\"\nA = 1\n"])
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("link.xcconfig").path, withDestinationPath: "a.xcconfig")
    let file = try XCConfigFile.read(path: root.appendingPathComponent("a.xcconfig").path)
    #expect(file.assignments.map(\.name) == ["A"])
    #expect(file.includeCycles.first?.chainDescription == "a.xcconfig → link.xcconfig")
  }

  @Test("files each including the next twice: refused past the limit on files read, never a hang")
  func includeLimit() throws {
    var files: [String: String] = ["f11.xcconfig": "A = 1\n"]
    for index in 0..<11 {
      files["f\(index).xcconfig"] = String(repeating: "#include \"f\(index + 1).xcconfig\"\n", count: 2)
    }
    let error = try #require(throws: XcodeProjectError.self) { try Self.read(files, "f0.xcconfig") }
    #expect(error.kind == .limitExceeded)
    #expect(error.message.contains("\(XCConfigParser.maximumIncludedFiles)"))
  }

  @Test("resolved in a project: the settings Xcode resolves, and a warning at the #include line")
  func resolved() throws {
    let root = try Fixtures.folder([
      "App.xcodeproj/project.pbxproj": Self.project,
      "Config/App.xcconfig": "#include \"Shared.xcconfig\"\nPRODUCT_BUNDLE_IDENTIFIER = $(BASE).app\n",
      "Config/Shared.xcconfig": "BASE = com.example\n#include \"App.xcconfig\"\nAFTER = $(BASE)-after\n",
    ])
    let project = try XcodeProject(path: root.appendingPathComponent("App.xcodeproj").path)
    let target = try #require(project.target(named: "App"))
    let settings = try project.buildSettings(target: target)
    #expect(settings["PRODUCT_BUNDLE_IDENTIFIER"] == "com.example.app")
    #expect(settings["AFTER"] == "com.example-after")
    let warnings = settings.diagnostics.filter { $0.kind == .includeCycle }
    let warning = try #require(warnings.first)
    #expect(warnings.count == 1)
    #expect(warning.severity == .warning)
    #expect(warning.affectedSettings.isEmpty)
    #expect(warning.location?.file.hasSuffix("Config/Shared.xcconfig") == true)
    #expect(warning.location?.line == 2 && warning.location?.column == 1)
    #expect(warning.relatedLocations.map(\.line) == [1])
    #expect(
      warning.message
        == "#include \"App.xcconfig\" in the target base configuration is skipped: it would read "
        + "App.xcconfig again while that file is being read (App.xcconfig → Shared.xcconfig → App.xcconfig); "
        + "Xcode warns, skips this line and reads the rest of the file")
    #expect(warning.hint?.hasPrefix("remove the #include \"App.xcconfig\" line") == true)
    #expect(warning.description.hasSuffix("Config/Shared.xcconfig:2:1: warning: " + warning.message))
  }

  /// An app target whose Debug configuration is based on Config/App.xcconfig.
  static let project = Fixtures.projectBasedOnXCConfig("Config/App.xcconfig")
}
