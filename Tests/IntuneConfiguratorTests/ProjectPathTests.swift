import Foundation
import Testing

@testable import IntuneConfigurator

@Suite("Project paths: absolute paths and project discovery without URL parsing")
struct ProjectPathTests {
  @Test(
    "absolute(_:) spells a path as URL(fileURLWithPath:).standardizedFileURL.path does",
    arguments: ["/a/b/c", "/a/./b//c/", "/", "relative/file.plist", "./relative", "", "/a/b/../c", "x/../y"])
  func absoluteMatchesFoundation(path: String) {
    #expect(ProjectPlanner.absolute(path) == URL(fileURLWithPath: path).standardizedFileURL.path)
  }

  @Test("parentFolder(_:) is the folder above, and / above /")
  func parentFolder() {
    #expect(ProjectPlanner.parentFolder("/a/b") == "/a")
    #expect(ProjectPlanner.parentFolder("/a") == "/")
    #expect(ProjectPlanner.parentFolder("/") == "/")
  }

  @Test("locateProject finds the nearest folder's only project and stops at a repository's root")
  func locateProject() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent("ProjectPathTests-\(UUID())")
    defer { try? FileManager.default.removeItem(at: root) }
    let app = root.appendingPathComponent("repo/Sources/App")
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    let project = root.appendingPathComponent("repo/Notes.xcodeproj")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    let infoPlist = app.appendingPathComponent("Info.plist").path
    #expect(ProjectConfigurator.locateProject(forFileAt: infoPlist) == project.standardizedFileURL.path)

    // A repository's root ends the search before the project above it.
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("repo/Sources/.git"), withIntermediateDirectories: true)
    #expect(ProjectConfigurator.locateProject(forFileAt: infoPlist) == nil)
  }
}
