import Foundation
import PropertyLists
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// A copy of `Tests/Fixtures/xcode-projects/<name>` in a new temporary folder.
private func fixtureCopy(_ name: String) throws -> URL {
  let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/xcode-projects/\(name)")
  let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
    "rk-shapes-\(UUID().uuidString)")
  try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
  let destination = scratch.appendingPathComponent(name)
  try FileManager.default.copyItem(at: root, to: destination)
  return destination
}

/// A copy of `limit` whose project.pbxproj has each `(of, with)` replacement made; each must match.
private func limitCopy(replacing edits: [(of: String, with: String)]) throws -> URL {
  let folder = try fixtureCopy("limit")
  let pbxproj = folder.appendingPathComponent("Limit.xcodeproj/project.pbxproj")
  var text = try String(contentsOf: pbxproj, encoding: .utf8)
  for edit in edits {
    #expect(text.contains(edit.of), "\(edit.of)")
    text = text.replacingOccurrences(of: edit.of, with: edit.with)
  }
  try text.write(to: pbxproj, atomically: true, encoding: .utf8)
  return folder
}

/// A copy of `limit` whose app reads its Info.plist through the C preprocessor, with `INTUNE` defined in Debug
/// only (KeePassium's shape: one preprocessed Info.plist, only the Intune build defining the macro).
private func preprocessedLimitCopy() throws -> URL {
  try limitCopy(replacing: [
    (
      "PRODUCT_BUNDLE_IDENTIFIER = P24L.Limit.dev;",
      "PRODUCT_BUNDLE_IDENTIFIER = P24L.Limit.dev; INFOPLIST_PREPROCESS = YES; "
        + "INFOPLIST_PREPROCESSOR_DEFINITIONS = INTUNE;"
    ),
    (
      "PRODUCT_BUNDLE_IDENTIFIER = P24L.Limit;",
      "PRODUCT_BUNDLE_IDENTIFIER = P24L.Limit; INFOPLIST_PREPROCESS = YES;"
    ),
  ])
}

/// Shapes of real projects that `configure --project` met for the first time in a trial on twelve open-source
/// apps (octo-ios, flash, AssisChat, skugga; Tests/Fixtures/xcode-projects).
@Suite("configure --project on shapes first met in real projects")
struct ProjectRealWorldShapesTests {
  /// octo-ios sets the app's PRODUCT_BUNDLE_IDENTIFIER to `$(OCTO_BUNDLE_ID)`, which only CocoaPods'
  /// xcconfigs (written by pod install) bring to the app, while its extensions read it from
  /// OctoConfig.xcconfig, a git-ignored copy of the committed OctoConfig.xcconfig.template.
  @Test("an app identifier that expands to nothing is never written as an empty setting")
  func appIdentifierUnknownAfterSetup() throws {
    let folder = try fixtureCopy("octo-ios")
    // The project's documented set-up step, without pod install.
    try FileManager.default.copyItem(
      at: folder.appendingPathComponent("OctoConfig.xcconfig.template"),
      to: folder.appendingPathComponent("OctoConfig.xcconfig"))
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("OctoiOS.xcodeproj").path),
      appTarget: "OctoiOS")
    // Before: INTUNE_CONTAINING_APP_BUNDLE_ID = "" in six configurations, and exit 0.
    #expect(plan.buildSettings.allSatisfy { !$0.edit.value.isEmpty })
    #expect(!plan.buildSettings.contains { $0.edit.key == ProjectConfigurator.containingAppSetting })
    let share = try #require(plan.targets.first { $0.targetName == "ShareExtension" })
    let containing = share.plan.changes.first { $0.kind == .containingAppBundleID }
    #expect(containing?.summary == "set to $(OCTO_BUNDLE_ID)")
    #expect(!share.plan.isBlocked)
    let unverified = plan.findings.filter { $0.id == "containing-app-unverified" }
    #expect(unverified.count == 3)
    #expect(unverified.allSatisfy { $0.severity == .warning })
    #expect(
      unverified.first?.message
        == "OctoiOS's bundle identifier expands to nothing in Debug, Release (PRODUCT_BUNDLE_IDENTIFIER = "
        + "$(OCTO_BUNDLE_ID)), so ShareExtension's ContainingAppBundleId, $(OCTO_BUNDLE_ID), could not be "
        + "checked against it there")
    // At the app's PRODUCT_BUNDLE_IDENTIFIER in the project file.
    #expect(unverified.first?.location?.file.hasSuffix("project.pbxproj") == true)
    #expect(unverified.first?.location?.line != nil)
  }

  @Test("as committed (no OctoConfig.xcconfig) the reference is written, with the same warning")
  func appIdentifierUnknownAsCommitted() throws {
    let folder = try fixtureCopy("octo-ios")
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("OctoiOS.xcodeproj").path),
      appTarget: "OctoiOS")
    #expect(plan.buildSettings.allSatisfy { !$0.edit.value.isEmpty })
    #expect(plan.findings.filter { $0.id == "containing-app-unverified" }.count == 3)
    #expect(!plan.isBlocked)
  }

  /// With no reference to fall back on, the plan is blocked: an empty ContainingAppBundleId is worse than none.
  @Test("no reference and an empty app identifier: an error at the app's setting, nothing written")
  func appIdentifierEmptyWithoutReference() throws {
    // The app's identifiers (P24L.Limit.dev, P24L.Limit) emptied; the extension's stay literal.
    let folder = try limitCopy(replacing: [
      ("PRODUCT_BUNDLE_IDENTIFIER = P24L.Limit.dev;", "PRODUCT_BUNDLE_IDENTIFIER = \"\";"),
      ("PRODUCT_BUNDLE_IDENTIFIER = P24L.Limit;", "PRODUCT_BUNDLE_IDENTIFIER = \"\";"),
    ])
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("Limit.xcodeproj").path),
      appTarget: "Limit")
    #expect(plan.isBlocked)
    #expect(!plan.buildSettings.contains { $0.edit.key == ProjectConfigurator.containingAppSetting })
    let error = try #require(plan.findings.first { $0.id == "containing-app-unknown" })
    #expect(error.severity == .error)
    #expect(
      error.message
        == "Limit's bundle identifier expands to nothing in Debug, Release (PRODUCT_BUNDLE_IDENTIFIER is empty), "
        + "so ShareExtension's ContainingAppBundleId cannot name it")
    #expect(error.location?.file.hasSuffix("project.pbxproj") == true)
    #expect(error.location?.line != nil)
    #expect(error.fix?.contains("PRODUCT_BUNDLE_IDENTIFIER") == true)
    // The file plan's own "pass --containing-app" (advice for a file configured alone) is left out.
    let share = try #require(plan.targets.first { $0.targetName == "ShareExtension" })
    #expect(!share.plan.findings.contains { $0.id == "containing-app-unknown" })
    #expect(!share.plan.changes.contains { $0.kind == .containingAppBundleID })
  }

  /// KeePassium again (a third trial): its Intune app's queried schemes sit inside `#ifdef INTUNE`, and the
  /// twins configure adds for them went after `#endif`, into the other apps' builds, without a word. The
  /// same shape here: limit's Debug build defines INTUNE, its Release build reads the file without it.
  @Test("additions that change another build of a preprocessed Info.plist are said, naming the keys")
  func additionsChangingAnotherBuild() throws {
    let folder = try preprocessedLimitCopy()
    let infoPlist = folder.appendingPathComponent("Limit/Info.plist")
    let schemes =
      "\t<key>LSApplicationQueriesSchemes</key>\n\t<array>\n#ifdef INTUNE\n\t\t<string>msauthv2</string>\n"
      + "#endif\n\t</array>\n"
    let plist = try String(contentsOf: infoPlist, encoding: .utf8)
    try plist.replacingOccurrences(of: "</dict>\n</plist>", with: schemes + "</dict>\n</plist>")
      .write(to: infoPlist, atomically: true, encoding: .utf8)
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("Limit.xcodeproj").path),
      appTarget: "Limit")
    let warnings = plan.targets.flatMap(\.plan.findings).filter {
      $0.id == "shared-info-plist-changes-other-builds"
    }
    #expect(!warnings.isEmpty)
    let warning = try #require(warnings.first)
    #expect(warning.severity == .warning)
    #expect(warning.message.contains("with no macros (Limit (Release))"), "\(warning.message)")
    #expect(warning.message.contains("LSApplicationQueriesSchemes"), "\(warning.message)")
  }

  /// KeePassium (found by a second trial; GPL, so its files are not vendored) builds one preprocessed
  /// Info.plist for three apps, and only its Intune app defines INTUNE, under which the file holds that app's
  /// IntuneMAMSettings. Configuring another app appended an unconditional IntuneMAMSettings, which the Intune
  /// build then read twice, keeping the added one: it lost its client ID, redirect URI and app group. The
  /// same shape here: limit's app with INTUNE defined in Debug only.
  @Test("a key another build of a preprocessed Info.plist defines under #ifdef is not added over it")
  func conditionalKeyInASharedPreprocessedInfoPlist() throws {
    func plan(conditional: Bool) throws -> ProjectConfigurationPlan {
      let folder = try preprocessedLimitCopy()
      let infoPlist = folder.appendingPathComponent("Limit/Info.plist")
      let settings =
        "\t<key>IntuneMAMSettings</key>\n\t<dict>\n\t\t<key>ADALClientId</key>\n"
        + "\t\t<string>11111111-2222-3333-4444-555555555555</string>\n\t</dict>\n"
      let block = conditional ? "#ifdef INTUNE\n" + settings + "#endif\n" : ""
      let plist = try String(contentsOf: infoPlist, encoding: .utf8)
      try plist.replacingOccurrences(of: "</dict>\n</plist>", with: block + "</dict>\n</plist>")
        .write(to: infoPlist, atomically: true, encoding: .utf8)
      return try ProjectConfigurator.plan(
        project: try XcodeProject(path: folder.appendingPathComponent("Limit.xcodeproj").path),
        appTarget: "Limit")
    }
    let conditional = try plan(conditional: true)
    let conflicts = conditional.targets.flatMap(\.plan.findings).filter {
      $0.id == "conditional-key-in-shared-info-plist"
    }
    #expect(conflicts.count == 1)
    let conflict = try #require(conflicts.first)
    #expect(conflict.severity == .error)
    #expect(conflict.keyPath == ["IntuneMAMSettings"])
    #expect(conflict.message.contains("the macros INTUNE: Limit (Debug)"))
    #expect(conditional.isBlocked)
    // Without the conditional block every build gets the one IntuneMAMSettings planned: nothing to report.
    let plain = try plan(conditional: false)
    #expect(
      !plain.targets.flatMap(\.plan.findings).contains { $0.id == "conditional-key-in-shared-info-plist" })
  }

  /// flash builds one Info.plist with flash (iOS)Debug.entitlements in Debug and
  /// flash (iOS)Release.entitlements in Release: two plans of one file, the second adding to the first.
  @Test("one Info.plist, entitlements per configuration: the second plan says it adds to the first")
  func infoPlistSharedByPlans() throws {
    let folder = try fixtureCopy("flash")
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("flash.xcodeproj").path),
      appTarget: "flash (iOS)")
    let app = plan.targets.filter { $0.targetName == "flash (iOS)" }
    #expect(app.map(\.configurations) == [["Debug"], ["Release"]])
    #expect(app.map(\.infoPlistPlannedBy) == [[], ["flash (iOS) (Debug)"]])
    // Findings point into the file on disk (19 lines), not into the text the Debug plan would write.
    let lines = try String(
      contentsOf: folder.appendingPathComponent("flash--iOS--Info.plist"), encoding: .utf8
    ).split(separator: "\n", omittingEmptySubsequences: false).count
    for target in app {
      for finding in target.plan.findings where finding.file == .infoPlist {
        #expect(
          (finding.position?.line ?? 0) <= lines, "\(finding.id) at \(String(describing: finding.position))")
      }
    }
    let report = try ProjectConfigurationReport.text(plan)
    #expect(!report.contains("flash--iOS--Info.plist: already configured for Intune"))
    #expect(
      report.contains(
        "flash--iOS--Info.plist: nothing to add to the changes planned for flash (iOS) (Debug) above, which "
          + "these configurations build with too"))
    let json = try ProjectConfigurationReport.json(plan, written: [])
    #expect(json.contains("\"infoPlistPlannedBy\""))
  }

  /// fleeting-notes-flutter repeats NSMicrophoneUsageDescription in an Info.plist that its Debug and Release
  /// builds share with different entitlements: the Release plan read the text the Debug plan would write,
  /// so its warning named line 4 (the dictionary) and "first at line 26", a line the file does not have.
  @Test("a key repeated in an Info.plist two plans share: one warning, at its lines on disk")
  func repeatedKeyInSharedInfoPlist() throws {
    let folder = try fixtureCopy("flash")
    let info = folder.appendingPathComponent("flash--iOS--Info.plist")
    let text = try String(contentsOf: info, encoding: .utf8)
    let repeated =
      "\t<key>NSMicrophoneUsageDescription</key>\n\t<string>first</string>\n"
      + "\t<key>NSMicrophoneUsageDescription</key>\n\t<string>second</string>\n</dict>\n</plist>"
    // Lines 18-21 of the file: the later entry at line 20, column 2.
    try text.replacingOccurrences(of: "</dict>\n</plist>", with: repeated).write(
      to: info, atomically: true, encoding: .utf8)
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("flash.xcodeproj").path),
      appTarget: "flash (iOS)")
    let app = plan.targets.filter { $0.targetName == "flash (iOS)" }
    #expect(app.count == 2)
    let warnings = app.flatMap(\.plan.findings).filter { $0.id == "duplicate-key" }
    #expect(warnings.count == 1, "\(warnings.map(\.message))")
    let warning = try #require(warnings.first)
    #expect(warning.position?.line == 20 && warning.position?.column == 2)
    #expect(warning.message.contains("first at line 18, column 2"), "\(warning.message)")
    #expect(app.first?.plan.findings.contains { $0.id == "duplicate-key" } == true)
  }

  @Test("names with spaces and parentheses are quoted in the commands and target lists suggested")
  func targetNamesQuoted() throws {
    let folder = try fixtureCopy("flash")
    let project = try XcodeProject(path: folder.appendingPathComponent("flash.xcodeproj").path)
    let error = #expect(throws: ConfiguratorError.self) {
      try ProjectConfigurator.plan(project: project, appTarget: "Share")
    }
    // Only the iOS app: configure refuses flash (macOS).
    #expect(error?.hint == "use one of: 'flash (iOS)'")
    let missing = #expect(throws: ConfiguratorError.self) {
      try ProjectConfigurator.plan(project: project, appTarget: "flash")
    }
    #expect(missing?.message == "the project has no target named \"flash\"")
    #expect(missing?.hint == "its application targets: 'flash (iOS)'")
    let report = try ProjectLinter().lint(project)
    let fixes = report.findings.compactMap(\.finding.fix).filter { $0.hasPrefix("rulekit configure") }
    #expect(!fixes.isEmpty)
    #expect(fixes.allSatisfy { $0.contains("--target 'flash (iOS)'") })
  }

  /// AssisChat and flash generate their Info.plists (no CFBundleIdentifier in the file).
  @Test("the redirect URI example names $(PRODUCT_BUNDLE_IDENTIFIER) when the Info.plist has no identifier")
  func redirectExampleForGeneratedInfoPlist() throws {
    let folder = try fixtureCopy("assischat")
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("AssisChat.xcodeproj").path),
      appTarget: "AssisChat")
    let app = try #require(plan.targets.first { $0.targetName == "AssisChat" })
    let redirect = try #require(app.plan.findings.first { $0.id == "settings-redirect-missing" })
    #expect(
      redirect.fix
        == "add IntuneMAMSettings › ADALRedirectUri, e.g. msauth.$(PRODUCT_BUNDLE_IDENTIFIER)://auth")
  }

  /// cow-dance (and irccloud, in a blind trial) set INFOPLIST_PREPROCESS = YES: cpp reads the Info.plist as
  /// C, so the suggested `…://auth` would be cut at `//` in the built app.
  @Test("the redirect URI example for a preprocessed Info.plist keeps // out of cpp's reach")
  func redirectExampleForPreprocessedInfoPlist() throws {
    let folder = try fixtureCopy("cow-dance")
    let project = try XcodeProject(path: folder.appendingPathComponent("CowDance.xcodeproj").path)
    let plan = try ProjectConfigurator.plan(project: project, appTarget: "CowDance (iOS)")
    let fixes = plan.targets.flatMap(\.plan.findings).filter { $0.id == "settings-redirect-missing" }
      .compactMap(\.fix)
    #expect(!fixes.isEmpty)
    for fix in fixes {
      #expect(fix.contains(":/$()/auth (this Info.plist is preprocessed as C"), "\(fix)")
      #expect(!fix.contains("://"), "\(fix)")
    }
  }

  /// BlueWallet (trial 3): a sticker pack got IntuneMAMSettings, and --fix-entitlements pointed it at an
  /// unused Stickers.entitlements holding macOS App Sandbox keys, saying it "had no entitlements file".
  @Test(
    "a sticker pack is left alone; an unused entitlements file is adopted only without macOS keys, and said so",
    arguments: [false, true])
  func codelessAndUnusedEntitlements(_ macOSKeys: Bool) throws {
    // The share extension's two configurations name no entitlements; the file stays beside its Info.plist.
    let folder = try limitCopy(replacing: [
      ("\t\t\t\tCODE_SIGN_ENTITLEMENTS = ShareExtension/ShareExtensionDebug.entitlements;\n", ""),
      ("\t\t\t\tCODE_SIGN_ENTITLEMENTS = ShareExtension/ShareExtension.entitlements;\n", ""),
    ])
    let file = folder.appendingPathComponent("ShareExtension/ShareExtension.entitlements")
    if macOSKeys {
      try Data(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>com.apple.security.app-sandbox</key><true/>\
        <key>com.apple.security.network.client</key><true/></dict></plist>
        """.utf8
      ).write(to: file)
    }
    var options = IntuneConfiguratorOptions()
    options.fixEntitlements = true
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("Limit.xcodeproj").path),
      appTarget: "Limit",
      options: options)
    let settings = plan.buildSettings.filter {
      $0.targetName == "ShareExtension" && $0.edit.key == "CODE_SIGN_ENTITLEMENTS"
    }
    let share = try #require(plan.targets.first { $0.targetName == "ShareExtension" })
    if macOSKeys {
      #expect(settings.isEmpty)
      #expect(share.entitlementsPath == nil)
      let warning = try #require(plan.findings.first { $0.id == "entitlements-file-not-adopted" })
      #expect(warning.message.contains("(com.apple.security.app-sandbox, com.apple.security.network.client)"))
    } else {
      #expect(settings.count == 2)
      #expect(
        settings.allSatisfy {
          $0.reason == "ShareExtension had no entitlements file; ShareExtension/ShareExtension.entitlements, "
            + "which no configuration used, is adopted (--fix-entitlements)"
        })
    }
  }

  /// pixelfed (trial 3): the share extension's INFOPLIST_FILE and CODE_SIGN_ENTITLEMENTS are the author's
  /// absolute paths, on two lines each; configure reported one per run (four runs), lint one in all; now
  /// configure reports every missing file in one run, a file two configuration groups share once.
  @Test("every missing file a target's settings name is reported at once, with the path this checkout has")
  func everyMissingPathAtOnce() throws {
    let elsewhere = "/Users/someone/Github/Limit/"
    let folder = try limitCopy(replacing: [
      (
        "INFOPLIST_FILE = ShareExtension/Info.plist;",
        "INFOPLIST_FILE = \"\(elsewhere)ShareExtension/Info.plist\";"
      ),
      (
        "CODE_SIGN_ENTITLEMENTS = ShareExtension/ShareExtension",
        "CODE_SIGN_ENTITLEMENTS = \(elsewhere)ShareExtension/ShareExtension"
      ),
    ])
    let project = try XcodeProject(path: folder.appendingPathComponent("Limit.xcodeproj").path)
    let plan = try ProjectConfigurator.plan(project: project, appTarget: "Limit")
    let missing = plan.findings.filter { $0.id == "file-not-found" }
    // Both files in one run (Limit's Debug and Release are planned apart: their entitlements differ). The
    // Info.plist both groups name is one finding at its first line, naming the second, as the lint says it;
    // the two entitlements files are two findings, each at its own line.
    let info = missing.filter { $0.message.hasPrefix("INFOPLIST_FILE") }
    let entitlements = missing.filter { $0.message.hasPrefix("CODE_SIGN_ENTITLEMENTS") }
    #expect(info.map(\.location?.line) == [339], "\(missing.map(\.message))")
    #expect(info.first?.message.hasSuffix(", which does not exist (also set at line 367)") == true)
    #expect(Set(entitlements.compactMap(\.location?.line)).count == 2, "\(missing.map(\.message))")
    #expect(
      info.first?.fix
        == "set INFOPLIST_FILE = ShareExtension/Info.plist: this checkout has the file there (the path written "
        + "ends the same way), or restore the file")
    let lint = try ProjectLinter().lint(project)
    let lintMissing = lint.findings.filter {
      $0.finding.check == "file-not-found" && $0.finding.message.hasPrefix("INFOPLIST_FILE")
    }
    #expect(lintMissing.count == 1, "\(lintMissing.map(\.finding.message))")
    #expect(lintMissing.first?.finding.message.contains("(Debug, Release)") == true)
    #expect(lintMissing.first?.finding.message.contains("(also set at line 367)") == true)
    #expect(
      lintMissing.first?.finding.fix?.hasPrefix("set INFOPLIST_FILE = ShareExtension/Info.plist") == true)
  }

  /// BlueWallet's own project: the sticker pack and its unused, macOS-keyed Stickers.entitlements stay as they
  /// are with --fix-entitlements, the widget extension is configured, the watch app is carried.
  @Test("BlueWallet: the sticker pack is left alone, the widget configured, the watch app carried")
  func blueWallet() throws {
    let folder = try fixtureCopy("bluewallet")
    let project = try XcodeProject(path: folder.appendingPathComponent("ios/BlueWallet.xcodeproj").path)
    #expect(project.target(named: "BlueWallet")?.embeddedAppTargetNames == ["BlueWalletWatch"])
    var options = IntuneConfiguratorOptions()
    options.fixEntitlements = true
    let plan = try ProjectConfigurator.plan(project: project, appTarget: "BlueWallet", options: options)
    // The app twice: Debug and Release sign with different entitlements files.
    #expect(Set(plan.targets.map(\.targetName)) == ["BlueWallet", "WidgetsExtension"])
    #expect(plan.findings.contains { $0.id == "codeless-extension" && $0.message.hasPrefix("Stickers ") })
    #expect(!plan.buildSettings.contains { $0.targetName == "Stickers" })
    let stickers = folder.appendingPathComponent("ios/Stickers")
    let before = try [
      Data(contentsOf: stickers.appendingPathComponent("Info.plist")),
      Data(contentsOf: stickers.appendingPathComponent("Stickers.entitlements")),
    ]
    try plan.write()
    #expect(
      try [
        Data(contentsOf: stickers.appendingPathComponent("Info.plist")),
        Data(contentsOf: stickers.appendingPathComponent("Stickers.entitlements")),
      ] == before)
  }

  @Test("an iMessage sticker pack an app embeds gets a note, not Intune settings")
  func stickerPackIsLeftAlone() throws {
    let folder = try limitCopy(replacing: [
      (
        "productType = \"com.apple.product-type.app-extension\";",
        "productType = \"com.apple.product-type.app-extension.messages-sticker-pack\";"
      )
    ])
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("Limit.xcodeproj").path),
      appTarget: "Limit")
    #expect(!plan.targets.contains { $0.targetName == "ShareExtension" })
    let note = try #require(plan.findings.first { $0.id == "codeless-extension" })
    #expect(note.severity == .note)
    #expect(note.message.hasPrefix("ShareExtension is an iMessage sticker pack: it has no code"))
  }

  /// An Info.plist that is also a resource fails the build ("Multiple commands produce …/Info.plist"): in
  /// an Xcode 16 synchronized folder unless the target's exception set takes it out, as Limit's does (trial
  /// 3 removed zeeguu's exception by hand and nothing said so), or in a Copy Bundle Resources phase.
  @Test("an Info.plist the target also copies as a resource is reported once")
  func infoPlistCopiedAsResource() throws {
    func findings(_ folder: URL) throws -> [ProjectFinding] {
      let project = try XcodeProject(path: folder.appendingPathComponent("Limit.xcodeproj").path)
      let plan = try ProjectConfigurator.plan(project: project, appTarget: "Limit")
      let lint = try ProjectLinter().lint(project)
      let linted = lint.findings.filter { $0.finding.check == "info-plist-copied-as-resource" }
      let planned = plan.findings.filter { $0.id == "info-plist-copied-as-resource" }
      #expect(linted.count == planned.count)
      return planned
    }
    #expect(try findings(fixtureCopy("limit")).isEmpty)

    let exception = "\t\t\t\tInfo.plist,\n\t\t\t);\n\t\t\ttarget = F0056F7D2E5D79AA00732830"
    let noException = try findings(
      limitCopy(replacing: [(of: exception, with: "\t\t\t);\n\t\t\ttarget = F0056F7D2E5D79AA00732830")]))
    let folder = try #require(noException.first)
    #expect(noException.count == 1)
    #expect(folder.location?.line == 81)  // the folder's group, one line up with the exception's line gone
    #expect(folder.location?.file.hasSuffix("Limit.xcodeproj/project.pbxproj") == true)
    #expect(
      folder.message
        == "ShareExtension's Info.plist ShareExtension/Info.plist lies in the synchronized folder ShareExtension, "
        + "which ShareExtension builds, and no exception takes it out, so it is also copied as a resource: "
        + "Xcode fails with \"Multiple commands produce …/Info.plist\"")
    #expect(folder.fix?.contains("lists Info.plist in membershipExceptions") == true)

    // An exception set for another target adds files to that target; ShareExtension still copies it.
    let otherTarget = try findings(
      limitCopy(replacing: [
        (of: exception, with: "\t\t\t\tInfo.plist,\n\t\t\t);\n\t\t\ttarget = F0B84C972DD71AF30007E370")
      ]))
    #expect(otherTarget.count == 1)

    // The classic shape: the file in the extension's Copy Bundle Resources phase.
    let resources = try findings(
      limitCopy(replacing: [
        (
          of: "/* End PBXBuildFile section */",
          with: "\t\tAA0000000000000000000002 /* Info.plist in Resources */ = {isa = PBXBuildFile; "
            + "fileRef = AA0000000000000000000001 /* Info.plist */; };\n/* End PBXBuildFile section */"
        ),
        (
          of: "/* End PBXFileReference section */",
          with: "\t\tAA0000000000000000000001 /* Info.plist */ = {isa = PBXFileReference; "
            + "path = ShareExtension/Info.plist; sourceTree = SOURCE_ROOT; };\n/* End PBXFileReference section */"
        ),
        (
          of: "F0056F7C2E5D79AA00732830 /* Resources */ = {\n\t\t\tisa = PBXResourcesBuildPhase;\n"
            + "\t\t\tbuildActionMask = 2147483647;\n\t\t\tfiles = (\n",
          with: "F0056F7C2E5D79AA00732830 /* Resources */ = {\n\t\t\tisa = PBXResourcesBuildPhase;\n"
            + "\t\t\tbuildActionMask = 2147483647;\n\t\t\tfiles = (\n"
            + "\t\t\t\tAA0000000000000000000002 /* Info.plist in Resources */,\n"
        ),
      ]))
    let phase = try #require(resources.first)
    #expect(resources.count == 1)
    #expect(phase.fix == "remove Info.plist from ShareExtension's Copy Bundle Resources phase")
  }

  @Test("a macOS-only project names the projects beside it")
  func neighbouringProjects() throws {
    let folder = try fixtureCopy("skugga")
    let path = folder.appendingPathComponent("Apple/macOS/Skugga-macOS.xcodeproj").path
    let error = #expect(throws: ConfiguratorError.self) {
      try AppConfigurator().iOSAppTarget(in: try XcodeProject(path: path))
    }
    #expect(
      error?.message
        == "the project has no iOS application target (its applications, \"Skugga-macOS\", are not iOS apps)")
    #expect(
      error?.hint
        == "configure the Xcode project that builds the iOS app (near this one: ../iOS/Skugga-iOS.xcodeproj)")
  }

  /// Cordova's `cordova/build.xcconfig` sets one CODE_SIGN_ENTITLEMENTS for the app and its share extension
  /// (trial 4's P6, an Ionic sample): the dry run asked for the extension's own keychain group, the fix
  /// did not add it and the second run no longer asked. Now only the app's plan asks for the file's groups,
  /// the fix writes them once, the second run asks for nothing, and a note says the file is shared. Limit with its extension pointed at the app's files.
  @Test(
    "an extension signing with its app's entitlements: asked and written once, by the app's plan")
  func entitlementsSharedWithTheApp() throws {
    let folder = try limitCopy(replacing: [
      (
        "CODE_SIGN_ENTITLEMENTS = ShareExtension/ShareExtensionDebug.entitlements;",
        "CODE_SIGN_ENTITLEMENTS = Limit/Limit.entitlements;"
      ),
      (
        "CODE_SIGN_ENTITLEMENTS = ShareExtension/ShareExtension.entitlements;",
        "CODE_SIGN_ENTITLEMENTS = Limit/LimitRelease.entitlements;"
      ),
    ])
    let path = folder.appendingPathComponent("Limit.xcodeproj").path
    func plan(fixing: Bool) throws -> ProjectConfigurationPlan {
      try ProjectConfigurator.plan(
        project: try XcodeProject(path: path), appTarget: "Limit",
        options: IntuneConfiguratorOptions(fixEntitlements: fixing))
    }
    let dryRun = try plan(fixing: false)
    let notes = dryRun.findings.filter { $0.id == "entitlements-shared-with-app" }
    #expect(notes.count == 2)
    #expect(notes.first?.message.hasPrefix("ShareExtension signs with Limit's entitlements file ") == true)
    // The app's plan asks for the groups of the file both sign with; the extension's asks for none.
    let asked = dryRun.targets.filter { $0.plan.findings.contains { $0.id == "keychain-groups-missing" } }
    #expect(Set(asked.map(\.targetName)) == ["Limit"])

    _ = try plan(fixing: true).write()
    let again = try plan(fixing: true)
    let keychain = again.targets.flatMap(\.plan.findings).filter { $0.id.hasPrefix("keychain") }
    #expect(keychain.isEmpty, "\(keychain.map(\.message))")
    #expect(again.targets.allSatisfy { $0.plan.changes.allSatisfy { $0.kind != .keychainAccessGroup } })
  }

  /// Yattee's app target builds iOS, macOS and tvOS (`SUPPORTED_PLATFORMS`) from one Info.plist and, in
  /// Debug, one entitlements file (trial 4's P5): configure edited them for every platform and said nothing.
  /// Limit's app made multiplatform, its Release macOS build signing with a file of its own.
  @Test("a multiplatform target: the files its macOS build shares with its iOS build are named")
  func multiplatformTarget() throws {
    let folder = try limitCopy(replacing: [
      // The app's two configurations (the extension's say nothing of platforms).
      (
        "SUPPORTED_PLATFORMS = \"iphoneos iphonesimulator\";",
        "SUPPORTED_PLATFORMS = \"iphoneos iphonesimulator macosx\";"
      ),
      (
        "CODE_SIGN_ENTITLEMENTS = Limit/LimitRelease.entitlements;",
        "CODE_SIGN_ENTITLEMENTS = Limit/LimitRelease.entitlements;\n\t\t\t\t"
          + "\"CODE_SIGN_ENTITLEMENTS[sdk=macosx*]\" = Limit/LimitMac.entitlements;"
      ),
    ])
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: folder.appendingPathComponent("Limit.xcodeproj").path),
      appTarget: "Limit")
    let shared = plan.findings.filter { $0.id == ProjectPlanner.otherPlatformFileNote }
    #expect(shared.count == 2, "\(shared.map(\.message))")
    let info = try #require(shared.first { $0.severity == .note })
    #expect(
      info.message
        == "Limit also builds for macOS (SUPPORTED_PLATFORMS), and its macOS (Debug, Release) builds read the "
        + "same Info.plist as its iOS build, Limit/Info.plist: the Intune App SDK is for iOS only, and the keys "
        + "configure adds reach those builds too, where nothing reads them")
    let entitlements = try #require(shared.first { $0.severity == .warning })
    #expect(entitlements.message.contains("its macOS (Debug) builds read the same entitlements file"))
    #expect(entitlements.location?.file.hasSuffix("project.pbxproj") == true)
    // The extension builds for iOS only: nothing about it.
    #expect(!shared.contains { $0.message.hasPrefix("ShareExtension") })
  }

  /// seafile's app lists its Info.plist, `seafile-appstore-Info.plist`, in Copy Bundle Resources: under
  /// that name the copy does not collide with the processed Info.plist, so Xcode warns rather than fails.
  /// (Opened by a relative path, as the CLI opens it: the check once missed every file then.)
  @Test("an Info.plist of another name in Copy Bundle Resources: Xcode's warning, not its error")
  func infoPlistOfAnotherNameCopied() throws {
    // Planning reads and writes nothing: the vendored project, by the path relative to the package root
    // that tests run in.
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: "Tests/Fixtures/xcode-projects/seafile/seafilePro.xcodeproj"),
      appTarget: "seafileApp")
    let copied = plan.findings.filter { $0.id == "info-plist-copied-as-resource" }
    #expect(
      copied.map(\.message) == [
        "seafileApp's Info.plist seafile/Supporting Files/seafile-appstore-Info.plist is also in its Copy Bundle "
          + "Resources phase: Xcode warns that the Copy Bundle Resources build phase contains the target's "
          + "Info.plist file, and the app ships a copy of it as seafile-appstore-Info.plist"
      ])
    #expect(copied.first?.location?.line == 1073)
  }

  /// A React Native library's repository (react-native-share-menu, trial 4's P9): `--project .` finds the
  /// library's `ios/` project, which builds no app; the example app's project sits in `example/ios/`. Built
  /// from vendored projects: skugga's macOS project as the library's, Limit's as the example's.
  @Test("a project without an iOS app names the app projects deeper below the folder above it")
  func nestedAppProject() throws {
    let skugga = try fixtureCopy("skugga")
    let limit = try fixtureCopy("limit")
    let root = skugga.deletingLastPathComponent().appendingPathComponent("repository")
    let manager = FileManager.default
    try manager.createDirectory(
      at: root.appendingPathComponent("example/ios"), withIntermediateDirectories: true)
    try manager.createDirectory(at: root.appendingPathComponent("ios"), withIntermediateDirectories: true)
    try manager.copyItem(
      at: skugga.appendingPathComponent("Apple/macOS/Skugga-macOS.xcodeproj"),
      to: root.appendingPathComponent("ios/Library.xcodeproj"))
    try manager.copyItem(
      at: limit.appendingPathComponent("Limit.xcodeproj"),
      to: root.appendingPathComponent("example/ios/Limit.xcodeproj"))
    let project = try XcodeProject(path: root.path)
    #expect(project.path.hasSuffix("/ios/Library.xcodeproj"))
    let error = #expect(throws: ConfiguratorError.self) {
      try AppConfigurator().iOSAppTarget(in: project)
    }
    #expect(
      error?.hint
        == "configure the Xcode project that builds the iOS app (near this one: ../example/ios/Limit.xcodeproj)"
    )
  }
}

@Suite("ShellWord quotes the words of suggested commands")
struct ShellWordTests {
  @Test(
    "quoted",
    arguments: [
      ("Limit", "Limit"), ("flash (iOS)", "'flash (iOS)'"), ("My App", "'My App'"),
      ("App/Info.plist", "App/Info.plist"), ("Supporting Files/Info.plist", "'Supporting Files/Info.plist'"),
      ("it's", "'it'\\''s'"), ("", "''"), ("$(VAR)", "'$(VAR)'"), ("a*b", "'a*b'"), ("ümlaut", "'ümlaut'"),
    ])
  func quoted(_ word: String, _ expected: String) {
    #expect(ShellWord.quoted(word) == expected)
  }
}
