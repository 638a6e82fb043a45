import Foundation
import Testing

@testable import XcodeProjects

enum Fixtures {
  static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
    "Fixtures")
  /// The synthetic ShareApp project, shared with the end-to-end tests of `rulekit build-settings`.
  static var shareApp: String {
    directory.deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Fixtures/share-app/ShareApp.xcodeproj").path
  }

  /// A project file with one app target (named `target`) whose one configuration (`configuration`) is
  /// based on the xcconfig at `base` (relative to the project's folder) and sets `settings` itself.
  static func projectBasedOnXCConfig(
    _ base: String, target: String = "App", configuration: String = "Debug", settings: String = ""
  ) -> String {
    """
    // !$*UTF8*$!
    {
      archiveVersion = 1; classes = {}; objectVersion = 56;
      objects = {
        F1 = {isa = PBXFileReference; path = \(base); sourceTree = SOURCE_ROOT; };
        G1 = {isa = PBXGroup; children = (F1); sourceTree = "<group>"; };
        T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = \(target);
          productType = "com.apple.product-type.application"; };
        C1 = {isa = XCBuildConfiguration; buildSettings = {}; name = \(configuration); };
        C2 = {isa = XCBuildConfiguration; baseConfigurationReference = F1;
          buildSettings = { \(settings) }; name = \(configuration); };
        L1 = {isa = XCConfigurationList; buildConfigurations = (C1); defaultConfigurationName = \(configuration); };
        L2 = {isa = XCConfigurationList; buildConfigurations = (C2); defaultConfigurationName = \(configuration); };
        P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (T1); };
      };
      rootObject = P1;
    }
    """
  }

  /// A fresh temporary folder holding `files` (relative path → text).
  static func folder(_ files: [String: String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "XcodeProjectsTests-\(UUID().uuidString)")
    for (path, text) in files {
      let url = root.appendingPathComponent(path)
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(text.utf8).write(to: url)
    }
    return root
  }
}

/// Evaluates `text` against settings given as one level of `NAME = value` pairs (later wins), plus levels.
func expand(_ text: String, levels: [[(String, String)]]) -> (String, MacroEvaluator.Findings) {
  var chains: [String: [SettingCandidate]] = [:]
  for (level, pairs) in levels.enumerated().reversed() {
    for (name, value) in pairs.reversed() {
      let assignment = BuildSettingAssignment(
        name: name, value: value, location: BuildSettingLocation(file: "level\(level)", line: 1))
      chains[name, default: []].append(SettingCandidate(assignment: assignment, level: level))
    }
  }
  var findings = MacroEvaluator.Findings()
  let result = MacroEvaluator(chains: chains).expand(text, findings: &findings)
  return (result, findings)
}
