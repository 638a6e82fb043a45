import Foundation
import PropertyLists
import Testing

@testable import IntuneConfigurator

/// A .NET MAUI or Xamarin head: MSBuild, not Xcode, builds it, and its entitlements step expands only
/// `$(AppIdentifierPrefix)`, `$(TeamIdentifierPrefix)` and `$(CFBundleIdentifier)` (dotnet/macios,
/// `CompileEntitlements`). Trial 4 found `--fix-entitlements` writing `$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)`
/// into a MAUI app's `Platforms/iOS/Entitlements.plist`, which that build leaves unexpanded.
@Suite("a .NET head's bundle ID is spelt $(CFBundleIdentifier)")
struct DotNetHeadTests {
  /// A MAUI head's Info.plist: no CFBundleIdentifier (the .csproj's ApplicationId supplies it).
  static let info = "\t<key>CFBundleDisplayName</key>\n\t<string>Widgets</string>\n"

  static func plan(dotNetProject: String?) throws -> ConfigurationPlan {
    var options = IntuneConfiguratorOptions(fixEntitlements: true)
    options.dotNetProject = dotNetProject
    return try AppConfigurator.plan(
      infoPlist: ConfiguratorFixtures.document(body: info),
      entitlements: ConfiguratorFixtures.document(body: "", path: "Entitlements.plist"), options: options)
  }

  static func keychainGroups(_ plan: ConfigurationPlan) throws -> [String] {
    let entitlements = try #require(try plan.configuredEntitlements())
    return entitlements.value.dictionaryValue?["keychain-access-groups"]?.arrayValue?.compactMap(
      \.stringValue)
      ?? []
  }

  @Test func dotNetSpellsTheBundleIDAsItsBuildExpandsIt() throws {
    let groups = try Self.keychainGroups(Self.plan(dotNetProject: "Widgets/MauiAppleWidgets.csproj"))
    #expect(groups.first == "$(AppIdentifierPrefix)$(CFBundleIdentifier)")
    #expect(!groups.contains { $0.contains("PRODUCT_BUNDLE_IDENTIFIER") })
  }

  @Test func xcodeKeepsItsBuildSetting() throws {
    let groups = try Self.keychainGroups(Self.plan(dotNetProject: nil))
    #expect(groups.first == "$(AppIdentifierPrefix)$(PRODUCT_BUNDLE_IDENTIFIER)")
  }

  /// The .csproj is found in the Info.plist's folder or up to three folders above, the nearest first; the
  /// search stops at the repository's root.
  @Test func theProjectFileIsFoundAboveTheInfoPlist() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-dotnet-\(UUID().uuidString)")
    defer { try? FileManager.default.removeItem(at: root) }
    let head = root.appendingPathComponent("Widgets")
    let platform = head.appendingPathComponent("Platforms/iOS")
    try FileManager.default.createDirectory(at: platform, withIntermediateDirectories: true)
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent(".git"), withIntermediateDirectories: true)
    let infoPlist = platform.appendingPathComponent("Info.plist").path
    try Data().write(to: URL(fileURLWithPath: infoPlist))
    #expect(AppConfigurator.dotNetProject(forFileAt: infoPlist) == nil)
    try Data().write(to: head.appendingPathComponent("Widgets.csproj"))
    #expect(AppConfigurator.dotNetProject(forFileAt: infoPlist)?.hasSuffix("/Widgets/Widgets.csproj") == true)
    // Two in the nearest folder that has any: not one project, so none.
    try Data().write(to: head.appendingPathComponent("Other.csproj"))
    #expect(AppConfigurator.dotNetProject(forFileAt: infoPlist) == nil)
  }
}
