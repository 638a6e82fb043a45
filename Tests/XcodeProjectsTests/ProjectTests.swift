import Foundation
import Testing

@testable import XcodeProjects

@Suite("The ShareApp fixture: an app, a share extension, xcconfig bases, a missing Pods xcconfig")
struct ProjectTests {
  static func project() throws -> XcodeProject { try XcodeProject(path: Fixtures.shareApp) }

  @Test("targets, product types, embedding, dependencies, configurations")
  func model() throws {
    let project = try Self.project()
    #expect(project.name == "ShareApp")
    #expect(project.targets.map(\.name) == ["ShareApp", "Share"])
    let app = try #require(project.target(named: "ShareApp"))
    #expect(app.isApplication && !app.isAppExtension)
    #expect(app.embeddedTargetNames == ["Share"])
    #expect(project.embeddedTargets(of: app).map(\.name) == ["Share"])
    #expect(project.dependencies(of: app).map(\.name) == ["Share"])
    let share = try #require(project.target(named: "Share"))
    #expect(share.isAppExtension)
    #expect(project.configurationNames(for: share) == ["Debug", "Release"])
    #expect(try project.configurationList(of: share).defaultConfigurationName == "Release")
  }

  /// Nextcloud Talk embeds its App Intents extension with "Embed ExtensionKit Extensions": a copy-files
  /// phase into the products directory (16) at $(EXTENSIONS_FOLDER_PATH), not into PlugIns (13). It was not
  /// seen as embedded, so configure and lint --project passed over it without a word.
  @Test(
    "an ExtensionKit embed phase embeds; App Clip and watch phases carry apps; another copy does neither",
    arguments: [
      (#""$(EXTENSIONS_FOLDER_PATH)""#, true, false), (#""$(CONTENTS_FOLDER_PATH)/Library""#, false, false),
      // isowords' "Embed App Clips" and openHAB's "Embed Watch Content": apps carried, not extensions.
      (#""$(CONTENTS_FOLDER_PATH)/AppClips""#, false, true),
      (#""$(CONTENTS_FOLDER_PATH)/Watch""#, false, true),
    ])
  func extensionKitEmbedding(_ destination: String, _ embeds: Bool, _ carries: Bool) throws {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-exkit-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    let source = URL(fileURLWithPath: Fixtures.shareApp).appendingPathComponent("project.pbxproj")
    let text = try String(contentsOf: source, encoding: .utf8)
    let edited = text.replacingOccurrences(
      of: "dstPath = \"\";\n\t\t\tdstSubfolderSpec = 13;",
      with: "dstPath = \(destination);\n\t\t\tdstSubfolderSpec = 16;")
    #expect(edited != text)
    let project = folder.appendingPathComponent("ShareApp.xcodeproj")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    try edited.write(to: project.appendingPathComponent("project.pbxproj"), atomically: true, encoding: .utf8)
    let app = try #require(try XcodeProject(path: project.path).target(named: "ShareApp"))
    #expect(app.embeddedTargetNames == (embeds ? ["Share"] : []))
    #expect(app.embeddedAppTargetNames == (carries ? ["Share"] : []))
  }

  @Test("file references resolve through groups and source trees")
  func paths() throws {
    let project = try Self.project()
    let root = XcodePath.dirname(project.path)
    #expect(project.path(ofFileElement: "A20000000000000000000002") == root + "/Config/Debug.xcconfig")
    #expect(
      project.path(ofFileElement: "A20000000000000000000004")
        == root + "/Pods/Target Support Files/Pods-Share/Pods-Share.release.xcconfig")
    #expect(project.path(ofFileElement: "A20000000000000000000005") == "$(BUILT_PRODUCTS_DIR)/ShareApp.app")
    #expect(project.path(ofFileElement: "nothing") == nil)
  }

  @Test(
    "bundle identifiers per target, configuration and SDK",
    arguments: [
      ("ShareApp", "Debug", "iphoneos", "com.example.shareapp.debug"),
      ("ShareApp", "Debug", "iphonesimulator", "com.example.shareapp.debug.sim"),
      ("ShareApp", "Release", "iphoneos", "com.example.shareapp"),
      ("Share", "Debug", "iphoneos", "com.example.shareapp.debug.share"),
      ("Share", "Release", "iphoneos", "com.example.shareapp.share"),
    ])
  func bundleIdentifiers(target: String, configuration: String, sdk: String, expected: String) throws {
    let project = try Self.project()
    let settings = try project.buildSettings(
      target: try #require(project.target(named: target)), configuration: configuration, sdk: sdk)
    #expect(settings["PRODUCT_BUNDLE_IDENTIFIER"] == expected)
  }

  @Test("defaults, levels, $(inherited), positions, paths")
  func levels() throws {
    let project = try Self.project()
    let app = try #require(project.target(named: "ShareApp"))
    let settings = try project.buildSettings(target: app, configuration: "Debug")
    #expect(settings["PRODUCT_NAME"] == "ShareApp")
    #expect(settings["PRODUCT_MODULE_NAME"] == "ShareApp")
    #expect(settings["WRAPPER_EXTENSION"] == "app")
    #expect(settings["EFFECTIVE_PLATFORM_NAME"] == "-iphoneos")
    #expect(settings["INFOPLIST_EXPAND_BUILD_SETTINGS"] == "YES")
    #expect(settings["OTHER_LDFLAGS"] == " -ObjC")
    #expect(settings["SWIFT_ACTIVE_COMPILATION_CONDITIONS"] == "DEBUG")
    #expect(settings.expand("$(BASE_BUNDLE_ID).share") == "com.example.shareapp.debug.share")
    let winner = try #require(settings.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER"))
    #expect(winner.value == "$(BASE_BUNDLE_ID)")
    #expect(winner.location.file.hasSuffix("project.pbxproj"))
    #expect(winner.location.line == 180)
    #expect(settings.level(for: "PRODUCT_BUNDLE_IDENTIFIER")?.name == "target ShareApp configuration Debug")
    #expect(settings.level(for: "BASE_BUNDLE_ID")?.name.hasPrefix("project xcconfig") == true)
    #expect(settings.path(for: "INFOPLIST_FILE") == XcodePath.dirname(project.path) + "/App/Info.plist")
    #expect(settings.diagnostics.isEmpty)
    let share = try #require(project.target(named: "Share"))
    #expect(try project.buildSettings(target: share)["WRAPPER_EXTENSION"] == "appex")
  }

  @Test("a missing base configuration is a warning naming the settings it may change")
  func missingBaseConfiguration() throws {
    let project = try Self.project()
    let share = try #require(project.target(named: "Share"))
    let settings = try project.buildSettings(target: share, configuration: nil)
    #expect(settings.configuration == "Release")
    let warning = try #require(settings.diagnostics.first)
    #expect(warning.kind == .missingBaseConfiguration && warning.severity == .warning)
    #expect(warning.message.contains("Pods-Share.release.xcconfig"))
    #expect(warning.affectedSettings == ["OTHER_LDFLAGS"])
    #expect(warning.location?.line == 207)
  }

  @Test("unknown configuration and notes on undefined variables")
  func errorsAndNotes() throws {
    let project = try Self.project()
    let app = try #require(project.target(named: "ShareApp"))
    #expect {
      try project.buildSettings(target: app, configuration: "Beta")
    } throws: { error in
      (error as? XcodeProjectError)?.kind == .configurationNotFound
    }
    let noted = try project.buildSettings(target: app, configuration: "Debug", notingUndefinedVariables: true)
    #expect(noted.undefinedVariables.isEmpty)
    #expect(noted.expand("$(NOT_DEFINED)x") == "x")
  }

  @Test("a reference cycle is a warning naming both places")
  func cycleDiagnostic() throws {
    let text = try String(contentsOfFile: Fixtures.shareApp + "/project.pbxproj", encoding: .utf8)
      .replacingOccurrences(
        of:
          "\t\t\t\tIPHONEOS_DEPLOYMENT_TARGET = 16.0;\n\t\t\t\tSDKROOT = iphoneos;\n\t\t\t};\n\t\t\tname = Debug;",
        with:
          "\t\t\t\tCYCLE_A = \"$(CYCLE_B)\";\n\t\t\t\tCYCLE_B = \"$(CYCLE_A)\";\n\t\t\t};\n\t\t\tname = Debug;"
      )
    let project = try XcodeProject(
      bytes: Array(text.utf8), pbxprojPath: Fixtures.shareApp + "/project.pbxproj")
    let settings = try project.buildSettings(
      target: try #require(project.target(named: "ShareApp")), configuration: "Debug")
    let cycle = try #require(settings.diagnostics.first { $0.kind == .referenceCycle })
    #expect(cycle.message.contains("CYCLE_A → CYCLE_B → CYCLE_A"))
    #expect(cycle.location?.line != nil && cycle.relatedLocations.count == 1)
    #expect(settings["CYCLE_A"] == "")
  }

  @Test(
    "buildSettings keys split into name and conditions; a key whose brackets do not parse is all name",
    arguments: [
      ("OTHER_LDFLAGS", "OTHER_LDFLAGS", []),
      ("CODE_SIGN_IDENTITY[sdk=iphoneos*]", "CODE_SIGN_IDENTITY", [("sdk", "iphoneos*")]),
      ("A[sdk=iphoneos*] [config=Debug]", "A", [("sdk", "iphoneos*"), ("config", "Debug")]),
      (" A [ sdk = x ] ", "A", [("sdk", "x")]),
      ("NAMÉ[arch=arm64]", "NAMÉ", [("arch", "arm64")]),
      ("A[sdk=x", "A[sdk=x", []),
      ("A[sdk]", "A[sdk]", []),
      ("A[sdk=x]y", "A[sdk=x]y", []),
      ("A[sdk=x]]", "A[sdk=x]]", []),
    ] as [(String, String, [(String, String)])])
  func settingKeys(key: String, name: String, conditions: [(String, String)]) {
    let parsed = XcodeProject.parseSettingKey(key)
    #expect(parsed.name == name)
    #expect(parsed.conditions == conditions.map { BuildSettingCondition(parameter: $0.0, pattern: $0.1) })
  }
}

@Suite("Opening a workspace or folder opens its only project, or says which projects to pass")
struct OpeningHintTests {
  static func scratch() throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rk-open-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
  }

  static func hint(_ path: String, kind: XcodeProjectError.Kind = .fileNotFound) -> String? {
    do {
      _ = try XcodeProject(path: path)
      return nil
    } catch {
      #expect(error.kind == kind)
      return error.hint
    }
  }

  /// A project with one application target, at `path` (an `.xcodeproj` folder).
  static func makeProject(at path: URL) throws {
    try FileManager.default.createDirectory(at: path, withIntermediateDirectories: true)
    try Data(
      """
      // !$*UTF8*$!
      { archiveVersion = 1; objectVersion = 56; rootObject = P;
        objects = {
          P = { isa = PBXProject; buildConfigurationList = L; targets = (T); };
          L = { isa = XCConfigurationList; buildConfigurations = (C); };
          C = { isa = XCBuildConfiguration; name = Debug; buildSettings = { }; };
          T = { isa = PBXNativeTarget; name = App; productType = "com.apple.product-type.application";
                buildConfigurationList = L; };
        };
      }
      """.utf8
    ).write(to: path.appendingPathComponent("project.pbxproj"))
  }

  static func writeWorkspace(_ workspace: URL, listing locations: [String]) throws {
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    let references = locations.map { "   <FileRef\n      location = \"group:\($0)\">\n   </FileRef>\n" }
    try Data(
      ("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<Workspace\n   version = \"1.0\">\n"
        + references.joined() + "</Workspace>\n").utf8
    ).write(to: workspace.appendingPathComponent("contents.xcworkspacedata"))
  }

  @Test("a CocoaPods workspace with one app project opens that project, as xcodebuild would")
  func workspaceWithOneProject() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.makeProject(at: folder.appendingPathComponent("Runner.xcodeproj"))
    try Self.makeProject(at: folder.appendingPathComponent("Pods/Pods.xcodeproj"))
    let workspace = folder.appendingPathComponent("Runner.xcworkspace")
    try Self.writeWorkspace(workspace, listing: ["Runner.xcodeproj", "Pods/Pods.xcodeproj"])
    let project = try XcodeProject(path: workspace.path)
    #expect(project.path == folder.path + "/Runner.xcodeproj")
    #expect(project.pbxprojPath == folder.path + "/Runner.xcodeproj/project.pbxproj")
    #expect(project.name == "Runner")
    #expect(project.targets.map(\.name) == ["App"])
  }

  @Test("a folder with one project, or one under ios/, opens it")
  func folderWithOneProject() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.makeProject(at: folder.appendingPathComponent("ios/Runner.xcodeproj"))
    #expect(try XcodeProject(path: folder.path).path == folder.path + "/ios/Runner.xcodeproj")
    #expect(try XcodeProject(path: folder.path + "/ios").path == folder.path + "/ios/Runner.xcodeproj")
  }

  @Test("a repository root whose projects sit deeper names them (not Pods, not hidden), and opens none")
  func nestedProjectsAreNamed() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    // Brave's App/Client.xcodeproj and a Flutter plugin's example/ios/Runner.xcodeproj.
    try Self.makeProject(at: folder.appendingPathComponent("App/Client.xcodeproj"))
    try Self.makeProject(at: folder.appendingPathComponent("example/ios/Runner.xcodeproj"))
    try Self.makeProject(at: folder.appendingPathComponent("example/ios/Pods/Pods.xcodeproj"))
    try Self.makeProject(at: folder.appendingPathComponent(".git/x/Old.xcodeproj"))
    try Self.makeProject(at: folder.appendingPathComponent("a/b/c/TooDeep.xcodeproj"))
    try Data("README".utf8).write(to: folder.appendingPathComponent("LICENSE"))
    let root = folder.path
    #expect(
      Self.hint(root) == "pass one of \(root)/App/Client.xcodeproj, \(root)/example/ios/Runner.xcodeproj")
  }

  @Test("a listed project without its project.pbxproj is not opened: the error names it")
  func onlyCandidateWithoutProjectFile() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let project = folder.appendingPathComponent("ios/App/App.xcodeproj")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    #expect(Self.hint(folder.path) == "pass \(folder.path)/ios/App/App.xcodeproj")
  }

  /// The error `XcodeProject(path:)` throws for `path`.
  static func openingError(_ path: String) throws -> XcodeProjectError {
    do {
      _ = try XcodeProject(path: path)
    } catch {
      return error
    }
    throw CocoaError(.fileReadUnknown)
  }

  /// Soundscape's `iosApp/` and swift-paperless hold an XcodeGen `project.yml` and no `.xcodeproj`: the
  /// error named `iosApp/project.yml/project.pbxproj`, a path that cannot exist, and no way on.
  @Test("a spec, its folder, a file, a folder without a project, a missing path: what it is and what to do")
  func notAProject() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let root = folder.path
    let xcodeGen = folder.appendingPathComponent("iosApp")
    try FileManager.default.createDirectory(at: xcodeGen, withIntermediateDirectories: true)
    try Data("name: App\n".utf8).write(to: xcodeGen.appendingPathComponent("project.yml"))
    let generate =
      "\(root)/iosApp/project.yml is an XcodeGen spec: run `xcodegen generate` in \(root)/iosApp to "
      + "write the .xcodeproj, then pass that"
    let spec = try Self.openingError(root + "/iosApp/project.yml")
    #expect(spec.kind == .fileNotFound)
    #expect(spec.location?.file == root + "/iosApp/project.yml")
    #expect(spec.message.hasPrefix("not an Xcode project"), "\(spec.message)")
    #expect(spec.hint == generate)
    let specFolder = try Self.openingError(root + "/iosApp")
    #expect(specFolder.location?.file == root + "/iosApp")
    #expect(specFolder.message == "no Xcode project here: \(root)/iosApp holds no .xcodeproj")
    #expect(specFolder.hint == generate)
    let tuist = folder.appendingPathComponent("tuist")
    try FileManager.default.createDirectory(at: tuist, withIntermediateDirectories: true)
    try Data("import ProjectDescription\n".utf8).write(to: tuist.appendingPathComponent("Project.swift"))
    #expect(
      try Self.openingError(tuist.path).hint
        == "\(root)/tuist/Project.swift is a Tuist spec: run `tuist generate` in \(root)/tuist to write the "
        + ".xcodeproj, then pass that")
    let missing = try Self.openingError(root + "/Nothing.xcodeproj")
    #expect(missing.message == "no such file or folder")
    #expect(missing.location?.file == root + "/Nothing.xcodeproj")
    let empty = folder.appendingPathComponent("Empty.xcodeproj")
    try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
    let noFile = try Self.openingError(empty.path)
    #expect(noFile.message == "no Xcode project here: \(empty.path)/project.pbxproj does not exist")
    #expect(noFile.location?.file == empty.path + "/project.pbxproj")
  }

  /// Xcode opens a project.pbxproj saved as an XML or binary property list; the text reader reported "unexpected
  /// '?' in <data>" for the first and "not binary (bplist00)" for the second (a crash hunt's conversions).
  @Test(
    "an XML or binary property list project file: said so, with what to do", arguments: ["<?xml", "bplist00"])
  func propertyListProjectFile(_ start: String) throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let project = folder.appendingPathComponent("App.xcodeproj")
    try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
    try Data((start + " version=\"1.0\"?>\n<plist version=\"1.0\"><dict/></plist>\n").utf8).write(
      to: project.appendingPathComponent("project.pbxproj"))
    let error = try Self.openingError(project.path)
    #expect(error.kind == .malformed)
    #expect(error.message.hasSuffix(" property list, not the text form Xcode writes"), "\(error.message)")
    #expect(error.message.contains(start == "bplist00" ? "is a binary" : "is an XML"))
    #expect(error.hint?.hasPrefix("open the project in Xcode and change any setting") == true)
    #expect(error.location?.line == 1)
  }

  @Test("a workspace with several app projects is a usage error naming them, not Pods.xcodeproj")
  func workspace() throws {
    // The workspace Flutter, React Native and Capacitor teams open: the app's project and CocoaPods'.
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let workspace = folder.appendingPathComponent("Runner.xcworkspace")
    try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Workspace
         version = "1.0">
         <FileRef
            location = "group:Runner.xcodeproj">
         </FileRef>
         <Group
            location = "group:Modules"
            name = "Modules">
            <FileRef
               location = "group:Widgets.xcodeproj">
            </FileRef>
         </Group>
         <FileRef
            location = "group:Pods/Pods.xcodeproj">
         </FileRef>
      </Workspace>
      """.utf8
    ).write(to: workspace.appendingPathComponent("contents.xcworkspacedata"))
    let hint = try #require(Self.hint(workspace.path, kind: .ambiguousProject))
    let root = folder.path
    #expect(
      hint
        == "Runner.xcworkspace is a workspace; pass one of \(root)/Runner.xcodeproj, "
        + "\(root)/Modules/Widgets.xcodeproj")
  }

  @Test("a repository root with two projects under ios/App (Capacitor) names both")
  func repositoryRoot() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    try Self.makeProject(at: folder.appendingPathComponent("ios/App/App.xcodeproj"))
    try Self.makeProject(at: folder.appendingPathComponent("ios/App/Share.xcodeproj"))
    let root = folder.path
    #expect(
      Self.hint(root, kind: .ambiguousProject)
        == "pass one of \(root)/ios/App/App.xcodeproj, \(root)/ios/App/Share.xcodeproj")
  }

  @Test(
    "a .NET MAUI head (a .csproj, no .xcodeproj) names the Info.plist and entitlements to configure instead")
  func dotNetHead() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    let platform = folder.appendingPathComponent("Platforms/iOS")
    try FileManager.default.createDirectory(at: platform, withIntermediateDirectories: true)
    try Data("<Project Sdk=\"Microsoft.NET.Sdk\"/>\n".utf8).write(
      to: folder.appendingPathComponent("App.csproj"))
    try Data().write(to: platform.appendingPathComponent("Info.plist"))
    let root = folder.path
    let expected =
      "App.csproj is a .NET (MAUI or Xamarin) project: it has no Xcode project to read; configure the files its "
      + "iOS app builds with instead: configure -i \(root)/Platforms/iOS/Info.plist (and -e with the "
      + "entitlements file its CodesignEntitlements names)"
    #expect(Self.hint(root) == expected)
    #expect(Self.hint("\(root)/App.csproj") == expected)
    try Data().write(to: platform.appendingPathComponent("Entitlements.plist"))
    #expect(Self.hint(root)?.hasSuffix("-e \(root)/Platforms/iOS/Entitlements.plist") == true)
  }

  @Test("a folder without projects keeps the general hint")
  func nothing() throws {
    let folder = try Self.scratch()
    defer { try? FileManager.default.removeItem(at: folder) }
    #expect(Self.hint(folder.path)?.hasPrefix("pass the .xcodeproj folder") == true)
  }
}
