import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

@Suite("lint --project: a target whose Info.plist is missing is a finding, and the other targets are checked")
struct ProjectLintMissingInfoPlistTests {
  /// The corpus projects whose other apps' files were not vendored: the target whose Info.plist is
  /// missing, where its INFOPLIST_FILE is set, and an iOS target still checked.
  static let corpus: [(name: String, target: String, line: Int, checked: String)] = [
    ("home-assistant", "WatchApp", 5333, "Extensions-Share"),
    ("pocket-casts", "Pocket Casts Watch App", 12231, "podcasts"),
    ("vivadicta", "VivaDictaWatch Watch App", 1785, "VivaDicta"),
    ("wireguard", "WireGuardmacOSLoginItemHelper", 1595, "WireGuardiOS"),
  ]

  static func project(_ name: String) throws -> XcodeProject {
    let corpus = try #require(CorpusProject.all.first { $0.name == name })
    return try XcodeProject(path: try corpus.copy())
  }

  @Test(
    "without --target: an error finding at INFOPLIST_FILE, then every other target's findings",
    arguments: corpus)
  func corpusProject(_ entry: (name: String, target: String, line: Int, checked: String)) throws {
    let project = try Self.project(entry.name)
    let report = try ProjectLinter().lint(project)
    // Home Assistant and VivaDicta have more targets whose files were not vendored (watch widgets, a
    // launcher): each is a finding of its own, none stops the lint.
    let missing = report.findings.filter { $0.finding.check == "file-not-found" && $0.target == entry.target }
    #expect(missing.count == 1, "\(missing.map(\.finding.message))")
    let finding = try #require(missing.first)
    #expect(finding.finding.severity == .error)
    #expect(finding.finding.id == ProjectLintCheck.projectFinding.rawValue)
    #expect(finding.finding.file == project.pbxprojPath)
    #expect(finding.finding.line == entry.line)
    #expect(finding.finding.message.hasPrefix("INFOPLIST_FILE of \(entry.target) ("))
    // Set once per configuration in these projects: the other lines are named.
    #expect(finding.finding.message.contains(", which does not exist"))
    #expect(finding.finding.message.hasSuffix("; its Info.plist is not checked"))
    #expect(
      finding.finding.fix == "correct INFOPLIST_FILE in the target's build settings, or restore the file")
    #expect(report.hasProblems)
    // The other targets were checked: the iOS app or its extension has findings of its own.
    #expect(report.targets.contains { $0.name == entry.checked })
    #expect(report.findings.contains { $0.target == entry.checked }, "\(report.findings.map(\.target))")
  }

  /// Naming the target changes nothing: the same finding at the same setting, no hard error (trial 4's P3:
  /// the lint once stopped there, hiding a missing entitlements file `configure` reported beside it).
  @Test("--target naming the broken target: the same error finding at the setting", arguments: corpus)
  func namedTarget(_ entry: (name: String, target: String, line: Int, checked: String)) throws {
    let project = try Self.project(entry.name)
    let report = try ProjectLinter().lint(project, targets: [entry.target])
    let missing = report.findings.filter { $0.finding.check == "file-not-found" && $0.target == entry.target }
    let finding = try #require(
      missing.first { $0.finding.message.hasPrefix("INFOPLIST_FILE of \(entry.target) (") })
    #expect(finding.finding.severity == .error)
    #expect(finding.finding.line == entry.line)
  }

  @Test(
    "an extension's Info.plist removed from a copy: one finding, not the planner's too; the app is checked")
  func removedFile() throws {
    let path = try #require(CorpusProject.all.first { $0.name == "limit" }).copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try FileManager.default.removeItem(at: folder.appendingPathComponent("ShareExtension/Info.plist"))
    let project = try XcodeProject(path: path)
    for targets in [[], ["Limit"]] {
      let report = try ProjectLinter().lint(project, targets: targets)
      let missing = report.findings.filter { $0.finding.check == "file-not-found" }
      #expect(missing.count == 1, "\(missing.map(\.finding.message))")
      #expect(missing.first?.target == "ShareExtension")
      #expect(missing.first?.finding.line == 339)
      #expect(report.ruleFiles.isEmpty)
      #expect(report.findings.contains { $0.target == "Limit" && $0.finding.id == "RK100" })
    }
    // Naming the broken target: the same one finding, no hard error.
    let named = try ProjectLinter().lint(project, targets: ["ShareExtension"])
    #expect(named.findings.filter { $0.finding.check == "file-not-found" }.map(\.finding.line) == [339])
  }

  /// `configure --project` plans Limit's Debug and Release builds apart (its app's settings differ between
  /// them); the extension's missing Info.plist is named in both, once per line. It is one finding there too,
  /// at the first line and naming the second, as the lint reports it — not one per configuration group.
  @Test("configure: an Info.plist missing in two configuration groups is one finding, naming both lines")
  func removedFileConfigured() throws {
    let path = try #require(CorpusProject.all.first { $0.name == "limit" }).copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try FileManager.default.removeItem(at: folder.appendingPathComponent("ShareExtension/Info.plist"))
    let plan = try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: "Limit")
    #expect(plan.targets.map(\.configurations).contains { $0 == ["Debug"] }, "planned apart")
    let missing = plan.findings.filter { $0.id == "file-not-found" }
    #expect(missing.count == 1, "\(missing.map(\.message))")
    let finding = try #require(missing.first)
    #expect(finding.location?.line == 339)
    #expect(finding.message.hasPrefix("INFOPLIST_FILE of ShareExtension names "))
    #expect(finding.message.hasSuffix(", which does not exist (also set at line 367)"))
  }

  /// `INFOPLIST_FILE = Limit`, the target's folder (a crash hunt's mutation): configure stopped with "cannot
  /// read: it is a directory" (exit 74, no position) and lint reported the target unchecked at `Limit:1:1`.
  /// Both now give the setting's error at its line, naming the file in the folder.
  @Test("INFOPLIST_FILE naming a folder: an error at the setting, naming the file inside")
  func infoPlistNamingAFolder() throws {
    let path = try #require(CorpusProject.all.first { $0.name == "limit" }).copy()
    let pbxproj = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
    let text = try String(contentsOf: pbxproj, encoding: .utf8)
    try text.replacing("INFOPLIST_FILE = Limit/Info.plist;", with: "INFOPLIST_FILE = Limit;").write(
      to: pbxproj, atomically: true, encoding: .utf8)
    let project = try XcodeProject(path: path)
    let plan = try ProjectConfigurator.plan(project: project, appTarget: "Limit")
    let planned = plan.findings.filter { $0.id == "file-not-found" }
    #expect(planned.count == 1, "\(planned.map(\.message))")
    #expect(planned.first?.location?.line == 524)
    #expect(
      planned.first?.message.hasSuffix(", which is a folder, not a file (also set at line 563)") == true)
    #expect(
      planned.first?.fix
        == "set INFOPLIST_FILE = Limit/Info.plist: the setting names the folder that holds it")
    let linted = try ProjectLinter().lint(project).findings.filter { $0.target == "Limit" }
    let errors = linted.filter { $0.finding.check == "file-not-found" }
    #expect(errors.count == 1, "\(errors.map(\.finding.message))")
    #expect(errors.first?.finding.line == 524)
    #expect(!linted.contains { $0.finding.check == "target-not-checked" })
  }

  /// A Tuist project generated and committed without its `Derived/` folder: the Info.plist Tuist writes from
  /// Project.swift is missing, and restoring it by hand is not the fix.
  @Test("an Info.plist Tuist derives: the fix is tuist generate")
  func tuistDerivedInfoPlist() throws {
    let path = try #require(CorpusProject.all.first { $0.name == "limit" }).copy()
    let pbxproj = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
    let text = try String(contentsOf: pbxproj, encoding: .utf8)
    try text.replacing(
      "INFOPLIST_FILE = Limit/Info.plist;", with: "INFOPLIST_FILE = Derived/InfoPlists/Limit-Info.plist;"
    ).write(to: pbxproj, atomically: true, encoding: .utf8)
    let findings = try ProjectLinter().lint(try XcodeProject(path: path)).findings.filter {
      $0.finding.check == "file-not-found" && $0.target == "Limit"
    }
    #expect(findings.count == 1, "\(findings.map(\.finding.message))")
    #expect(findings.first?.finding.fix?.hasPrefix("run `tuist generate` (Tuist writes this file") == true)
  }

  /// A file of the app that cannot be read — a key twice in its entitlements (JGeek00/linkdy's Runner
  /// entitlements, seen in the sweep of real projects) — is an error finding at the file's line, and the
  /// extension's rule is still checked; naming the app or its extension with --target keeps the hard error.
  @Test("an app file that cannot be read: a finding, and the other checks still run")
  func unreadableAppFile() throws {
    let path = try #require(CorpusProject.all.first { $0.name == "limit" }).copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    let entitlements = folder.appendingPathComponent("Limit/Limit.entitlements")
    let text = try String(contentsOf: entitlements, encoding: .utf8)
    try text.replacing(
      "</dict>", with: "\t<key>com.apple.security.application-groups</key>\n\t<array/>\n</dict>"
    ).write(to: entitlements, atomically: true, encoding: .utf8)
    let project = try XcodeProject(path: path)
    let report = try ProjectLinter().lint(project)
    let unchecked = report.findings.filter { $0.finding.check == "target-not-checked" }
    #expect(unchecked.map(\.target) == ["Limit"], "\(report.findings.map(\.finding.message))")
    let finding = try #require(unchecked.first).finding
    #expect(finding.severity == .error)
    #expect(finding.message.hasPrefix("Limit is not checked: "))
    #expect(finding.file.hasSuffix("Limit/Limit.entitlements"))
    // The second of the two keys.
    let lines = try String(contentsOf: entitlements, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    let keyLines = lines.indices.filter {
      lines[$0].contains("<key>com.apple.security.application-groups</key>")
    }
    #expect(keyLines.count == 2)
    #expect(finding.line == (keyLines.last ?? 0) + 1)
    #expect(report.hasProblems)
    #expect(report.ruleFiles.contains { $0.hasSuffix("ShareExtension/Info.plist") })
    for named in ["Limit", "ShareExtension"] {
      #expect(throws: ConfiguratorError.self) { try ProjectLinter().lint(project, targets: [named]) }
    }
  }

  @Test("INFOPLIST_FILE set in an xcconfig: the finding is at that xcconfig line")
  func settingInXCConfig() throws {
    // NetNewsWire sets each target's INFOPLIST_FILE in its target xcconfig (shape 3 and 4).
    let path = try #require(CorpusProject.all.first { $0.name == "netnewswire" }).copy()
    let folder = URL(fileURLWithPath: path).deletingLastPathComponent()
    try FileManager.default.removeItem(at: folder.appendingPathComponent("iOS/ShareExtension/Info.plist"))
    let report = try ProjectLinter().lint(try XcodeProject(path: path))
    let missing = report.findings.filter { $0.finding.check == "file-not-found" }
    #expect(missing.count == 1, "\(missing.map(\.finding.message))")
    let finding = try #require(missing.first?.finding)
    #expect(finding.file.hasSuffix("xcconfig/NetNewsWire_iOSshareextension_target.xcconfig"))
    #expect(finding.line == 3 && finding.column == 1)
    #expect(report.findings.contains { $0.target == "NetNewsWire-iOS" && $0.finding.id == "RK100" })
  }
}

@Suite("lint --project: a share extension whose rule the system never reads is an error at the rule's key")
struct ProjectLintMisplacedRuleTests {
  @Test("the rule directly in NSExtension (XDM's shape) is RK016, an error, at its key")
  func ruleDirectlyInExtension() throws {
    let path = try #require(CorpusProject.all.first { $0.name == "limit" }).copy()
    let info = URL(fileURLWithPath: path).deletingLastPathComponent()
      .appendingPathComponent("ShareExtension/Info.plist")
    let text = try String(contentsOf: info, encoding: .utf8)
    let moved = text.replacingOccurrences(of: "\t\t<key>NSExtensionAttributes</key>\n\t\t<dict>\n", with: "")
      .replacingOccurrences(of: "\t\t</dict>\n\t</dict>\n</dict>", with: "\t</dict>\n</dict>")
    #expect(moved != text)
    try moved.write(to: info, atomically: true, encoding: .utf8)
    let report = try ProjectLinter().lint(try XcodeProject(path: path))
    let misplaced = report.findings.filter { $0.finding.id == "RK016" && $0.target == "ShareExtension" }
    #expect(misplaced.count == 1, "\(report.findings.map(\.finding.message))")
    let finding = try #require(misplaced.first?.finding)
    #expect(finding.severity == .error)
    #expect(finding.message.hasPrefix("NSExtensionActivationRule is directly in NSExtension"))
    #expect(finding.file.hasSuffix("ShareExtension/Info.plist"))
    #expect(finding.line == 11 && finding.column == 4)
    #expect(finding.fix == "move NSExtensionActivationRule into the NSExtensionAttributes dictionary")
  }
}
