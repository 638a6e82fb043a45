import Foundation
import Testing

@testable import XcodeProjects

/// The configuration resolved when none is named is the one swift-build builds
/// (`Target.getEffectiveConfiguration` with the project's default name): the project's
/// `defaultConfigurationName` when the target has it, else the target's first configuration.
///
/// The shape is ProtonDriveApps/ios-drive's ProtonDrive-iOS.xcodeproj (GPL-3.0, so written by hand here):
/// every list names `defaultConfigurationName = "Release-External"`, a configuration no list holds any
/// more; each holds only `Release-Store`, which Xcode builds.
@Suite("Without a configuration named, the one xcodebuild builds, even under a stale default name")
struct DefaultConfigurationTests {
  static func project(
    projectDefault: String, targetDefault: String, targetConfigurations: [String],
    projectConfigurations: [String]
  ) throws -> XcodeProject {
    var objects: [String] = []
    var projectIDs: [String] = []
    for (index, name) in projectConfigurations.enumerated() {
      objects.append("P\(index) = {isa = XCBuildConfiguration; buildSettings = {}; name = \"\(name)\"; };")
      projectIDs.append("P\(index)")
    }
    var targetIDs: [String] = []
    for (index, name) in targetConfigurations.enumerated() {
      objects.append(
        "C\(index) = {isa = XCBuildConfiguration; buildSettings = {MARK = \"\(name)\"; }; name = \"\(name)\"; };"
      )
      targetIDs.append("C\(index)")
    }
    let text = """
      // !$*UTF8*$!
      {
        archiveVersion = 1; classes = {}; objectVersion = 56;
        objects = {
          G1 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
          T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = App;
            productType = "com.apple.product-type.application"; };
          \(objects.joined(separator: "\n    "))
          L1 = {isa = XCConfigurationList; buildConfigurations = (\(projectIDs.joined(separator: ", ")));
            defaultConfigurationName = "\(projectDefault)"; };
          L2 = {isa = XCConfigurationList; buildConfigurations = (\(targetIDs.joined(separator: ", ")));
            defaultConfigurationName = "\(targetDefault)"; };
          X1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (T1); };
        };
        rootObject = X1;
      }
      """
    let root = try Fixtures.folder(["App.xcodeproj/project.pbxproj": text])
    return try XcodeProject(path: root.appendingPathComponent("App.xcodeproj").path)
  }

  @Test("a default naming a configuration no list holds falls through to the target's first")
  func staleDefault() throws {
    let project = try Self.project(
      projectDefault: "Release-External", targetDefault: "Release-External",
      targetConfigurations: ["Release-Store"], projectConfigurations: ["Release-Store"])
    let target = try #require(project.target(named: "App"))
    #expect(project.effectiveConfigurationName(of: target) == "Release-Store")
    let settings = try project.buildSettings(target: target)
    #expect(settings.configuration == "Release-Store")
    #expect(settings["MARK"] == "Release-Store")
  }

  @Test("the project's default, not the target list's own, decides")
  func projectDefaultWins() throws {
    let project = try Self.project(
      projectDefault: "Release", targetDefault: "Debug", targetConfigurations: ["Debug", "Release"],
      projectConfigurations: ["Debug", "Release"])
    let target = try #require(project.target(named: "App"))
    #expect(project.effectiveConfigurationName(of: target) == "Release")
    #expect(try project.buildSettings(target: target)["MARK"] == "Release")
    #expect(project.effectiveConfigurationName(of: target, requested: "Debug") == "Debug")
    #expect(project.effectiveConfigurationName(of: target, requested: "Beta") == "Release")
  }

  @Test("a configuration named but missing is still an error, naming the ones there are")
  func namedButMissing() throws {
    let project = try Self.project(
      projectDefault: "Release-External", targetDefault: "Release-External",
      targetConfigurations: ["Release-Store"], projectConfigurations: ["Release-Store"])
    let target = try #require(project.target(named: "App"))
    let error = #expect(throws: XcodeProjectError.self) {
      try project.buildSettings(target: target, configuration: "Release-External")
    }
    #expect(error?.kind == .configurationNotFound)
    #expect(error?.hint == "use one of: Release-Store")
  }
}
