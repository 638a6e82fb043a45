import Foundation
import Testing
import XcodeProjects

/// ``XcodeProject/resourceMembership(ofFile:in:)`` on PrivyGallery's Xcode 16 synchronized folders.
@Suite struct ResourceMembershipTests {
  static let project = "Tests/Fixtures/xcode-projects/privygallery/SecurityFolder.xcodeproj"

  /// The same answer whether the project is opened by a relative path (as the CLI is given one) or an
  /// absolute one: the folder's path comes with the source root joined already, and joining it again
  /// doubled a relative root, so no file was ever found in a synchronized folder.
  @Test("relative and absolute project paths: a file in the app's synchronized folder is its resource")
  func relativeAndAbsolutePaths() throws {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
      .deletingLastPathComponent()
    for path in [Self.project, root.appendingPathComponent(Self.project).path] {
      let project = try XcodeProject(path: path)
      let app = try #require(project.target(named: "SecurityFolder"))
      let share = try #require(project.target(named: "Share"))
      guard
        case .synchronizedFolder(let folder, let member, _)? = project.resourceMembership(
          ofFile: "SecurityFolder/Info.plist", in: app)
      else {
        Issue.record("SecurityFolder/Info.plist is not a resource of the app (\(path))")
        continue
      }
      #expect(folder.hasSuffix("privygallery/SecurityFolder"))
      #expect(member == "Info.plist")
      // The share extension builds its own folder, whose exception set takes its Info.plist out.
      #expect(project.resourceMembership(ofFile: "SecurityFolder/Info.plist", in: share) == nil)
      #expect(project.resourceMembership(ofFile: "Share/Info.plist", in: share) == nil)
    }
  }
}
