import Foundation
import PropertyLists
import Testing
import XcodeProjects

@testable import IntuneConfigurator

@Suite("configure --project on a Mac Catalyst app: right in the Mac build too")
struct ProjectCatalystTests {
  @Test(
    "ContainingAppBundleId expands to the app's identifier for iphoneos and macosx, where [sdk=macosx*] differs"
  )
  func catalystIdentifiers() throws {
    // Monal sets PRODUCT_BUNDLE_IDENTIFIER[sdk=macosx*] for the app and both extensions in five of its six
    // configurations (Tests/Fixtures/xcode-projects/monal).
    let corpus = try #require(CorpusProject.all.first { $0.name == "monal" })
    let path = try corpus.copy()
    let plan = try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: "Monal")
    #expect(!plan.isBlocked, "\(plan.findings.filter { $0.severity == .error })")
    let conditional = plan.buildSettings.filter {
      $0.edit.key == "\(ProjectConfigurator.containingAppSetting)[sdk=macosx*]"
    }
    // Five configurations (not Alpha, which has no Mac identifier) of two extensions.
    #expect(conditional.count == 10, "\(conditional.map(\.edit.description))")
    #expect(!conditional.contains { $0.configuration == "Alpha" })
    try plan.write()

    let project = try XcodeProject(path: path)
    let app = try #require(project.target(named: "Monal"))
    for sdk in ["iphoneos", "macosx"] {
      for configuration in project.configurationNames(for: app) {
        let appSettings = try project.buildSettings(target: app, configuration: configuration, sdk: sdk)
        let appIdentifier = appSettings["PRODUCT_BUNDLE_IDENTIFIER"]
        for name in ["shareSheet", "NotificationService"] {
          let target = try #require(project.target(named: name))
          let settings = try project.buildSettings(target: target, configuration: configuration, sdk: sdk)
          let info = try ProjectCorpusTests.infoPlist(settings)
          let written = try #require(
            info["IntuneMAMSettings"]?.dictionaryValue?["ContainingAppBundleId"]?.stringValue)
          #expect(
            settings.expand(written) == appIdentifier,
            "\(name) \(configuration) \(sdk): \(written) → \(settings.expand(written))")
        }
      }
    }
    let again = try ProjectConfigurator.plan(project: project, appTarget: "Monal")
    #expect(again.buildSettings.isEmpty, "\(again.buildSettings.map(\.edit.description))")
    #expect(try again.filesToWrite().isEmpty)
  }

  @Test(
    "DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER = YES: the Mac app is maccatalyst. and its iOS identifier")
  func derivedIdentifier() throws {
    // Monal does not set it; a copy does, in every configuration of every target (test-only edit).
    let corpus = try #require(CorpusProject.all.first { $0.name == "monal" })
    let path = try corpus.copy()
    let file = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
    let text = try String(contentsOf: file, encoding: .utf8).replacing(
      "SUPPORTS_MACCATALYST = YES;",
      with: "DERIVE_MACCATALYST_PRODUCT_BUNDLE_IDENTIFIER = YES;\n\t\t\t\tSUPPORTS_MACCATALYST = YES;")
    try text.write(to: file, atomically: true, encoding: .utf8)
    let plan = try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: "Monal")
    let mac = plan.buildSettings.filter { $0.targetName == "shareSheet" && !$0.edit.conditions.isEmpty }
    let values = Dictionary(uniqueKeysWithValues: mac.map { ($0.configuration, $0.edit.value) })
    // Alpha has no Mac identifier of its own: derived from monal.alpha.
    #expect(values["Alpha"] == "maccatalyst.monal.alpha")
    #expect(values["Debug"] == "maccatalyst.org.monal-im.prod.catalyst.monal")
    #expect(values.count == 6)
  }

  @Test("an app that does not build for Mac Catalyst gets no [sdk=macosx*] setting")
  func noCatalyst() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "limit" })
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: try corpus.copy()), appTarget: "Limit")
    #expect(!plan.buildSettings.isEmpty)
    #expect(plan.buildSettings.allSatisfy { $0.edit.conditions.isEmpty })
  }
}
