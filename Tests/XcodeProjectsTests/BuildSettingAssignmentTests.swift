import Testing
import XcodeProjects

@Suite("Build-setting locations")
struct BuildSettingLocationTests {
  @Test(arguments: [
    (BuildSettingLocation(file: "A.xcconfig", line: 3, column: 5), "A.xcconfig:3:5"),
    (BuildSettingLocation(file: "A.xcconfig", line: 3), "A.xcconfig:3:1"),
    (BuildSettingLocation(file: "A.xcconfig"), "A.xcconfig"),
  ])
  func describesAsCompilerStyle(location: BuildSettingLocation, expected: String) {
    #expect(location.description == expected)
  }
}
