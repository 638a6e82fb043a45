import Foundation
import PropertyLists
import Testing
import XcodeProjects

@testable import IntuneConfigurator

@Suite("ContainingAppBundleId follows an identifier spelt with a setting that is empty for now")
struct ProjectEmptySettingTests {
  @Test(
    "Apple's samples: still right after the developer picks a team (${SAMPLE_CODE_DISAMBIGUATOR})",
    arguments: [("food-truck", "Food Truck", "Widgets"), ("backyard-birds", "Backyard Birds", "Widgets")])
  func rightAfterPickingATeam(_ name: String, _ app: String, _ extensionName: String) throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == name })
    let path = try corpus.copy()
    try ProjectConfigurator.plan(project: try XcodeProject(path: path), appTarget: app).write()

    // What Xcode writes when a team is picked in Signing & Capabilities: the same team in every target.
    let file = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
    let text = try String(contentsOf: file, encoding: .utf8)
    #expect(text.contains("DEVELOPMENT_TEAM = \"\";"))
    try text.replacing("DEVELOPMENT_TEAM = \"\";", with: "DEVELOPMENT_TEAM = ABCDE12345;")
      .write(to: file, atomically: true, encoding: .utf8)

    let project = try XcodeProject(path: path)
    let appTarget = try #require(project.target(named: app))
    let target = try #require(project.target(named: extensionName))
    for configuration in project.configurationNames(for: target) {
      let appIdentifier = try project.buildSettings(target: appTarget, configuration: configuration)[
        "PRODUCT_BUNDLE_IDENTIFIER"]
      #expect(appIdentifier?.hasSuffix("ABCDE12345") == true)
      let settings = try project.buildSettings(target: target, configuration: configuration)
      let info = try ProjectCorpusTests.infoPlist(settings)
      let written = try #require(
        info["IntuneMAMSettings"]?.dictionaryValue?["ContainingAppBundleId"]?.stringValue)
      #expect(settings.expand(written) == appIdentifier, "\(name) \(configuration): \(written)")
    }
  }
}
