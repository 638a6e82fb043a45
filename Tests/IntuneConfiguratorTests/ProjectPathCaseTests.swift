import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// Anx Reader's share extension names `shareExtension/Info.plist` and
/// `shareExtension/shareExtension.entitlements`; the repository's folder is `ShareExtension`. Xcode runs on
/// macOS, whose volumes are case-insensitive by default, and builds with those files; RuleKit reads them
/// too, and says where the spelling would break a case-sensitive checkout.
@Suite("A build setting naming a file in another letter case: the file Xcode finds is read, with a warning")
struct ProjectPathCaseTests {
  static func project() throws -> XcodeProject {
    let corpus = try #require(CorpusProject.all.first { $0.name == "anx-reader" })
    return try XcodeProject(path: try corpus.copy())
  }

  /// Whether the temporary folder's volume tells `shareExtension` from `ShareExtension` (Linux, a
  /// case-sensitive APFS volume); on macOS's default volumes the spelt path exists and nothing is said.
  static func caseSensitive(_ project: XcodeProject) -> Bool {
    !FileManager.default.fileExists(atPath: project.sourceRoot + "/shareExtension/Info.plist")
  }

  @Test("the resolved path is the file on disk; the mismatch names both spellings")
  func resolvedPath() throws {
    let project = try Self.project()
    let target = try #require(project.target(named: "shareExtension"))
    let settings = try project.buildSettings(target: target, configuration: "Debug")
    #expect(settings["INFOPLIST_FILE"] == "shareExtension/Info.plist")
    let info = try #require(settings.path(for: "INFOPLIST_FILE"))
    #expect(FileManager.default.fileExists(atPath: info))
    #expect(info.hasSuffix("/Info.plist"))
    let mismatch = settings.pathCaseMismatch(for: "CODE_SIGN_ENTITLEMENTS")
    if Self.caseSensitive(project) {
      #expect(info == project.sourceRoot + "/ShareExtension/Info.plist")
      #expect(mismatch?.written == project.sourceRoot + "/shareExtension/shareExtension.entitlements")
      #expect(mismatch?.found == project.sourceRoot + "/ShareExtension/shareExtension.entitlements")
    } else {
      #expect(mismatch == nil)
    }
    // A path no spelling matches stays as written.
    let app = try #require(project.target(named: "Runner"))
    let appSettings = try project.buildSettings(target: app, configuration: "Debug")
    #expect(appSettings.path(for: "INFOPLIST_FILE") == project.sourceRoot + "/Runner/Info.plist")
    #expect(appSettings.pathCaseMismatch(for: "INFOPLIST_FILE") == nil)
  }

  @Test("lint --project checks the share extension's rule and Intune settings: no file-not-found")
  func lint() throws {
    let project = try Self.project()
    let report = try ProjectLinter().lint(project)
    let messages = report.findings.map(\.finding.message)
    #expect(!report.findings.contains { $0.finding.check == "file-not-found" }, "\(messages)")
    // The extension's Info.plist was read: its dictionary rule lists its types under a key iOS does not
    // read (…SupportsFileWithType), so it is left as it is with a warning; its app is named.
    let share = report.findings.filter { $0.target == "shareExtension" }
    #expect(share.contains { $0.finding.check == "dictionary-rule-unread-keys" }, "\(messages)")
    #expect(share.contains { $0.finding.check == "containing-app-bundle-id" }, "\(messages)")
    let mismatches = report.findings.filter { $0.finding.check == "path-case-mismatch" }
    guard Self.caseSensitive(project) else {
      #expect(mismatches.isEmpty)
      return
    }
    #expect(mismatches.count == 2, "\(mismatches.map(\.finding.message))")
    let info = try #require(mismatches.first { $0.finding.message.hasPrefix("INFOPLIST_FILE") })
    #expect(info.finding.severity == .warning)
    #expect(info.finding.id == ProjectLintCheck.projectFinding.rawValue)
    #expect(info.finding.file == project.pbxprojPath)
    #expect(info.finding.line == 968)
    #expect(
      info.finding.message
        == "INFOPLIST_FILE of shareExtension (Debug, Release, Profile) names shareExtension/Info.plist, "
        + "which exists only as ShareExtension/Info.plist: Xcode finds it on a case-insensitive volume "
        + "(macOS's default) and fails on a case-sensitive one; RuleKit reads ShareExtension/Info.plist")
    #expect(
      info.finding.fix
        == "spell INFOPLIST_FILE as the file is named (ShareExtension/Info.plist), or rename the file")
  }

  @Test("configure --project plans the extension's files where they are on disk")
  func configure() throws {
    let project = try Self.project()
    let plan = try ProjectConfigurator.plan(
      project: project, appTarget: "Runner", options: IntuneConfiguratorOptions(fixEntitlements: true))
    #expect(!plan.findings.contains { $0.severity == .error }, "\(plan.findings.map(\.message))")
    let share = try #require(plan.targets.first { $0.targetName == "shareExtension" })
    #expect(FileManager.default.fileExists(atPath: share.infoPlistPath))
    #expect(!share.createsInfoPlist)
    let entitlements = try #require(share.entitlementsPath)
    #expect(FileManager.default.fileExists(atPath: entitlements))
    #expect(!share.createsEntitlements)
    #expect(
      share.plan.changes.contains { $0.kind == .containingAppBundleID }, "\(share.plan.changes.map(\.kind))")
  }
}
