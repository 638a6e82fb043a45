import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

@Suite("configure --project warns when another app's extension builds with the same Info.plist")
struct ProjectSharedInfoPlistTests {
  static func plan(_ name: String, app: String) throws -> ProjectConfigurationPlan {
    let corpus = try #require(CorpusProject.all.first { $0.name == name })
    return try ProjectConfigurator.plan(project: try XcodeProject(path: try corpus.copy()), appTarget: app)
  }

  @Test("WireGuard's iOS and macOS network extensions share one Info.plist: each app's run names the other")
  func wireGuard() throws {
    for (app, planned, other) in [
      ("WireGuardiOS", "WireGuardNetworkExtensioniOS", "WireGuardNetworkExtensionmacOS"),
      ("WireGuardmacOS", "WireGuardNetworkExtensionmacOS", "WireGuardNetworkExtensioniOS"),
    ] {
      let warnings = try Self.plan("wireguard", app: app).findings.filter {
        $0.id == "info-plist-shared-with-other-app"
      }
      #expect(warnings.count == 1, "\(warnings.map(\.message))")
      let warning = try #require(warnings.first)
      #expect(warning.severity == .warning)
      #expect(
        warning.message.hasPrefix("\(planned)'s Info.plist Sources/WireGuardNetworkExtension/Info.plist"))
      #expect(warning.message.contains("is also the Info.plist of \(other)"), "\(warning.message)")
      // At the INFOPLIST_FILE assignment of the planned extension.
      #expect(warning.location?.file.hasSuffix("WireGuard.xcodeproj/project.pbxproj") == true)
      #expect(warning.location?.line != nil)
      #expect(warning.fix != nil)
    }
  }

  @Test(
    "no warning for one target two apps embed (its own warning), nor for apps built with the same identifier",
    arguments: [("rocket-chat-rn", "RocketChatRN"), ("food-truck", "Food Truck"), ("limit", "Limit")])
  func noFalseAlarm(_ name: String, _ app: String) throws {
    let plan = try Self.plan(name, app: app)
    #expect(!plan.findings.contains { $0.id == "info-plist-shared-with-other-app" })
  }
}
