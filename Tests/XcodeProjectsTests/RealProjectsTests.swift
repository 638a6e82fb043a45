import Foundation
import Testing
import XcodeProjects

/// The real projects under Tests/Fixtures/xcode-projects, against their hand-derived expected.json.
@Suite("Real projects resolve to their hand-derived settings")
struct RealProjectsTests {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/xcode-projects")
  static let keys = [
    "PRODUCT_BUNDLE_IDENTIFIER", "INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS", "GENERATE_INFOPLIST_FILE",
  ]

  static var projects: [String] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []
    return names.filter {
      FileManager.default.fileExists(atPath: root.appendingPathComponent("\($0)/expected.json").path)
    }
    .sorted()
  }

  @Test("every target and configuration of expected.json", arguments: projects)
  func project(name: String) throws {
    let folder = Self.root.appendingPathComponent(name)
    let data = try Data(contentsOf: folder.appendingPathComponent("expected.json"))
    let expected = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
    // An XcodeGen project (project.yml) has no .xcodeproj to read.
    guard let projectPath = expected["project"] as? String, projectPath.hasSuffix(".xcodeproj") else {
      return
    }
    let project = try XcodeProject(path: folder.appendingPathComponent(projectPath).path)
    let sdk = expected["sdk"] as? String ?? "iphoneos"
    let targets = try #require(expected["targets"] as? [String: [String: Any]])
    for (targetName, targetExpected) in targets.sorted(by: { $0.key < $1.key }) {
      let target = try #require(project.target(named: targetName), "\(name): no target \(targetName)")
      let configurations = try #require(targetExpected["configurations"] as? [String: [String: Any]])
      for (configuration, values) in configurations.sorted(by: { $0.key < $1.key }) {
        let settings = try project.buildSettings(target: target, configuration: configuration, sdk: sdk)
        let affected = Set(settings.diagnostics.flatMap(\.affectedSettings))
        for key in Self.keys where values.keys.contains(key) {
          let ours = settings[key]
          let place = "\(name) \(targetName) \(configuration) \(key)"
          guard let value = values[key] as? String else {
            // null: unset, Xcode's default, or (documented in expected.json's "unresolvable") depending on a
            // file missing from the checkout, which the missing-file warning must name.
            let isDefault = ours == nil || ours == "" || (key == "GENERATE_INFOPLIST_FILE" && ours == "NO")
            #expect(isDefault || affected.contains(key), "\(place): expected null, resolved \(ours ?? "nil")")
            continue
          }
          let sourceRoot = settings["SRCROOT"] ?? ""
          let wanted = value.replacingOccurrences(of: "$(SRCROOT)", with: sourceRoot)
            .replacingOccurrences(of: "${SRCROOT}", with: sourceRoot)
          #expect(ours == wanted || ours == value, "\(place): expected \(value), resolved \(ours ?? "nil")")
        }
      }
    }
  }

  @Test(
    "a missing xcconfig's hint names the tool that writes it",
    arguments: [
      // Flutter writes Generated.xcconfig (flutter pub get); CocoaPods writes Pods/Target Support Files.
      ("receive-sharing-intent", "example/ios/Runner.xcodeproj", "Runner", "Debug", "flutter pub get"),
      ("durin", "ios/App/App.xcodeproj", "App", "Debug", "pod install"),
      // A gitignored secrets file: no tool to name.
      ("pocket-ios", "Pocket.xcodeproj", "Pocket (iOS)", "Debug", "local file kept out of version control"),
      // A gitignored local file whose template is committed beside it.
      (
        "octo-ios", "OctoiOS.xcodeproj", "ShareExtension", "Debug",
        "copy OctoConfig.xcconfig.template, which is beside it, to OctoConfig.xcconfig and fill it in"
      ),
    ])
  func missingFileHint(
    _ name: String, _ projectPath: String, _ targetName: String, _ configuration: String, _ wanted: String
  ) throws {
    let project = try XcodeProject(path: Self.root.appendingPathComponent("\(name)/\(projectPath)").path)
    let target = try #require(project.target(named: targetName))
    let settings = try project.buildSettings(target: target, configuration: configuration)
    let hints = settings.diagnostics.compactMap(\.hint)
    #expect(!hints.isEmpty)
    #expect(hints.allSatisfy { $0.contains(wanted) }, "\(hints)")
    if wanted != "pod install" { #expect(!hints.contains { $0.contains("pod install") }, "\(hints)") }
  }

  /// skugga commits its CocoaPods xcconfigs, the only real CocoaPods output vendored: `$(inherited)`, quoted
  /// search paths, and CocoaPods' unparenthesized `$BUILD_DIR`-style references, which Xcode expands like
  /// `$(BUILD_DIR)` (BUILD_DIR is a build location RuleKit does not model: empty here).
  @Test("a real CocoaPods base configuration resolves, with no missing file")
  func cocoaPodsBaseConfiguration() throws {
    let project = try XcodeProject(
      path: Self.root.appendingPathComponent("skugga/Apple/iOS/Skugga-iOS.xcodeproj").path)
    let target = try #require(project.target(named: "Skugga-iOS"))
    let settings = try project.buildSettings(target: target, configuration: "Release", sdk: "iphoneos")
    #expect(settings.diagnostics.isEmpty, "\(settings.diagnostics)")
    #expect(settings["PODS_CONFIGURATION_BUILD_DIR"] == "/Release-iphoneos")
    #expect(settings["OTHER_SWIFT_FLAGS"]?.hasSuffix(#""-D" "COCOAPODS""#) == true)
    #expect(
      settings["FRAMEWORK_SEARCH_PATHS"]?.hasSuffix(
        #""/Release-iphoneos/DateToolsSwift-iOS" "/Release-iphoneos/SDWebImage""#) == true)
    #expect(settings["PODS_ROOT"]?.hasSuffix("skugga/Apple/iOS/../Pods") == true)
    // The target's own settings win over the base configuration's.
    #expect(settings["PRODUCT_BUNDLE_IDENTIFIER"] == "fr.nlss.Skugga")
  }
}
