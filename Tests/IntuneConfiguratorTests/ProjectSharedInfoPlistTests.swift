import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

@Suite("configure --project warns when another iOS app's extension builds with the same Info.plist")
struct ProjectSharedInfoPlistTests {
  static func plan(_ name: String, app: String, edit: ((String) -> String)? = nil) throws
    -> ProjectConfigurationPlan
  {
    let corpus = try #require(CorpusProject.all.first { $0.name == name })
    let path = try corpus.copy()
    if let edit {
      let file = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
      try edit(try String(contentsOf: file, encoding: .utf8)).write(
        to: file, atomically: true, encoding: .utf8)
    }
    return try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: app)
  }

  static func warnings(_ plan: ProjectConfigurationPlan) -> [ProjectFinding] {
    plan.findings.filter { $0.id == "info-plist-shared-with-other-app" }
  }

  @Test("two iOS apps whose extension targets share one Info.plist: each app's run names the other")
  func sharedBetweenIOSApps() throws {
    // WireGuard's iOS and macOS network extensions share one Info.plist (in WireGuardNetworkExtension/). Its
    // macOS targets are made iOS ones here (no permissively licensed pair of iOS apps doing so was found).
    let asIOS = { (text: String) in text.replacing("SDKROOT = macosx;", with: "SDKROOT = iphoneos;") }
    for (app, planned, other) in [
      ("WireGuardiOS", "WireGuardNetworkExtensioniOS", "WireGuardNetworkExtensionmacOS"),
      ("WireGuardmacOS", "WireGuardNetworkExtensionmacOS", "WireGuardNetworkExtensioniOS"),
    ] {
      let warnings = Self.warnings(try Self.plan("wireguard", app: app, edit: asIOS))
      #expect(warnings.count == 1, "\(warnings.map(\.message))")
      let warning = try #require(warnings.first)
      #expect(warning.severity == .warning)
      // The file, relative to the project's folder (WireGuardNetworkExtension/Info.plist under its sources).
      let shared = ["Sources", "WireGuardNetworkExtension", "Info.plist"].joined(separator: "/")
      #expect(warning.message.hasPrefix("\(planned)'s Info.plist \(shared)"))
      #expect(warning.message.contains("is also the Info.plist of \(other)"), "\(warning.message)")
      // At the INFOPLIST_FILE assignment of the planned extension.
      #expect(warning.location?.file.hasSuffix("WireGuard.xcodeproj/project.pbxproj") == true)
      #expect(warning.location?.line != nil)
      #expect(warning.fix != nil)
    }
  }

  @Test(
    "no warning for a macOS app's extension, one target two apps embed, or apps with the same identifier",
    arguments: [
      ("wireguard", "WireGuardiOS"), ("rocket-chat-rn", "RocketChatRN"), ("food-truck", "Food Truck"),
      ("limit", "Limit"),
    ])
  func noFalseAlarm(_ name: String, _ app: String) throws {
    #expect(Self.warnings(try Self.plan(name, app: app)).isEmpty)
  }
}
