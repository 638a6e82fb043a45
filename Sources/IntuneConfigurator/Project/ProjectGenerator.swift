import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A tool that writes the Xcode project from a spec, so the next generation replaces what the configurator
/// changed in the project file (and, where the spec generates them, in the Info.plist and entitlements).
public struct ProjectGenerator: Sendable, Hashable {
  /// Which tool.
  public enum Kind: String, Sendable, Hashable, Codable {
    /// XcodeGen (`project.yml`).
    case xcodeGen = "xcodegen"
    /// Tuist (`Project.swift`).
    case tuist
  }

  /// Which tool generates the project.
  public var kind: Kind
  /// The spec file, e.g. `project.yml`.
  public var specPath: String
  /// For XcodeGen, the spec file that defines each target named here when it is not ``specPath`` but a
  /// file `project.yml` includes (`include: - path: App/target.yml`), where the target is best changed.
  public var targetSpecPaths: [String: String] = [:]

  /// For XcodeGen, the keys of each target's mapping in the spec (`info`, `entitlements`, `settings`, …).
  var targetSpecKeys: [String: Set<String>] = [:]

  /// The spec file that defines `target`.
  public func specPath(forTarget target: String) -> String { targetSpecPaths[target] ?? specPath }

  /// A file of a target that the generator may write.
  public enum GeneratedFile: Sendable, Hashable {
    /// The target's Info.plist.
    case infoPlist
    /// The target's entitlements file.
    case entitlements
  }

  /// Whether the next generation writes `file` of `target` at `path` (so changes made to it are lost):
  /// XcodeGen writes a target's Info.plist and entitlements when its spec has `info:` and `entitlements:`
  /// (XcodeGen's ProjectSpec: "info: … will generate and write an Info.plist to the specified path"), or
  /// may have them from its `templates:`; Tuist
  /// writes those it generates into `Derived/InfoPlists` and `Derived/Entitlements`, and leaves a file its
  /// manifest names with `.file(path:)` as it is.
  public func generates(_ file: GeneratedFile, ofTarget target: String, at path: String) -> Bool {
    switch kind {
    case .xcodeGen:
      // A target built from `templates:` may get `info:` from one: listed, to be safe.
      let keys = targetSpecKeys[target] ?? []
      return keys.contains(file == .infoPlist ? "info" : "entitlements") || keys.contains("templates")
    case .tuist:
      return path.contains("/Derived/InfoPlists/") || path.contains("/Derived/Entitlements/")
        || path.hasPrefix("Derived/")
    }
  }

  /// The generator whose spec sits beside the project (`project.yml`, `project.yaml`, `Project.swift`).
  static func detect(beside project: XcodeProject) -> ProjectGenerator? {
    let candidates: [(String, Kind)] = [
      ("project.yml", .xcodeGen), ("project.yaml", .xcodeGen), ("Project.swift", .tuist),
    ]
    for (name, kind) in candidates {
      let path = ProjectPlanner.join(project.sourceRoot, name)
      if FileManager.default.fileExists(atPath: path) {
        var generator = ProjectGenerator(kind: kind, specPath: path)
        if kind == .xcodeGen {
          let spec = XcodeGenSpec.read(spec: path)
          generator.targetSpecPaths = spec.files
          generator.targetSpecKeys = spec.keys
        }
        return generator
      }
    }
    return nil
  }
}

/// What to add to one spec file so the next generation keeps a plan's changes.
public struct SpecAddition: Sendable, Hashable {
  /// The spec file: `project.yml`, or the file it includes that defines the targets named in ``text``.
  public var specPath: String
  /// The YAML (XcodeGen) or the keys (Tuist) to add.
  public var text: String
}

extension ProjectConfigurationPlan {
  /// What to add to the generator's spec so the next generation keeps this plan's changes: XcodeGen YAML
  /// (`targets › NAME › settings › configs` for build settings, `info › properties` and
  /// `entitlements › properties` for the files a spec generates), or for Tuist the same keys as a list.
  /// Empty when the plan changes nothing. ``specAdditionsByFile()`` splits it by the file defining each
  /// target.
  public func specAdditions() throws(PropertyListError) -> String {
    try specAdditionsByFile().map(\.text).joined()
  }

  /// ``specAdditions()`` for each spec file that defines a changed target, `project.yml` first: XcodeGen
  /// reads targets from the files `project.yml` includes, and a target is best changed where it is written.
  public func specAdditionsByFile() throws(PropertyListError) -> [SpecAddition] {
    guard let generator else { return [] }
    var settingsByTarget: [String: [(configuration: String, name: String, value: String)]] = [:]
    for setting in buildSettings {
      settingsByTarget[setting.targetName, default: []].append(
        (setting.configuration, setting.edit.name, setting.edit.value))
    }
    var linesByFile: [String: [String]] = [:]
    for target in targets {
      // Only the files the generator writes lose their changes; a checked-in Info.plist keeps them.
      var generated:
        [(file: ProjectGenerator.GeneratedFile, keys: [(key: String, value: PropertyListValue)])] = []
      for (kind, file, changed, path) in [
        (
          ProjectGenerator.GeneratedFile.infoPlist, target.plan.infoPlist,
          try target.plan.configuredInfoPlist(),
          target.infoPlistPath
        ),
        (
          .entitlements, target.plan.entitlements, try target.plan.configuredEntitlements(),
          target.entitlementsPath ?? ""
        ),
      ] {
        guard generator.generates(kind, ofTarget: target.targetName, at: path), let changed,
          case .dictionary(let after) = changed.value
        else { continue }
        let before = file?.value.dictionaryValue ?? PropertyListDictionary()
        let keys = after.entries.filter { before[$0.key] != $0.value }.map { (key: $0.key, value: $0.value) }
        if !keys.isEmpty { generated.append((kind, keys)) }
      }
      let settings = settingsByTarget[target.targetName] ?? []
      guard !settings.isEmpty || !generated.isEmpty else { continue }
      let file = generator.specPath(forTarget: target.targetName)
      linesByFile[file, default: []] +=
        generator.kind == .xcodeGen
        ? XcodeGenSpec.additions(target: target.targetName, settings: settings, files: generated)
        : TuistManifest.additions(target: target.targetName, settings: settings, files: generated)
    }
    let files = linesByFile.keys.sorted {
      ($0 == generator.specPath ? 0 : 1, $0) < ($1 == generator.specPath ? 0 : 1, $1)
    }
    return files.map { file in
      let lines = linesByFile[file] ?? []
      switch generator.kind {
      case .xcodeGen:
        return SpecAddition(specPath: file, text: (["targets:"] + lines).joined(separator: "\n") + "\n")
      case .tuist:
        return SpecAddition(specPath: file, text: lines.joined(separator: "\n") + "\n")
      }
    }
  }
}
