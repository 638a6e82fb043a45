import Foundation
import IntuneConfigurator
import PropertyLists
import Testing
import XcodeProjects

/// A copy of one real project from `Tests/Fixtures/xcode-projects` in a temporary folder, so it can be
/// configured and read back.
struct CorpusProject: CustomTestStringConvertible, Sendable {
  static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fixtures/xcode-projects")

  let name: String
  /// The `.xcodeproj`, relative to the project's folder.
  let project: String
  let app: String

  var testDescription: String { name }

  /// Every corpus project that has an `.xcodeproj` (XcodeGen-only folders have none to configure).
  static let all: [CorpusProject] = {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: root.path))?.sorted() ?? []
    return names.compactMap { name in
      let expected = root.appendingPathComponent(name).appendingPathComponent("expected.json")
      guard let data = try? Data(contentsOf: expected),
        let document = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
        let project = document["project"] as? String, let app = document["app"] as? String
      else { return nil }
      return CorpusProject(name: name, project: project, app: app)
    }
  }()

  /// Copies the project's folder into a new temporary folder and returns the copy's `.xcodeproj` path.
  func copy() throws -> String {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rk-corpus-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    let destination = scratch.appendingPathComponent(name)
    try FileManager.default.copyItem(at: Self.root.appendingPathComponent(name), to: destination)
    return destination.appendingPathComponent(project).path
  }
}

@Suite("configure --project on real projects: right in every configuration, and a second run changes nothing")
struct ProjectCorpusTests {
  @Test("the corpus has the projects the acceptance names")
  func corpusIsThere() {
    #expect(CorpusProject.all.count >= 10)
  }

  @Test(arguments: CorpusProject.all)
  func configuredProjectIsRightInEveryConfiguration(_ corpus: CorpusProject) throws {
    let path = try corpus.copy()
    defer {
      try? FileManager.default.removeItem(atPath: URL(fileURLWithPath: path).deletingLastPathComponent().path)
    }
    let options = IntuneConfiguratorOptions(fixEntitlements: true)
    let plan = try ProjectConfigurator.plan(
      project: try XcodeProject(path: path), appTarget: corpus.app, options: options)
    #expect(!plan.isBlocked, "\(plan.findings.filter { $0.severity == .error })")
    try plan.write()

    // Read back through the project as Xcode would build it.
    let project = try XcodeProject(path: path)
    let app = try #require(project.target(named: corpus.app))
    var appIdentifiers: [String: String] = [:]
    for configuration in project.configurationNames(for: app) {
      let settings = try project.buildSettings(target: app, configuration: configuration)
      let info = try Self.infoPlist(settings)
      #expect(info["IntuneMAMSettings"]?.dictionaryValue != nil, "\(corpus.name) \(configuration)")
      appIdentifiers[configuration] = settings.expand(
        info["CFBundleIdentifier"]?.stringValue ?? "$(PRODUCT_BUNDLE_IDENTIFIER)")
    }
    let extensions = project.embeddedTargets(of: app).filter(\.isAppExtension)
    #expect(!extensions.isEmpty)
    for target in extensions {
      for configuration in project.configurationNames(for: target) {
        let settings = try project.buildSettings(target: target, configuration: configuration)
        let settingsDictionary = try #require(
          try Self.infoPlist(settings)["IntuneMAMSettings"]?.dictionaryValue)
        let written = try #require(settingsDictionary["ContainingAppBundleId"]?.stringValue)
        let expected = appIdentifiers[configuration] ?? appIdentifiers.values.first
        #expect(
          settings.expand(written) == expected,
          "\(corpus.name) › \(target.name) › \(configuration): \(written) → \(settings.expand(written))")
        // Every extension has an entitlements file now (--fix-entitlements), wired into its settings.
        let entitlementsPath = try #require(settings.path(for: "CODE_SIGN_ENTITLEMENTS"), "\(target.name)")
        let entitlements = try PropertyListFile.read(contentsOf: entitlementsPath)
        // AppGroupIdentifiers names this configuration's app groups, whatever the other configurations use.
        let groups = Set(
          entitlements.value.dictionaryValue?["com.apple.security.application-groups"]?.arrayValue?
            .compactMap(\.stringValue).map(settings.expand) ?? [])
        let listed = Set(
          settingsDictionary["AppGroupIdentifiers"]?.arrayValue?.compactMap(\.stringValue).map(
            settings.expand)
            ?? [])
        #expect(listed == groups, "\(corpus.name) › \(target.name) › \(configuration)")
      }
    }

    // A second run plans nothing and writes nothing.
    let again = try ProjectConfigurator.plan(project: project, appTarget: corpus.app, options: options)
    #expect(
      again.isEmpty,
      "\(again.buildSettings.map(\.edit.description)) \(again.targets.flatMap(\.plan.changes).map(\.summary))"
    )
    #expect(try again.filesToWrite().isEmpty)
  }

  static func infoPlist(_ settings: ResolvedBuildSettings) throws -> PropertyListDictionary {
    let path = try #require(settings.path(for: "INFOPLIST_FILE"))
    return try #require(
      PropertyListFile.read(contentsOf: path, duplicateKeys: .keepLast).value.dictionaryValue)
  }
}
