import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// neonichu/CoolSpot (Tests/Fixtures/xcode-projects/coolspot, MIT) is a WatchKit 1 project: its iOS app
/// `CoolSpot` embeds the WatchKit extension, which holds `CoolSpot WatchKit App`
/// (`com.apple.product-type.application.watchapp`). That watch app inherits the project's
/// `SDKROOT = iphoneos` (swift-build's WatchKit1ProductTypes.xcspec puts the product type in the iphoneos
/// domain), yet it is a watch app with a stub binary, not an iOS app that could link the Intune App SDK.
/// Found by the third sweep: `configure --project` without `--target` stopped with "2 iOS application
/// targets", and `lint --project` asked the watch app for IntuneMAMSettings.
@Suite("A WatchKit 1 app built with the iOS SDK is not an iOS app")
struct ProjectWatchKitAppTests {
  static func project() throws -> XcodeProject {
    let corpus = try #require(CorpusProject.all.first { $0.name == "coolspot" })
    return try XcodeProject(path: try corpus.copy())
  }

  @Test("configure --project without --target takes the phone app, the project's only iOS app")
  func onlyIOSApp() throws {
    #expect(try AppConfigurator().iOSAppTarget(in: try Self.project()) == "CoolSpot")
  }

  @Test("configure --target the watch app is refused at its product type, naming the iOS app")
  func refused() throws {
    let project = try Self.project()
    let error = try #require(throws: ConfiguratorError.self) {
      try ProjectConfigurator.plan(project: project, appTarget: "CoolSpot WatchKit App")
    }
    #expect(error.kind == .project)
    #expect(
      error.message.contains(
        "builds for watchOS (productType = com.apple.product-type.application.watchapp)"),
      "\(error.message)")
    #expect(error.hint == "configure the iOS app instead: CoolSpot")
  }

  @Test("lint --project notes the watch app instead of asking it for Intune settings")
  func lintNotes() throws {
    let report = try ProjectLinter().lint(try Self.project())
    let watch = report.findings.filter { $0.target == "CoolSpot WatchKit App" }
    let messages = watch.map(\.finding.message)
    #expect(messages.count == 1, "\(messages)")
    #expect(messages.allSatisfy { $0.hasPrefix("CoolSpot WatchKit App builds for watchOS: ") }, "\(messages)")
    // The phone app is still checked.
    #expect(report.findings.contains { $0.target == "CoolSpot" })
  }

}
