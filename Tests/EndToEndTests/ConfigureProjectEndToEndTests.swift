import CLITestSupport
import Foundation
import Testing

/// `rulekit configure --project … --target …` on copies of real projects from Tests/Fixtures/xcode-projects.
@Suite("rulekit configure --project (end to end)")
struct ConfigureProjectEndToEndTests {
  static let corpus = RuleKitBinary.packageRoot.appendingPathComponent("Tests/Fixtures/xcode-projects")

  /// A copy of one corpus project in a scratch folder; commands run inside the copy.
  struct Copy {
    let folder: URL

    init(_ name: String) throws {
      let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rk-project-\(UUID())")
      try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
      folder = scratch.appendingPathComponent(name)
      try FileManager.default.copyItem(at: corpus.appendingPathComponent(name), to: folder)
    }

    func run(_ arguments: [String]) throws -> (status: Int32, stdout: String, stderr: String) {
      let result = try RuleKitBinary.run(arguments, currentDirectory: folder)
      return (result.status, result.standardOutput, result.standardError)
    }

    /// Every file's bytes, by path relative to the copy.
    func snapshot() throws -> [String: Data] {
      var files: [String: Data] = [:]
      let walker = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: [.isRegularFileKey])
      while let url = walker?.nextObject() as? URL {
        guard (try url.resourceValues(forKeys: [.isRegularFileKey])).isRegularFile == true else { continue }
        files[String(url.path.dropFirst(folder.path.count + 1))] = try Data(contentsOf: url)
      }
      return files
    }
  }

  /// Every corpus project with an `.xcodeproj`: (folder, project, app target), from its expected.json.
  static let projects: [(String, String, String)] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: corpus.path))?.sorted() ?? []
    return names.compactMap { name in
      guard
        let data = try? Data(
          contentsOf: corpus.appendingPathComponent(name).appendingPathComponent("expected.json")),
        let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let project = document["project"] as? String, let app = document["app"] as? String
      else { return nil }
      return (name, project, app)
    }
  }()

  @Test("every corpus project configures (exit 0), and a second run writes nothing", arguments: projects)
  func everyCorpusProject(_ name: String, _ project: String, _ app: String) throws {
    let copy = try Copy(name)
    let arguments = ["configure", "--project", project, "--target", app, "--fix-entitlements"]
    let first = try copy.run(arguments)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.contains("wrote "))
    let configured = try copy.snapshot()
    let second = try copy.run(arguments)
    #expect(second.status == 0)
    #expect(!second.stderr.contains("wrote "), "\(second.stderr)")
    #expect(try copy.snapshot() == configured)
  }

  @Test("--dry-run --diff shows every file's changes, the project file's too, and writes nothing")
  func dryRun() throws {
    let copy = try Copy("limit")
    let before = try copy.snapshot()
    let result = try copy.run([
      "configure", "--project", "Limit.xcodeproj", "--target", "Limit", "--dry-run", "--diff",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(result.stdout.contains("+++ b/ShareExtension/Info.plist"))
    #expect(result.stdout.contains("+\t\t<string>$(INTUNE_CONTAINING_APP_BUNDLE_ID)</string>"))
    #expect(result.stdout.contains("+++ b/Limit.xcodeproj/project.pbxproj"))
    #expect(result.stdout.contains("+\t\t\t\tINTUNE_CONTAINING_APP_BUNDLE_ID = P24L.Limit.dev;"))
    #expect(result.stderr.contains("== ShareExtension (Debug)"))
    #expect(result.stderr.contains("Limit.xcodeproj/project.pbxproj: 6 build settings"))
    #expect(result.stderr.hasSuffix("dry run: nothing written\n"))
    #expect(try copy.snapshot() == before)
  }

  @Test("writes the files and the project, then a second run changes no byte")
  func writesThenNothing() throws {
    let copy = try Copy("limit")
    let arguments = ["configure", "--project", "Limit.xcodeproj", "--target", "Limit"]
    let first = try copy.run(arguments)
    #expect(first.status == 0, "\(first.stderr)")
    #expect(first.stderr.contains("wrote Limit.xcodeproj/project.pbxproj"))
    #expect(first.stderr.contains("wrote ShareExtension/Info.plist"))
    let configured = try copy.snapshot()
    let second = try copy.run(arguments)
    #expect(second.status == 0)
    #expect(!second.stderr.contains("wrote "))
    #expect(!second.stderr.contains("build setting"))
    #expect(try copy.snapshot() == configured)
  }

  @Test("a reference the extension's settings already spell is written instead of a new setting")
  func referenceInsteadOfSetting() throws {
    let copy = try Copy("home-assistant")
    let result = try copy.run([
      "configure", "--project", "HomeAssistant.xcodeproj", "--target", "App", "--dry-run", "--diff",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stdout.contains("+\t\t<string>${BUNDLE_ID_PREFIX}.HomeAssistant${BUNDLE_ID_SUFFIX}</string>"))
    #expect(!result.stdout.contains("project.pbxproj"))
  }

  @Test("--fix-entitlements gives every embedded extension an entitlements file, wired into its settings")
  func fixEntitlementsCreatesAndWires() throws {
    let copy = try Copy("cow-dance")
    let result = try copy.run([
      "configure", "--project", "CowDance.xcodeproj", "--target", "CowDance (iOS)", "--fix-entitlements",
      "--format", "json",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    let document = try #require(
      try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any])
    #expect(document["schemaVersion"] as? Int == 1)
    let targets = try #require(document["targets"] as? [[String: Any]])
    #expect(targets.map { $0["name"] as? String } == ["CowDance (iOS)", "ShareExtension"])
    for target in targets {
      let entitlements = try #require(target["entitlements"] as? String)
      #expect(FileManager.default.fileExists(atPath: copy.folder.appendingPathComponent(entitlements).path))
    }
    // Every extension resolves CODE_SIGN_ENTITLEMENTS to an existing file in every configuration.
    for configuration in ["Debug", "Release"] {
      let settings = try copy.run([
        "build-settings", "--project", "CowDance.xcodeproj", "--target", "ShareExtension", "--configuration",
        configuration, "--format", "json",
      ])
      let resolved = try #require(
        (try JSONSerialization.jsonObject(with: Data(settings.stdout.utf8)) as? [String: Any])?[
          "buildSettings"]
          as? [String: String])
      let path = try #require(resolved["CODE_SIGN_ENTITLEMENTS"])
      #expect(
        FileManager.default.fileExists(atPath: copy.folder.appendingPathComponent(path).path), "\(path)")
    }
  }

  @Test("a Mac Catalyst build's own entitlements file: a note at the setting, the file left as it is")
  func catalystEntitlementsNoted() throws {
    let copy = try Copy("monal")
    let before = try copy.snapshot()
    let result = try copy.run([
      "configure", "--project", "Monal/Monal.xcodeproj", "--target", "Monal", "--fix-entitlements",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "Monal/Monal.xcodeproj/project.pbxproj:2476:5: note: Monal's Mac Catalyst build uses its own entitlements "
          + "file, Monal.macos.entitlements (CODE_SIGN_ENTITLEMENTS[sdk=macosx*], in Debug, Adhoc, AppStore, "
          + "Beta); it is left unchanged: the Intune App SDK for iOS does not support Mac Catalyst"),
      "\(result.stderr)")
    #expect(result.stderr.contains("[mac-catalyst-file-unchanged]"))
    let after = try copy.snapshot()
    for (path, bytes) in before where path.hasSuffix(".macos.entitlements") {
      #expect(after[path] == bytes, "\(path) changed")
    }
    #expect(after["Monal/Monal.ios.entitlements"] != before["Monal/Monal.ios.entitlements"])
  }

  @Test(
    "errors: one clear line, the right exit code, nothing written",
    arguments: [
      (
        ["--project", "Limit.xcodeproj", "--target", "NoSuchApp"], Int32(2),
        "rulekit: error: Limit.xcodeproj/project.pbxproj: the project has no target named \"NoSuchApp\""
      ),
      (
        ["--project", "Limit.xcodeproj", "--target", "ShareExtension"], 2,
        "error: target \"ShareExtension\" is not an application"
      ),
      (
        ["--project", "Nothing.xcodeproj", "--target", "Limit"], 66,
        "Nothing.xcodeproj: no such file or folder"
      ),
      (
        ["--project", "Limit.xcodeproj", "--target", "Limit", "-i", "Limit/Info.plist"], 2,
        "Error: -i cannot be used with --project"
      ),
      (["--target", "Limit"], 2, "Error: --target needs --project"),
    ])
  func errors(_ arguments: [String], _ status: Int32, _ message: String) throws {
    let copy = try Copy("limit")
    let before = try copy.snapshot()
    let result = try copy.run(["configure"] + arguments)
    #expect(result.status == status, "\(result.stderr)")
    #expect(result.stderr.contains(message), "\(result.stderr)")
    #expect(try copy.snapshot() == before)
  }

  @Test("a folder or workspace holding one project configures that project; holding two, exit 2 naming both")
  func folderOrWorkspaceForTheProject() throws {
    let named = try Copy("limit")
    #expect(try named.run(["configure", "--project", "Limit.xcodeproj"]).status == 0)
    let workspaceData = Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <Workspace version = "1.0">
         <FileRef location = "group:Limit.xcodeproj"></FileRef>
         <FileRef location = "group:Pods/Pods.xcodeproj"></FileRef>
      </Workspace>
      """.utf8)
    for given in [".", "Limit.xcworkspace"] {
      let copy = try Copy("limit")
      let workspace = copy.folder.appendingPathComponent("Limit.xcworkspace")
      try FileManager.default.createDirectory(at: workspace, withIntermediateDirectories: true)
      try workspaceData.write(to: workspace.appendingPathComponent("contents.xcworkspacedata"))
      var expected = try named.snapshot()
      expected["Limit.xcworkspace/contents.xcworkspacedata"] = workspaceData
      let result = try copy.run(["configure", "--project", given])
      #expect(result.status == 0, "\(result.stderr)")
      #expect(result.stderr.contains("Limit.xcodeproj/project.pbxproj"), "\(result.stderr)")
      #expect(try copy.snapshot() == expected, "--project \(given)")
    }
    let two = try Copy("limit")
    try FileManager.default.copyItem(
      at: two.folder.appendingPathComponent("Limit.xcodeproj"),
      to: two.folder.appendingPathComponent("Other.xcodeproj"))
    let before = try two.snapshot()
    let result = try two.run(["configure", "--project", "."])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(
      result.stderr.contains(". holds 2 Xcode projects; say which one to read")
        && result.stderr.contains("hint: pass one of Limit.xcodeproj, Other.xcodeproj"),
      "\(result.stderr)")
    #expect(try two.snapshot() == before)
  }

  @Test("without --target: the project's only iOS app, written as with --target")
  func onlyIOSAppByDefault() throws {
    // WireGuard's project has an iOS and a macOS app: the macOS one does not count.
    for (name, project, app) in [
      ("limit", "Limit.xcodeproj", "Limit"), ("wireguard", "WireGuard.xcodeproj", "WireGuardiOS"),
    ] {
      let named = try Copy(name)
      let unnamed = try Copy(name)
      let withTarget = try named.run(["configure", "--project", project, "--target", app])
      let without = try unnamed.run(["configure", "--project", project])
      #expect(without.status == 0, "\(without.stderr)")
      #expect(without.stderr.contains("== \(app) ("), "\(without.stderr)")
      #expect(without.status == withTarget.status)
      #expect(try unnamed.snapshot() == named.snapshot())
    }
  }

  @Test("without --target in a project of several iOS apps: an error naming them, nothing written")
  func severalIOSAppsNeedATarget() throws {
    let copy = try Copy("rocket-chat-rn")
    let before = try copy.snapshot()
    let result = try copy.run(["configure", "--project", "ios/RocketChatRN.xcodeproj", "--dry-run"])
    #expect(result.status == 2, "\(result.stderr)")
    #expect(
      result.stderr.contains("has 2 iOS application targets: \"RocketChatRN\", \"Rocket.Chat\""),
      "\(result.stderr)")
    #expect(result.stderr.contains("hint: pass --target"), "\(result.stderr)")
    #expect(try copy.snapshot() == before)
  }

  /// `configure --project` refuses a macOS app; the same app's files given with -i and -e were configured
  /// for Intune, exit 0 (trial 4: Omnivore's macOS share extension and app).
  @Test("-i and -e of a target the project builds for macOS: an error at its SDKROOT, nothing written")
  func filesOfAMacOSTarget() throws {
    let copy = try Copy("wireguard")
    let before = try copy.snapshot()
    let result = try copy.run([
      "configure", "-i", "./Sources/WireGuardApp/UI/macOS/Info.plist", "-e",
      "./Sources/WireGuardApp/UI/macOS/WireGuard.entitlements",
    ])
    #expect(result.status == 1, "\(result.stderr)")
    #expect(
      result.stderr.contains(
        "error: target WireGuardmacOS builds for macOS (SDKROOT = macosx); the Intune App SDK and the settings "
          + "configure writes are for iOS apps (WireGuard.xcodeproj/project.pbxproj:"),
      "\(result.stderr)")
    #expect(result.stderr.contains("[not-an-ios-app]"), "\(result.stderr)")
    #expect(try copy.snapshot() == before)
    // The iOS app's files in the same project are configured as before.
    let iOS = try copy.run([
      "configure", "-i", "./Sources/WireGuardApp/UI/iOS/Info.plist", "-e",
      "./Sources/WireGuardApp/UI/iOS/WireGuard.entitlements", "--dry-run",
    ])
    #expect(!iOS.stderr.contains("not-an-ios-app"), "\(iOS.stderr)")
  }

  @Test(
    "-i and -e in a checkout with a project: its settings resolve the containing app, and the run says so")
  func filesInAProject() throws {
    let copy = try Copy("duckduckgo")
    let result = try copy.run([
      "configure", "-i", "ShareExtension/Info.plist", "-e", "DuckDuckGo/DuckDuckGo.entitlements", "--dry-run",
      "--diff",
    ])
    #expect(result.status == 0, "\(result.stderr)")
    #expect(
      result.stderr.hasPrefix(
        "ShareExtension/Info.plist: note: build settings from DuckDuckGo-iOS.xcodeproj: this is the Info.plist "
          + "of target ShareExtension (Debug, Alpha Debug, Alpha, Release)"))
    #expect(result.stdout.contains("+\t\t<string>$(APP_ID)</string>"))
  }

  @Test("-i and -e cannot say a per-configuration app ID in one value: an error naming --project")
  func filesInAProjectNeedingASetting() throws {
    let copy = try Copy("limit")
    let before = try copy.snapshot()
    let result = try copy.run([
      "configure", "-i", "ShareExtension/Info.plist", "-e", "ShareExtension/ShareExtension.entitlements",
    ])
    #expect(result.status == 1)
    // At the Info.plist's root dictionary, where IntuneMAMSettings would go (line 4 of the file).
    #expect(
      result.stderr.contains(
        "ShareExtension/Info.plist:4:1: error: the containing app's bundle ID differs per configuration"))
    #expect(result.stderr.contains("[containing-app-per-configuration]"))
    #expect(result.stderr.contains("fix: run rulekit configure --project Limit.xcodeproj --target Limit"))
    #expect(try copy.snapshot() == before)
  }

  @Test("-i and -e cannot list per-configuration app groups in one Info.plist: an error naming --project")
  func filesInAProjectWithPerConfigurationGroups() throws {
    let copy = try Copy("limit")
    let before = try copy.snapshot()
    let result = try copy.run(["configure", "-i", "Limit/Info.plist", "-e", "Limit/Limit.entitlements"])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains("Limit/Info.plist:4:1: error: the configurations of Limit (Debug, Release)"))
    #expect(result.stderr.contains("have entitlements naming different app groups"))
    #expect(result.stderr.contains("[app-groups-per-configuration]"))
    #expect(try copy.snapshot() == before)
  }

  /// octo-ios: the app's PRODUCT_BUNDLE_IDENTIFIER is $(OCTO_BUNDLE_ID), which only CocoaPods' xcconfigs
  /// (written by pod install) define. Before, -i and -e said the app's CFBundleIdentifier is a reference and
  /// to pass --containing-app, where configure --project writes the reference the extension's build spells.
  @Test(
    "-i and -e in a project whose app identifier expands to nothing: the reference, as --project writes it")
  func filesInAProjectWithoutTheAppsIdentifier() throws {
    let copy = try Copy("octo-ios")
    let result = try copy.run([
      "configure", "-i", "ShareExtension/Info.plist", "-e", "ShareExtension/ShareExtension.entitlements",
      "--dry-run",
    ])
    #expect(result.status == 0)
    #expect(
      result.stderr.contains(
        "containing-app-bundle-id  IntuneMAMSettings › ContainingAppBundleId: set to $(OCTO_BUNDLE_ID)"))
    #expect(!result.stderr.contains("[containing-app-build-setting]"))
    #expect(
      result.stderr.contains(
        "ShareExtension/Info.plist:4:1: warning: OctoiOS's bundle identifier expands to nothing in Debug, Release "
          + "(PRODUCT_BUNDLE_IDENTIFIER = $(OCTO_BUNDLE_ID)), so ShareExtension's ContainingAppBundleId, "
          + "$(OCTO_BUNDLE_ID), could not be checked against it there (OctoiOS.xcodeproj/project.pbxproj:"))
    #expect(
      result.stderr.contains(
        "fix: make the app's build settings complete (a file they come from is missing from the checkout: "
          + "rulekit configure --project OctoiOS.xcodeproj --dry-run names it; CocoaPods writes its xcconfigs on "
          + "pod install), then run configure again to check"))
  }

  @Test(
    "-i and -e in a project whose app identifier is empty and unspelled: the project's error, nothing written"
  )
  func filesInAProjectWithAnEmptyAppIdentifier() throws {
    let copy = try Copy("limit")
    let pbxproj = copy.folder.appendingPathComponent("Limit.xcodeproj/project.pbxproj")
    let text = try String(contentsOf: pbxproj, encoding: .utf8)
    try text.replacingOccurrences(
      of: "PRODUCT_BUNDLE_IDENTIFIER = P24L.Limit.dev;", with: "PRODUCT_BUNDLE_IDENTIFIER = \"\";"
    ).replacingOccurrences(
      of: "PRODUCT_BUNDLE_IDENTIFIER = P24L.Limit;", with: "PRODUCT_BUNDLE_IDENTIFIER = \"\";"
    )
    .write(to: pbxproj, atomically: true, encoding: .utf8)
    let before = try copy.snapshot()
    let result = try copy.run([
      "configure", "-i", "ShareExtension/Info.plist", "-e", "ShareExtension/ShareExtension.entitlements",
    ])
    #expect(result.status == 1)
    #expect(
      result.stderr.contains(
        "ShareExtension/Info.plist:4:1: error: Limit's bundle identifier expands to nothing in Debug, Release "
          + "(PRODUCT_BUNDLE_IDENTIFIER is empty), so ShareExtension's ContainingAppBundleId cannot name it "
          + "(Limit.xcodeproj/project.pbxproj:"))
    #expect(result.stderr.contains(", or pass --containing-app BUNDLE_ID"))
    #expect(!result.stderr.contains("[containing-app-build-setting]"))
    #expect(try copy.snapshot() == before)
  }

  /// KeePassium's two AutoFill extensions share one Info.plist, one spelling it `$(SRCROOT)/…`: with the
  /// project given by a relative path, one path came out relative and the other absolute, and the warning
  /// was missed (each run planned its own ContainingAppBundleId for the one file). WireGuard's network
  /// extensions share one Info.plist the same way, its macOS targets made iOS ones here.
  @Test("extensions of two apps sharing an Info.plist spelt with and without $(SRCROOT)/: still one file")
  func sharedInfoPlistSpeltTwoWays() throws {
    let copy = try Copy("wireguard")
    let pbxproj = copy.folder.appendingPathComponent("WireGuard.xcodeproj/project.pbxproj")
    var lines = try String(contentsOf: pbxproj, encoding: .utf8).replacing(
      "SDKROOT = macosx;", with: "SDKROOT = iphoneos;"
    ).components(separatedBy: "\n")
    // The macOS extension's two configurations (the first two assignments) spell it from SRCROOT. (The
    // path is joined so that check-references does not read it as a path of this repository.)
    let assignment =
      "INFOPLIST_FILE = " + ["Sources", "WireGuardNetworkExtension", "Info.plist;"].joined(separator: "/")
    var respelt = 0
    for index in lines.indices where respelt < 2 && lines[index].contains(assignment) {
      lines[index] = lines[index].replacing(
        "= Sources/", with: "= \"$(SRCROOT)/Sources/"
      ).replacing("Info.plist;", with: "Info.plist\";")
      respelt += 1
    }
    #expect(respelt == 2)
    try lines.joined(separator: "\n").write(to: pbxproj, atomically: true, encoding: .utf8)
    let result = try copy.run(["lint", "--project", "WireGuard.xcodeproj"])
    let shared = result.stdout.components(separatedBy: "\n").filter {
      $0.contains("[RK102 info-plist-shared-with-other-app]")
    }
    #expect(shared.count == 2, "\(result.stdout)\n\(result.stderr)")
  }

  @Test("-i and -e with no project and no app: the app's ID is inferred from the extension's, with a warning")
  func inferredContainingApp() throws {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("rk-infer-\(UUID())")
    try FileManager.default.createDirectory(
      at: scratch.appendingPathComponent("Share"), withIntermediateDirectories: true)
    let fixtures = RuleKitBinary.packageRoot.appendingPathComponent("Tests/Fixtures/configurator/inputs")
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("Share-Info.plist"),
      to: scratch.appendingPathComponent("Share/Info.plist"))
    try FileManager.default.copyItem(
      at: fixtures.appendingPathComponent("App.entitlements"),
      to: scratch.appendingPathComponent("App.entitlements"))
    let result = try RuleKitBinary.run(
      ["configure", "-i", "Share/Info.plist", "-e", "App.entitlements", "--dry-run"],
      currentDirectory: scratch)
    #expect(result.status == 0, "\(result.standardError)")
    #expect(
      result.standardError.contains(
        "warning: the containing app is not named, so its bundle ID is taken to be \"com.contoso.notes\""))
    #expect(result.standardError.contains("ContainingAppBundleId: set to com.contoso.notes"))
  }

  @Test("an extension whose configuration list names nothing stops the run at that line, not left out unsaid")
  func danglingConfigurationList() throws {
    let copy = try Copy("limit")
    let pbxproj = copy.folder.appendingPathComponent("Limit.xcodeproj/project.pbxproj")
    let text = try String(contentsOf: pbxproj, encoding: .utf8)
    let list = try #require(text.firstRange(of: /buildConfigurationList = [0-9A-F]+/))
    try text.replacingCharacters(in: list, with: "buildConfigurationList = DEADBEEF").write(
      to: pbxproj, atomically: true, encoding: .utf8)
    let before = try copy.snapshot()
    let result = try copy.run(["configure", "--project", "Limit.xcodeproj", "--target", "Limit"])
    #expect(result.status == 65)
    #expect(
      result.stderr.contains("error: the object DEADBEEF (a XCConfigurationList) is not in the objects"))
    #expect(result.stderr.hasPrefix("Limit.xcodeproj/project.pbxproj:"))
    #expect(try copy.snapshot() == before)
  }

  @Test("a malformed project file is an error at its line and column; nothing is written")
  func malformedProject() throws {
    let copy = try Copy("limit")
    let pbxproj = copy.folder.appendingPathComponent("Limit.xcodeproj/project.pbxproj")
    var text = try String(contentsOf: pbxproj, encoding: .utf8)
    text = text.replacing("objectVersion = 77;", with: "objectVersion = 77", maxReplacements: 1)
    try text.write(to: pbxproj, atomically: true, encoding: .utf8)
    let before = try copy.snapshot()
    let result = try copy.run(["configure", "--project", "Limit.xcodeproj", "--target", "Limit"])
    #expect(result.status == 65)
    #expect(result.stderr.hasPrefix("Limit.xcodeproj/project.pbxproj:"), "\(result.stderr)")
    #expect(result.stderr.contains(": error: "))
    #expect(try copy.snapshot() == before)
  }
}
