import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// VLC for iOS (videolan/vlc-ios, GPL-2.0/MPL-2.0; written by hand here) has a `VLC-visionOS` app target
/// that sets `SUPPORTED_PLATFORMS = "xros xrsimulator"` and `TARGETED_DEVICE_FAMILY = 7` but no `SDKROOT`
/// of its own, so it inherits the project's `SDKROOT = iphoneos`. Xcode offers it visionOS destinations
/// only and builds it with the destination's SDK: it is a visionOS app, not an iOS one.
@Suite("An app whose SUPPORTED_PLATFORMS name only other platforms is not an iOS app, whatever SDKROOT says")
struct ProjectSupportedPlatformsTests {
  static let text = """
    // !$*UTF8*$!
    {
      archiveVersion = 1; classes = {}; objectVersion = 56;
      objects = {
        G1 = {isa = PBXGroup; children = (); sourceTree = "<group>"; };
        T1 = {isa = PBXNativeTarget; buildConfigurationList = L2; name = "VLC-iOS";
          productType = "com.apple.product-type.application"; };
        T2 = {isa = PBXNativeTarget; buildConfigurationList = L3; name = "VLC-visionOS";
          productType = "com.apple.product-type.application"; };
        C1 = {isa = XCBuildConfiguration; buildSettings = {SDKROOT = iphoneos; }; name = Release; };
        C2 = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = Resources/iOS/Info.plist;
          PRODUCT_BUNDLE_IDENTIFIER = "com.example.vlc-ios"; }; name = Release; };
        C3 = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = Resources/iOS/Info.plist;
          PRODUCT_BUNDLE_IDENTIFIER = "com.example.vlc-ios"; SUPPORTED_PLATFORMS = "xros xrsimulator";
          TARGETED_DEVICE_FAMILY = 7; }; name = Release; };
        L1 = {isa = XCConfigurationList; buildConfigurations = (C1); defaultConfigurationName = Release; };
        L2 = {isa = XCConfigurationList; buildConfigurations = (C2); defaultConfigurationName = Release; };
        L3 = {isa = XCConfigurationList; buildConfigurations = (C3); defaultConfigurationName = Release; };
        P1 = {isa = PBXProject; buildConfigurationList = L1; mainGroup = G1; targets = (T1, T2); };
      };
      rootObject = P1;
    }
    """

  static func project() throws -> XcodeProject {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rk-platforms-\(UUID().uuidString)")
    let folder = root.appendingPathComponent("VLC.xcodeproj")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    try Data(text.utf8).write(to: folder.appendingPathComponent("project.pbxproj"))
    return try XcodeProject(path: folder.path)
  }

  @Test("configure --target VLC-visionOS is refused at SUPPORTED_PLATFORMS, naming the iOS app")
  func refused() throws {
    let project = try Self.project()
    let error = try #require(throws: ConfiguratorError.self) {
      try ProjectConfigurator.plan(project: project, appTarget: "VLC-visionOS")
    }
    #expect(error.kind == .project)
    #expect(
      error.message.contains("builds for visionOS (SUPPORTED_PLATFORMS = xros xrsimulator)"),
      "\(error.message)")
    #expect(error.hint == "configure the iOS app instead: VLC-iOS")
    let vision = try #require(project.target(named: "VLC-visionOS"))
    #expect(ProjectPlanner.otherPlatform(of: vision, in: project, sdk: "iphoneos")?.name == "visionOS")
  }

  @Test("the project's only iOS app is the one without SUPPORTED_PLATFORMS")
  func onlyIOSApp() throws {
    #expect(try AppConfigurator().iOSAppTarget(in: try Self.project()) == "VLC-iOS")
    let project = try Self.project()
    let iOS = try #require(project.target(named: "VLC-iOS"))
    #expect(ProjectPlanner.otherPlatform(of: iOS, in: project, sdk: "iphoneos") == nil)
  }
}
