import Foundation
import PropertyLists
import Testing
import XcodeProjects

@testable import IntuneConfigurator

@Suite("configure --project leaves a Mac Catalyst build's own Info.plist and entitlements file, and says so")
struct ProjectCatalystFileTests {
  static func monal() throws -> String {
    try #require(CorpusProject.all.first { $0.name == "monal" }).copy()
  }

  static func bytes(_ path: String) throws -> Data { try Data(contentsOf: URL(fileURLWithPath: path)) }

  @Test(
    "CODE_SIGN_ENTITLEMENTS[sdk=macosx*]: a note at the setting, the file unchanged by --fix-entitlements")
  func entitlements() throws {
    // Monal signs its Mac Catalyst build of the app and of the notification service extension with
    // *.macos.entitlements files (Tests/Fixtures/xcode-projects/monal).
    let path = try Self.monal()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent().path
    let macFiles = ["Monal.macos.entitlements", "NotificationService/NotificationService.macos.entitlements"]
    let before = try macFiles.map { try Self.bytes("\(folder)/\($0)") }
    let iOSBefore = try Self.bytes("\(folder)/Monal.ios.entitlements")
    var options = IntuneConfiguratorOptions()
    options.fixEntitlements = true
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: "Monal", options: options)
    let notes = plan.findings.filter { $0.id == ProjectPlanner.catalystFileNote }
    #expect(notes.allSatisfy { $0.severity == .note })
    let app = try #require(notes.first { $0.message.contains(" Monal.macos.entitlements ") })
    #expect(
      app.message
        == "Monal's Mac Catalyst build uses its own entitlements file, Monal.macos.entitlements "
        + "(CODE_SIGN_ENTITLEMENTS[sdk=macosx*], in Debug, Adhoc, AppStore, Beta); it is left unchanged: the "
        + "Intune App SDK for iOS does not support Mac Catalyst, so the Mac build does not link it and reads "
        + "no Intune settings")
    #expect(app.location?.line == 2476)
    #expect(
      notes.contains {
        $0.message.hasPrefix(
          "NotificationService's Mac Catalyst build uses its own entitlements file, NotificationService/NotificationService.macos.entitlements ("
        )
      })
    // Alpha and AppStore-Quicksy sign with other Mac files: one note each.
    #expect(notes.count == 6, "\(notes.map(\.message))")
    #expect(!plan.targets.contains { $0.entitlementsPath?.hasSuffix(".macos.entitlements") == true })
    try plan.write()
    #expect(try macFiles.map { try Self.bytes("\(folder)/\($0)") } == before)
    #expect(try Self.bytes("\(folder)/Monal.ios.entitlements") != iOSBefore)

    // The lint of the project says the same, at the same setting.
    let report = try ProjectLinter().lint(try XcodeProject(path: try Self.monal()))
    let linted = report.findings.filter { $0.finding.check == ProjectPlanner.catalystFileNote }
    #expect(linted.count == 6)
    #expect(linted.allSatisfy { $0.finding.severity == .note && $0.finding.id == "RK102" })
  }

  @Test("INFOPLIST_FILE[sdk=macosx*]: a note at the setting, the Mac Info.plist unchanged")
  func infoPlist() throws {
    // Monal's Mac build shares the iOS Info.plist; a copy gives the app's Mac build one of its own
    // (test-only edit: no permissively licensed Catalyst app with one was found).
    let path = try Self.monal()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("Monal-Info.plist"),
      to: folder.appendingPathComponent("Monal-macOS-Info.plist"))
    let file = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
    let text = try String(contentsOf: file, encoding: .utf8).replacing(
      "INFOPLIST_FILE = \"Monal-Info.plist\";",
      with:
        "INFOPLIST_FILE = \"Monal-Info.plist\";\n\t\t\t\t\"INFOPLIST_FILE[sdk=macosx*]\" = \"Monal-macOS-Info.plist\";"
    )
    try text.write(to: file, atomically: true, encoding: .utf8)
    let macInfo = folder.appendingPathComponent("Monal-macOS-Info.plist").path
    let before = try Self.bytes(macInfo)

    let plan = try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: "Monal")
    let notes = plan.findings.filter {
      $0.id == ProjectPlanner.catalystFileNote && $0.message.contains("Info.plist")
    }
    #expect(notes.count == 1, "\(notes.map(\.message))")
    #expect(
      notes.first?.message.hasPrefix(
        "Monal's Mac Catalyst build uses its own Info.plist, Monal-macOS-Info.plist (INFOPLIST_FILE[sdk=macosx*], in "
      )
        == true)
    #expect(notes.first?.location?.line != nil)
    #expect(!plan.targets.contains { $0.infoPlistPath == macInfo })
    try plan.write()
    #expect(try Self.bytes(macInfo) == before)
    #expect(try Self.bytes(folder.appendingPathComponent("Monal-Info.plist").path) != before)
  }

  @Test(
    "--fix-entitlements keeps a Mac build on its own file when the [sdk=macosx*] value is set below the target"
  )
  func fixEntitlementsKeepsMacFile() throws {
    // A copy of Limit made a Mac Catalyst app (test-only edit): the share extension has no entitlements for
    // iOS, and its Mac build signs with ShareExtensionMac.entitlements, set in the project's base xcconfig.
    let path = try #require(CorpusProject.all.first { $0.name == "limit" }).copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let file = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
    let text = try String(contentsOf: file, encoding: .utf8)
      .replacing("SUPPORTS_MACCATALYST = NO;", with: "SUPPORTS_MACCATALYST = YES;")
      .replacing(
        "\t\t\t\tCODE_SIGN_ENTITLEMENTS = ShareExtension/ShareExtensionDebug.entitlements;\n", with: ""
      )
      .replacing("\t\t\t\tCODE_SIGN_ENTITLEMENTS = ShareExtension/ShareExtension.entitlements;\n", with: "")
    try text.write(to: file, atomically: true, encoding: .utf8)
    try Data("CODE_SIGN_ENTITLEMENTS[sdk=macosx*] = ShareExtension/ShareExtensionMac.entitlements\n".utf8)
      .write(to: folder.appendingPathComponent("Local.xcconfig"))
    let macFile = folder.appendingPathComponent("ShareExtension/ShareExtensionMac.entitlements")
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("ShareExtension/ShareExtension.entitlements"), to: macFile)
    let before = try Self.bytes(macFile.path)

    var options = IntuneConfiguratorOptions()
    options.fixEntitlements = true
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: "Limit", options: options)
    #expect(
      plan.findings.contains {
        $0.id == ProjectPlanner.catalystFileNote
          && $0.message.hasPrefix(
            "ShareExtension's Mac Catalyst build uses its own entitlements file, ShareExtension/ShareExtensionMac"
          )
      }, "\(plan.findings.map(\.message))")
    let kept = plan.buildSettings.filter {
      $0.targetName == "ShareExtension" && $0.edit.name == "CODE_SIGN_ENTITLEMENTS"
    }
    #expect(
      Set(kept.map(\.edit.key)) == ["CODE_SIGN_ENTITLEMENTS", "CODE_SIGN_ENTITLEMENTS[sdk=macosx*]"],
      "\(kept.map(\.edit.description))")
    try plan.write()

    let project = try XcodeProject(path: path)
    let share = try #require(project.target(named: "ShareExtension"))
    for configuration in ["Debug", "Release"] {
      let mac = try project.buildSettings(target: share, configuration: configuration, sdk: "macosx")
      #expect(
        mac.path(for: "CODE_SIGN_ENTITLEMENTS")?.hasSuffix("ShareExtension/ShareExtensionMac.entitlements")
          == true)
      let iOS = try project.buildSettings(target: share, configuration: configuration)
      #expect(
        iOS.path(for: "CODE_SIGN_ENTITLEMENTS")?.hasSuffix("ShareExtension/ShareExtension.entitlements")
          == true)
    }
    #expect(try Self.bytes(macFile.path) == before)
  }

  @Test("an app without a Mac Catalyst build gets no such note")
  func noCatalyst() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "limit" })
    var options = IntuneConfiguratorOptions()
    options.fixEntitlements = true
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: try corpus.copy()), appTarget: "Limit", options: options)
    #expect(!plan.findings.contains { $0.id == ProjectPlanner.catalystFileNote })
  }
}
