import ActivationRules
import Foundation
import IntuneConfigurator
import RuleKitTesting
import Testing

/// The sample app's folder, beside this package.
let sampleApp = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
  .appendingPathComponent("../../../SampleApp").standardizedFileURL.path

/// A temporary folder holding `files` (name → contents), removed when `body` returns.
func withFolder<T>(_ files: [String: String], _ body: (String) throws -> T) throws -> T {
  let folder = FileManager.default.temporaryDirectory.appendingPathComponent(UUID().uuidString)
  try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
  defer { try? FileManager.default.removeItem(at: folder) }
  for (name, text) in files {
    let url = folder.appendingPathComponent(name)
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: url)
  }
  return try body(folder.path)
}

/// The sample share extension's activation rule, checked the way an app's own test target would check its
/// extension: straight from the Info.plist the extension ships.
@Suite("Share extension rule")
struct ShareExtensionRuleTests {
  let share: RuleUnderTest

  init() throws {
    share = try RuleUnderTest(contentsOf: "../../../SampleApp/ShareExtension/Info.plist")
  }

  @Test(
    "shows up for web pages, a few photos and PDFs",
    arguments: [HostPreset.safariPage, .photos(count: 3), .filesPDF])
  func activates(for host: HostPreset) {
    expectActivation(share, for: host)
  }

  /// The shipped rule predates Intune; configured through the library (planned, then applied to a copy), it
  /// accepts the twin types managed apps share, and still everything it accepted before.
  @Test("once configured for Intune, it also shows up for managed apps")
  func configuredRuleAcceptsManagedApps() throws {
    let shipped = try String(contentsOfFile: "\(sampleApp)/ShareExtension/Info.plist", encoding: .utf8)
    let configured = try withFolder(["Info.plist": shipped]) { folder in
      let configurator = AppConfigurator(
        options: IntuneConfiguratorOptions(
          containingApp: ContainingApp(bundleIdentifier: "com.example.notes")))
      let plan = try configurator.plan(infoPlistAt: "\(folder)/Info.plist", entitlementsAt: nil)
      #expect(plan.changes.contains { $0.kind == .activationRule })
      #expect(try plan.apply() == ["\(folder)/Info.plist"])
      return try RuleUnderTest(contentsOf: "\(folder)/Info.plist")
    }
    expectNoActivation(share, for: .intuneManagedApp)
    expectActivation(configured, for: .intuneManagedApp)
    for host in [HostPreset.safariPage, .photos(count: 3), .filesPDF] {
      expectActivation(configured, for: host)
    }
  }

  @Test("stays hidden for six photos and for text", arguments: [HostPreset.photos(count: 6), .mail])
  func staysHidden(for host: HostPreset) {
    expectNoActivation(share, for: host)
  }

  @Test("a link and a PDF shared together in one item")
  func linkAndPDF() {
    expectActivation(share, on: ExtensionContext(attachments: [["public.url"], ["com.adobe.pdf"]]))
  }
}

/// What a configurator wrapper relies on: a plan for an unconfigured app, nothing left to do once it is
/// applied, and errors at the line and column of the file that has them.
@Suite("Configurator through the library")
struct ConfiguratorTests {
  @Test("the sample app needs changes, and none after they are applied")
  func planThenIdempotent() throws {
    let info = try String(contentsOfFile: "\(sampleApp)/App/Info.plist", encoding: .utf8)
    let entitlements = try String(contentsOfFile: "\(sampleApp)/App/App.entitlements", encoding: .utf8)
    try withFolder(["Info.plist": info, "App.entitlements": entitlements]) { folder in
      let configurator = AppConfigurator()
      let plan = try configurator.plan(
        infoPlistAt: "\(folder)/Info.plist", entitlementsAt: "\(folder)/App.entitlements")
      #expect(!plan.changes.isEmpty && !plan.isBlocked)
      #expect(plan.report().contains("url-scheme-twin"))
      try plan.apply()
      let again = try configurator.plan(
        infoPlistAt: "\(folder)/Info.plist", entitlementsAt: "\(folder)/App.entitlements")
      #expect(again.changes.isEmpty)
    }
  }

  @Test("a malformed Info.plist is reported at its file, line and column")
  func malformedPlistHasALocation() throws {
    let text =
      "<plist version=\"1.0\">\n<dict>\n  <key>CFBundleIdentifier</key>\n  <strin>x</string>\n</dict>\n"
    try withFolder(["Info.plist": text + "</plist>\n"]) { folder in
      let path = "\(folder)/Info.plist"
      #expect {
        try AppConfigurator().plan(infoPlistAt: path, entitlementsAt: nil)
      } throws: { error in
        guard let error = error as? ConfiguratorError else { return false }
        return error.kind == .file && error.location?.file == path && error.location?.line == 4
          && error.location?.column != nil && "\(error)".hasPrefix("\(path):4:")
      }
    }
  }

  @Test("a syntax error in an extension's rule is reported where it is in the Info.plist")
  func ruleSyntaxErrorHasALocation() throws {
    let text = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>CFBundleIdentifier</key>
      \t<string>com.example.notes.share</string>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<string>SUBQUERY(extensionItems, $e, ANY $e.attachments.registeredTypeIdentifiers
      \t\t\t\tUTI-CONFORMS-TO "public.text\u{201D}).@count == 1</string>
      \t\t</dict>
      \t</dict>
      </dict>
      </plist>

      """
    try withFolder(["Share/Info.plist": text]) { folder in
      let path = "\(folder)/Share/Info.plist"
      let configurator = AppConfigurator(
        options: IntuneConfiguratorOptions(
          containingApp: ContainingApp(bundleIdentifier: "com.example.notes")))
      #expect {
        try configurator.plan(infoPlistAt: path, entitlementsAt: nil)
      } throws: { error in
        guard let error = error as? ConfiguratorError else { return false }
        return error.kind == .activationRule && error.location?.line == 12
          && "\(error)".hasPrefix("\(path):12:")
      }
    }
  }
}
