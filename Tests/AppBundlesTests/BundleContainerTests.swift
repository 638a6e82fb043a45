import AppBundles
import CLITestSupport
import Foundation
import Testing

@Suite("Bundle containers")
struct BundleContainerTests {
  static func scratch() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-bundles-\(UUID())")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
  }

  static let layout: [TestZipWriter.Entry] = [
    .init("Payload/Notes.app/Info.plist", text: "app"),
    .init("Payload/Notes.app/PlugIns/Share.appex/Info.plist", text: "share"),
    .init("Payload/Notes.app/PlugIns/Action.appex/Info.plist", text: "action"),
    .init("Payload/Notes.app/PlugIns/readme.txt", text: "not a bundle"),
  ]

  @Test("an .ipa, an .xcarchive and an .app list the same app and extensions")
  func threeForms() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let ipa = folder.appendingPathComponent("Notes.ipa")
    try Data(TestZipWriter(Self.layout).bytes()).write(to: ipa)
    let archive = folder.appendingPathComponent("Notes.xcarchive")
    for entry in Self.layout {
      let url = archive.appendingPathComponent(
        entry.name.replacingOccurrences(of: "Payload/", with: "Products/Applications/"))
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(entry.data).write(to: url)
    }
    // The archive's own Info.plist, which is not the app's.
    try Data("archive".utf8).write(to: archive.appendingPathComponent("Info.plist"))
    let app = archive.appendingPathComponent("Products/Applications/Notes.app")
    for path in [ipa.path, archive.path, app.path] {
      let container = try BundleContainer(path: path)
      let apps = try container.applications()
      #expect(apps.map(\.name) == ["Notes.app"])
      #expect(apps.first?.extensions.map(\.name) == ["Action.appex", "Share.appex"])
      let share = try #require(apps.first?.extensions.last)
      #expect(try container.read(share.infoPlistPath, limit: 100) == Array("share".utf8))
    }
  }

  @Test("a symbolic link inside an .app folder is never followed")
  func directoryLink() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let app = folder.appendingPathComponent("Notes.app")
    try FileManager.default.createDirectory(at: app, withIntermediateDirectories: true)
    try FileManager.default.createSymbolicLink(
      atPath: app.appendingPathComponent("Info.plist").path, withDestinationPath: "/etc/passwd")
    let container = try BundleContainer(path: app.path)
    let error = try #require(throws: AppBundleError.self) { try container.read("Info.plist", limit: 1 << 20) }
    #expect(error.kind == .symbolicLink)
  }

  @Test("an archive inside the archive is not opened")
  func nested() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let inner = TestZipWriter(Self.layout).bytes()
    let ipa = folder.appendingPathComponent("Outer.ipa")
    try Data(TestZipWriter([.init("Payload/Inner.ipa", inner)]).bytes()).write(to: ipa)
    let error = try #require(throws: AppBundleError.self) {
      try BundleContainer(path: ipa.path).applications()
    }
    #expect(error.kind == .nestedArchive)
    #expect(error.message.contains("does not open nested archives"))
  }

  @Test("entitlements come out of a code signature and a provisioning profile")
  func signingPayloads() throws {
    let entitlements: [String: Any] = ["keychain-access-groups": ["ABCDE12345.com.example.notes"]]
    let fromExecutable = try #require(
      SigningPayloads.codeSignatureEntitlements(SyntheticApp.executable(entitlements: entitlements)))
    let decoded = try PropertyListSerialization.propertyList(from: Data(fromExecutable), format: nil)
    #expect(
      (decoded as? [String: Any])?["keychain-access-groups"] as? [String] == ["ABCDE12345.com.example.notes"])
    let profile = try #require(
      SigningPayloads.provisioningProfilePayload(SyntheticApp.provisioningProfile(entitlements: entitlements))
    )
    let payload =
      try PropertyListSerialization.propertyList(from: Data(profile), format: nil) as? [String: Any]
    #expect(payload?["Entitlements"] != nil)
    // Truncated or foreign bytes give nil, never a trap.
    let executable = SyntheticApp.executable(entitlements: entitlements)
    for length in stride(from: 0, to: executable.count, by: 7) {
      _ = SigningPayloads.codeSignatureEntitlements(Array(executable.prefix(length)))
    }
    #expect(SigningPayloads.codeSignatureEntitlements(Array("#!/bin/sh\n".utf8)) == nil)
  }
}
