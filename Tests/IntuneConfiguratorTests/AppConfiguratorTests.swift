import Foundation
import PropertyLists
import Testing

@testable import IntuneConfigurator

/// The public entry point: plan from paths, review, apply; errors at their file, line and column.
@Suite("AppConfigurator: plan, report, apply")
struct AppConfiguratorTests {
  static let fixtures = ConfiguratorFixtures.inputs

  /// A temporary folder with `files` copied from the fixtures (fixture name → name in the folder).
  static func folder(_ files: [String: String]) throws -> URL {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-app-\(UUID().uuidString)")
    for (fixture, name) in files {
      let destination = root.appendingPathComponent(name)
      try FileManager.default.createDirectory(
        at: destination.deletingLastPathComponent(), withIntermediateDirectories: true)
      try FileManager.default.copyItem(at: fixtures.appendingPathComponent(fixture), to: destination)
    }
    return root
  }

  @Test("a plan from paths equals the plan of the files read, and applying it leaves nothing to do")
  func planFromPathsThenApply() throws {
    let root = try Self.folder([
      "App-Info.plist": "App/Info.plist", "App.entitlements": "App/App.entitlements",
    ])
    defer { try? FileManager.default.removeItem(at: root) }
    let info = root.appendingPathComponent("App/Info.plist").path
    let entitlements = root.appendingPathComponent("App/App.entitlements").path
    let configurator = AppConfigurator()
    let plan = try configurator.plan(infoPlistAt: info, entitlementsAt: entitlements)
    let read = try configurator.plan(
      infoPlist: PropertyListFile.read(contentsOf: info),
      entitlements: PropertyListFile.read(contentsOf: entitlements))
    #expect(plan.changes == read.changes && !plan.changes.isEmpty)
    #expect(
      plan.report() == ConfigurationReport.text(plan, infoPlistName: info, entitlementsName: entitlements))
    #expect(try plan.diff().contains(info))
    let expectedInfo = try plan.configuredInfoPlist().serialized()
    let written = try plan.apply()
    #expect(written.contains(info))
    #expect(try Data(contentsOf: URL(fileURLWithPath: info)) == expectedInfo)
    #expect(try configurator.plan(infoPlistAt: info, entitlementsAt: entitlements).changes.isEmpty)
  }

  @Test("apply with a destination writes a copy of the Info.plist, even unchanged, and leaves the original")
  func applyToADestination() throws {
    let root = try Self.folder(["App-Info.plist": "App/Info.plist"])
    defer { try? FileManager.default.removeItem(at: root) }
    let info = root.appendingPathComponent("App/Info.plist").path
    let copy = root.appendingPathComponent("Configured.plist").path
    let before = try Data(contentsOf: URL(fileURLWithPath: info))
    let plan = try AppConfigurator().plan(infoPlistAt: info, entitlementsAt: nil)
    #expect(try plan.apply(infoPlistTo: copy) == [copy])
    #expect(try Data(contentsOf: URL(fileURLWithPath: info)) == before)
    let again = try AppConfigurator().plan(infoPlistAt: copy, entitlementsAt: nil)
    #expect(again.changes.isEmpty)
    #expect(try again.apply(infoPlistTo: info) == [info])
  }

  @Test("an extension's containing app is found beside it when the options name none")
  func containingAppFoundBesideTheExtension() throws {
    let root = try Self.folder(["Share-Info.plist": "Share/Info.plist"])
    defer { try? FileManager.default.removeItem(at: root) }
    try FileManager.default.createDirectory(
      at: root.appendingPathComponent("Notes"), withIntermediateDirectories: true)
    let app = root.appendingPathComponent("Notes/Info.plist")
    try Data(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0"><dict><key>CFBundleIdentifier</key><string>com.contoso.notes</string></dict></plist>
      """.utf8
    ).write(to: app)
    let share = root.appendingPathComponent("Share/Info.plist").path
    let plan = try AppConfigurator().plan(infoPlistAt: share, entitlementsAt: nil)
    #expect(plan.containingAppInfoPlistPath == app.standardizedFileURL.path)
    let configured = try plan.configuredInfoPlist().value
    #expect(
      configured.value(at: ["IntuneMAMSettings", "ContainingAppBundleId"])?.stringValue == "com.contoso.notes"
    )
    // Named in the options, the app is not looked for.
    let named = try AppConfigurator(
      options: IntuneConfiguratorOptions(containingApp: ContainingApp(bundleIdentifier: "com.contoso.other"))
    ).plan(infoPlistAt: share, entitlementsAt: nil)
    #expect(named.containingAppInfoPlistPath == nil)
  }

  @Test("a file that does not parse is an error at its file, line and column, with the underlying error")
  func malformedFileIsLocated() throws {
    let root = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-app-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: root) }
    let path = root.appendingPathComponent("Info.plist").path
    try Data("<plist version=\"1.0\">\n<dict>\n  <key>A</key>\n  <strin>x</string>\n</dict>\n</plist>\n".utf8)
      .write(to: URL(fileURLWithPath: path))
    let error = try #require(throws: ConfiguratorError.self) {
      try AppConfigurator().plan(infoPlistAt: path, entitlementsAt: nil)
    }
    #expect(error.kind == .file && error.kind.rawValue == "file")
    #expect(error.location?.file == path && error.location?.line == 4 && error.location?.column == 3)
    #expect(error.propertyListError?.position?.line == 4)
    #expect(error.description == "\(path):4:3: error: \(error.message)")
  }

  @Test("a missing file is an error naming it; a missing project is a project error")
  func missingFiles() throws {
    let missing = try #require(throws: ConfiguratorError.self) {
      try AppConfigurator().plan(infoPlistAt: "/nonexistent/Info.plist", entitlementsAt: nil)
    }
    #expect(missing.kind == .file && missing.location?.file == "/nonexistent/Info.plist")
    #expect(missing.propertyListError?.kind == .fileNotFound)
    let project = try #require(throws: ConfiguratorError.self) {
      try AppConfigurator().plan(projectAt: "/nonexistent/App.xcodeproj", appTarget: "App")
    }
    #expect(project.kind == .project && project.projectError?.kind == .fileNotFound)
  }

  @Test("kinds have stable codes; equality ignores the underlying error")
  func kindsAndEquality() {
    #expect(
      [ConfiguratorError.Kind.notADictionary, .activationRule, .project, .file].map(\.rawValue) == [
        "not-a-dictionary", "activation-rule", "project", "file",
      ])
    let located = ConfiguratorError.Location(file: "Info.plist", line: 3, column: 7)
    let a = ConfiguratorError(
      .activationRule, "bad", location: located, underlying: PropertyListError(.io, "x"))
    let b = ConfiguratorError(.activationRule, "bad", location: located)
    #expect(a == b && a.hashValue == b.hashValue)
    #expect(a.description == "Info.plist:3:7: error: bad")
    #expect(
      ConfiguratorError.notADictionary(file: "E.entitlements").description.hasPrefix(
        "E.entitlements: error: "))
  }
}
