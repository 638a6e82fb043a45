import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

@Suite("configure --project is for iOS apps: a watchOS or macOS app target is refused, at its SDKROOT")
struct ProjectPlatformTests {
  static func project(_ name: String) throws -> XcodeProject {
    let corpus = try #require(CorpusProject.all.first { $0.name == name })
    return try XcodeProject(path: try corpus.copy())
  }

  @Test(
    "a watchOS or macOS app is an error naming its platform and the iOS app to configure",
    arguments: [
      ("backyard-birds", "Backyard Birds (Watch)", "watchOS", "SDKROOT = watchos", "Backyard Birds"),
      ("wireguard", "WireGuardmacOS", "macOS", "SDKROOT = macosx", "WireGuardiOS"),
    ])
  func refused(_ name: String, _ app: String, _ platform: String, _ sdkroot: String, _ iOSApp: String)
    throws
  {
    let project = try Self.project(name)
    let error = try #require(throws: ConfiguratorError.self) {
      try ProjectConfigurator.plan(project: project, appTarget: app)
    }
    #expect(error.kind == .project)
    #expect(error.message.contains("builds for \(platform) (\(sdkroot))"), "\(error.message)")
    #expect(error.location?.line != nil)
    #expect(error.hint == "configure the iOS app instead: \(ShellWord.quoted(iOSApp))")
  }

  @Test(
    "with no target named, the project's only iOS app is the one configured",
    arguments: [
      ("backyard-birds", "Backyard Birds"), ("wireguard", "WireGuardiOS"), ("limit", "Limit"),
    ])
  func onlyIOSApp(_ name: String, _ app: String) throws {
    #expect(try AppConfigurator().iOSAppTarget(in: try Self.project(name)) == app)
  }

  @Test("several iOS apps, or none: an error naming what there is")
  func noSingleIOSApp() throws {
    let several = try #require(throws: ConfiguratorError.self) {
      try AppConfigurator().iOSAppTarget(in: try Self.project("rocket-chat-rn"))
    }
    #expect(several.kind == .project)
    #expect(
      several.message.hasSuffix(
        "has 2 iOS application targets: \"RocketChatRN\", \"Rocket.Chat\"; name the one to configure"))
    // WireGuard's project with its iOS app made a framework: a macOS app alone.
    let project = try Self.project("wireguard")
    var lines = try String(contentsOfFile: project.pbxprojPath, encoding: .utf8)
      .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let iOSName = try #require(lines.firstIndex { $0.contains("name = WireGuardiOS;") })
    let productType = try #require(lines[iOSName...].firstIndex { $0.contains("productType = ") })
    lines[productType] = "\t\t\tproductType = \"com.apple.product-type.framework\";"
    let macOSOnly = try XcodeProject(
      bytes: Array(lines.joined(separator: "\n").utf8), pbxprojPath: project.pbxprojPath)
    let none = try #require(throws: ConfiguratorError.self) {
      try AppConfigurator().iOSAppTarget(in: macOSOnly)
    }
    #expect(none.message.contains("has no iOS application target (its applications, \"WireGuardmacOS\""))
  }

  @Test("the iOS app of a project with a watch app is planned, without a warning about the watch build")
  func iOSAppBesideWatchApp() throws {
    let plan = try ProjectConfigurator.plan(
      project: try Self.project("backyard-birds"), appTarget: "Backyard Birds")
    #expect(!plan.isBlocked)
    #expect(
      !plan.findings.contains { $0.id == "extension-in-several-apps" }, "\(plan.findings.map(\.message))")
    #expect(plan.targets.contains { $0.targetName == "Widgets" })
  }

  @Test(
    "Mac Catalyst and multiplatform (SDKROOT = auto) apps are iOS apps",
    arguments: [
      ("monal", "Monal"), ("food-truck", "Food Truck"),
    ])
  func iOSToo(_ name: String, _ app: String) throws {
    let project = try Self.project(name)
    let target = try #require(project.target(named: app))
    #expect(ProjectPlanner.otherPlatform(of: target, in: project, sdk: "iphoneos") == nil)
  }

  @Test("lint --project notes the watch app instead of failing, and checks the iOS app")
  func lintNotesTheWatchApp() throws {
    let report = try ProjectLinter().lint(try Self.project("backyard-birds"))
    let notes = report.findings.filter { $0.finding.check == "not-an-ios-app" }
    #expect(notes.count == 1)
    #expect(notes.first?.target == "Backyard Birds (Watch)")
    #expect(notes.first?.finding.severity == .note)
    #expect(report.findings.contains { $0.target == "Widgets" && $0.finding.id == "RK100" })
  }
}
