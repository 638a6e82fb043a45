import Foundation
import PropertyLists
import Testing

@testable import IntuneConfigurator

@Suite("ContainingAppLocator: the app Info.plist beside an extension's")
struct ContainingAppLocatorTests {
  static let appPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>CFBundleIdentifier</key>
    \t<string>com.example.notes</string>
    </dict>
    </plist>
    """

  static let extensionPlist = """
    <?xml version="1.0" encoding="UTF-8"?>
    <plist version="1.0">
    <dict>
    \t<key>CFBundleIdentifier</key>
    \t<string>com.example.notes.share</string>
    \t<key>NSExtension</key>
    \t<dict/>
    </dict>
    </plist>
    """

  /// A project folder with `Share/Info.plist` (the extension) and `Notes/Info.plist` (the app); returns
  /// the project folder and the extension's Info.plist.
  static func project() throws -> (root: URL, extensionPlist: String) {
    let root = FileManager.default.temporaryDirectory
      .appendingPathComponent("rulekit-locator-\(UUID().uuidString)")
    for folder in ["Share", "Notes"] {
      try FileManager.default.createDirectory(
        at: root.appendingPathComponent(folder), withIntermediateDirectories: true)
    }
    let extensionPath = root.appendingPathComponent("Share/Info.plist").path
    try Data(extensionPlist.utf8).write(to: URL(fileURLWithPath: extensionPath))
    try Data(appPlist.utf8).write(to: root.appendingPathComponent("Notes/Info.plist"))
    return (root, extensionPath)
  }

  @Test("the one app Info.plist in a sibling folder is found")
  func findsSibling() throws {
    let (root, extensionPath) = try Self.project()
    defer { try? FileManager.default.removeItem(at: root) }
    let located = try #require(ContainingAppLocator.locate(forExtensionAt: extensionPath))
    #expect(located.path.hasSuffix("Notes/Info.plist"))
  }

  @Test("a sibling Info.plist that is a FIFO is skipped unopened: configure does not block on it")
  func skipsFIFO() throws {
    let (root, extensionPath) = try Self.project()
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Pipe"), withIntermediateDirectories: false)
    #expect(mkfifo(root.appendingPathComponent("Pipe/Info.plist").path, 0o644) == 0)
    let path = try #require(Self.locateWithin(seconds: 10, extensionPath), "the locator blocked")
    #expect(path?.hasSuffix("Notes/Info.plist") == true)
  }

  @Test("a sibling Info.plist with no end (a link to /dev/zero) is refused unread, not read for ever")
  func skipsEndlessDevice() throws {
    let (root, extensionPath) = try Self.project()
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Zero"), withIntermediateDirectories: false)
    try FileManager.default.createSymbolicLink(
      atPath: root.appendingPathComponent("Zero/Info.plist").path, withDestinationPath: "/dev/zero")
    let path = try #require(Self.locateWithin(seconds: 10, extensionPath), "the locator kept reading")
    #expect(path?.hasSuffix("Notes/Info.plist") == true)
  }

  /// The located path (`.some(nil)` when none was found), or `nil` when the locator did not return within
  /// `seconds`: it runs on a thread of its own, so a locator blocked on a FIFO fails the test instead of
  /// hanging the suite (the blocked thread is left behind).
  static func locateWithin(seconds: Int, _ extensionPath: String) -> String?? {
    final class Box: @unchecked Sendable {
      let lock = NSLock()
      var value: String??
    }
    let box = Box()
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      let path = ContainingAppLocator.locate(forExtensionAt: extensionPath)?.path
      box.lock.withLock { box.value = .some(path) }
      done.signal()
    }
    guard done.wait(timeout: .now() + .seconds(seconds)) == .success else { return nil }
    return box.lock.withLock { box.value }
  }

  @Test("a sibling Info.plist over PropertyListLimits.maximumFileBytes is not read, and not a candidate")
  func skipsOversized() throws {
    let (root, extensionPath) = try Self.project()
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Huge"), withIntermediateDirectories: false)
    // A second app Info.plist, padded past the limit with a sparse tail: read, it would make two
    // candidates and the locator would give up.
    let huge = root.appendingPathComponent("Huge/Info.plist")
    try Data(Self.appPlist.replacingOccurrences(of: "notes", with: "huge").utf8).write(to: huge)
    let handle = try FileHandle(forWritingTo: huge)
    try handle.truncate(atOffset: UInt64(PropertyListLimits.maximumFileBytes + 1))
    try handle.close()
    let located = try #require(ContainingAppLocator.locate(forExtensionAt: extensionPath))
    #expect(located.path.hasSuffix("Notes/Info.plist"))
  }
}
