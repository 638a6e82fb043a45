import ActivationRules
import PropertyLists
import UniformTypes
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

// Which targets `rulekit lint --project` checks, and the Info.plists each one builds with.

extension ProjectLinter {
  /// A target to check, and the apps that embed it (for an extension).
  struct Entry {
    var target: XcodeTarget
    var apps: [String]
  }

  /// The targets `names` asks for (every application when empty), each app followed by its extensions.
  static func selectTargets(_ project: XcodeProject, _ names: [String]) throws(ConfiguratorError) -> [Entry] {
    // As words to paste after --target.
    let checkable = project.targets.filter { $0.isApplication || $0.isAppExtension }.map {
      ShellWord.quoted($0.name)
    }
    let location = BuildSettingLocation(file: project.pbxprojPath)
    var selected: [XcodeTarget] = []
    if names.isEmpty {
      selected = project.targets.filter(\.isApplication)
      guard !selected.isEmpty else {
        throw .project(
          XcodeProjectError(
            .targetNotFound, "the project has no application target", location: location,
            hint: checkable.isEmpty
              ? "it has no app extension either: nothing to lint"
              : "name the extensions to lint with --target: " + checkable.joined(separator: ", ")))
      }
    } else {
      for name in names {
        guard let target = project.target(named: name) else {
          let close = project.target(resembling: name).map { "did you mean \"\($0.name)\"? " } ?? ""
          throw .project(
            XcodeProjectError(
              .targetNotFound, "the project has no target named \"\(name)\"", location: location,
              hint: close
                + (checkable.isEmpty
                  ? "the project has no application or app extension target"
                  : "its applications and app extensions: " + checkable.joined(separator: ", "))))
        }
        guard target.isApplication || target.isAppExtension else {
          throw .project(
            XcodeProjectError(
              .targetNotFound,
              "target \"\(name)\" is neither an application nor an app extension (its product type is "
                + "\(target.productType ?? "not set"))",
              location: target.location, hint: "use one of: " + checkable.joined(separator: ", ")))
        }
        if !selected.contains(where: { $0.id == target.id }) { selected.append(target) }
      }
    }
    let apps = project.targets.filter(\.isApplication)
    var entries: [Entry] = []
    func add(_ target: XcodeTarget, apps: [String]) {
      if let index = entries.firstIndex(where: { $0.target.id == target.id }) {
        for app in apps where !entries[index].apps.contains(app) { entries[index].apps.append(app) }
      } else {
        entries.append(Entry(target: target, apps: apps))
      }
    }
    for target in selected {
      if target.isApplication {
        add(target, apps: [])
        for embedded in project.embeddedTargets(of: target) where embedded.isAppExtension {
          add(embedded, apps: [target.name])
        }
      } else {
        let embedding = apps.filter { app in project.embeddedTargets(of: app).contains { $0.id == target.id }
        }
        add(target, apps: embedding.map(\.name))
      }
    }
    if names.isEmpty {
      // An app extension no app embeds (HackerFeed's share extension: a target dependency of the app, but
      // not in its Embed App Extensions phase) is linted too: its rule, and the note that no app embeds it.
      for target in project.targets where target.isAppExtension {
        if !entries.contains(where: { $0.target.id == target.id }) { add(target, apps: []) }
      }
    }
    return entries
  }

  /// An Info.plist a target's `INFOPLIST_FILE` names that is not there.
  struct MissingInfoPlist {
    /// The target.
    var target: XcodeTarget
    /// The file, absolute.
    var path: String
    /// The configurations that build with it.
    var configurations: [String]
    /// The assignment that names it (the target when none is found).
    var location: BuildSettingLocation?

    /// " (also set at line N)" when other assignments name it too.
    var otherPlaces = ""
    /// Whether the path is a folder rather than nothing.
    var isFolder = false

    /// The error or finding text: what names which file, in which configurations.
    func message(_ displayPath: (String) -> String) -> String {
      "INFOPLIST_FILE of \(target.name) (\(configurations.joined(separator: ", "))) names \(displayPath(path)), "
        + (isFolder ? ProjectPlanner.isAFolder : "which does not exist") + otherPlaces
    }

    /// How to fix it: the path in this checkout that ends as the written one does, when there is one.
    var fix = "correct INFOPLIST_FILE in the target's build settings, or restore the file"
  }

  /// The distinct Info.plists (absolute paths) `target`'s configurations build with; those of them that do
  /// not exist, each at the build setting that names it; and how Xcode reads each, by path: with the C
  /// preprocessor and the target's macros when it sets `INFOPLIST_PREPROCESS = YES` (ownCloud's app wraps
  /// `NSAppTransportSecurity` in `#ifndef DISABLE_PLAIN_HTTP`). The first configuration building from a path
  /// decides: a rule is linted once per file, and configurations rarely differ in more than `DEBUG`.
  func infoPlistPaths(of target: XcodeTarget, in project: XcodeProject) throws(ConfiguratorError)
    -> (paths: [String], missing: [MissingInfoPlist], preprocessing: [String: PropertyListPreprocessing])
  {
    var paths: [String] = []
    var settingsByPath: [String: ResolvedBuildSettings] = [:]
    // For each path, the assignments naming it and the configurations each serves, in order.
    var assignments: [String: [(location: BuildSettingLocation, configurations: [String])]] = [:]
    for name in project.configurationNames(for: target) {
      let settings: ResolvedBuildSettings
      do {
        settings = try project.buildSettings(target: target, configuration: name, sdk: sdk)
      } catch {
        throw .project(error)
      }
      // Absolute, so one file named two ways (`$(SRCROOT)/A.plist`, `A.plist`) is linted once.
      guard let path = settings.path(for: "INFOPLIST_FILE").map(ProjectPlanner.absolute) else { continue }
      if settingsByPath[path] == nil {
        paths.append(path)
        settingsByPath[path] = settings
      }
      let location = settings.assignment(for: "INFOPLIST_FILE")?.location ?? target.location
      if let index = assignments[path]?.firstIndex(where: { $0.location == location }) {
        assignments[path]?[index].configurations.append(name)
      } else {
        assignments[path, default: []].append((location, [name]))
      }
    }
    // One finding per missing path, at its first assignment, naming the others (pixelfed's Debug and
    // Release lines), with the path this checkout has when the written one is another machine's.
    let missing = paths.filter { !FileManager.default.fileExists(atPath: $0) || ProjectPlanner.isFolder($0) }
      .map { path in
        let places = (assignments[path] ?? []).map(\.location)
        let isFolder = ProjectPlanner.isFolder(path)
        return MissingInfoPlist(
          target: target, path: path,
          configurations: (assignments[path] ?? []).flatMap(\.configurations),
          location: places.first ?? target.location, otherPlaces: ProjectPlanner.alsoSet(places),
          isFolder: isFolder,
          fix: isFolder
            ? ProjectPlanner.folderFix("INFOPLIST_FILE", path, sourceRoot: project.sourceRoot)
            : ProjectPlanner.missingFileFix("INFOPLIST_FILE", path, sourceRoot: project.sourceRoot))
      }
    return (paths, missing, settingsByPath.compactMapValues(ProjectPlanner.preprocessing))
  }

  /// The rule linter for an extension that `apps` embed: ``ruleLinter`` knowing also the types each app's
  /// Info.plist declares (`UTExportedTypeDeclarations`, `UTImportedTypeDeclarations`). Installing the app
  /// registers them with the system, so its extension's rule may test them (Pocket Casts' share extension
  /// tests `unofficial.opml`, which the app exports). An app Info.plist that is missing or unreadable adds
  /// nothing; its own findings say why.
  func ruleLinter(forExtensionIn apps: [String], of project: XcodeProject) throws(ConfiguratorError)
    -> RuleLinter
  {
    var linter = ruleLinter
    for name in apps {
      guard let app = project.target(named: name) else { continue }
      let (paths, _, preprocessing) = try infoPlistPaths(of: app, in: project)
      for path in paths {
        guard
          let file = try? PropertyListFile.read(
            contentsOf: path, duplicateKeys: .keepLast, preprocessing: preprocessing[path]),
          let dictionary = file.value.dictionaryValue
        else { continue }
        let declarations = AppTypeDeclarations(propertyList: dictionary)
        if !declarations.exported.isEmpty || !declarations.imported.isEmpty {
          linter.registry = linter.registry.adding(declarations)
        }
      }
    }
    return linter
  }
}
