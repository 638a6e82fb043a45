import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One target's files in some of its configurations: the configurations that build with the same
/// Info.plist and entitlements file.
struct TargetFiles {
  var infoPlist: String?
  var entitlements: String?
  /// How Xcode preprocesses the Info.plist in these configurations (`INFOPLIST_PREPROCESS = YES`).
  var preprocessing: PropertyListPreprocessing?
  var settings: [ResolvedBuildSettings]
}

extension ProjectPlanner {
  /// Plans `target`'s Info.plist and entitlements file, in every configuration.
  mutating func planTarget(
    _ target: XcodeTarget, settings: [ResolvedBuildSettings], containingApp: ContainingAppChoice?
  ) throws(ConfiguratorError) {
    noteCaseMismatches(of: target, settings: settings)
    var groups: [TargetFiles] = []
    for resolved in settings {
      // Absolute, so a file two targets name differently (`$(SRCROOT)/A.plist`, `A.plist`) is one file.
      let info = resolved.path(for: "INFOPLIST_FILE").map(Self.absolute)
      let entitlements = resolved.path(for: "CODE_SIGN_ENTITLEMENTS").map(Self.absolute)
      // A preprocessed Info.plist reads differently per set of macros (DEBUG in Debug): one group each.
      let preprocessing = Self.preprocessing(resolved)
      if let index = groups.firstIndex(where: {
        $0.infoPlist == info && $0.entitlements == entitlements && $0.preprocessing == preprocessing
      }) {
        groups[index].settings.append(resolved)
      } else {
        groups.append(
          TargetFiles(
            infoPlist: info, entitlements: entitlements, preprocessing: preprocessing, settings: [resolved]))
      }
    }
    // Once per Info.plist the target names, in the order of its configurations, for every group using it.
    var appGroups: [String: AppGroupChoice] = [:]
    var seen: Set<String> = []
    for path in groups.compactMap(\.infoPlist) where seen.insert(path).inserted {
      noteInfoPlistCopiedAsResource(target, path)
      appGroups[path] = appGroupChoice(for: target, infoPlist: path, groups: groups)
    }
    for group in groups {
      try planFiles(
        target, group, containingApp: containingApp, appGroups: group.infoPlist.flatMap { appGroups[$0] })
    }
  }

  private mutating func planFiles(
    _ target: XcodeTarget, _ group: TargetFiles, containingApp: ContainingAppChoice?,
    appGroups: AppGroupChoice?
  ) throws(ConfiguratorError) {
    guard let first = group.settings.first else { return }
    let configurations = group.settings.map(\.configuration)
    let generates = first["GENERATE_INFOPLIST_FILE"] == "YES"

    // The Info.plist: the one INFOPLIST_FILE names, or a new one for a target that generates its own.
    var infoPath: String
    var createsInfo = false
    if let named = group.infoPlist {
      infoPath = named
    } else if generates {
      let relative = newInfoPlistPath(for: target)
      infoPath = Self.absolute(Self.join(project.sourceRoot, relative))
      createsInfo = true
      addEdits(
        "INFOPLIST_FILE", relative, target: target, configurations: configurations,
        reason: "\(target.name) generates its Info.plist and names none: Xcode merges \(relative) into it")
    } else {
      findings.append(
        ProjectFinding(
          id: "info-plist-not-set", .error, at: target.location,
          "target \(target.name) has no Info.plist in \(configurations.joined(separator: ", ")): "
            + "INFOPLIST_FILE is not set and GENERATE_INFOPLIST_FILE is not YES",
          fix: "set INFOPLIST_FILE in the target's build settings"))
      return
    }
    let info: PropertyListFile
    if let preprocessing = group.preprocessing, !createsInfo {
      // Read again with this group's macros, on top of what earlier groups planned.
      let bytes = configured[infoPath]?.document?.bytes
      guard
        let file = try read(
          infoPath, role: "Info.plist", of: target, setting: "INFOPLIST_FILE", group.settings, bytes: bytes,
          preprocessing: preprocessing)
      else { return }
      info = file
    } else if let file = configured[infoPath] {
      info = file
    } else if createsInfo {
      info = PropertyListFile(content: .value(.dictionary([:]), .xml), path: infoPath)
    } else {
      guard
        let file = try read(
          infoPath, role: "Info.plist", of: target, setting: "INFOPLIST_FILE", group.settings)
      else {
        // The entitlements are not read without an Info.plist; a missing one is said now, not next run.
        if let entitlements = group.entitlements, configured[entitlements] == nil,
          !FileManager.default.fileExists(atPath: entitlements)
        {
          reportMissing(entitlements, setting: "CODE_SIGN_ENTITLEMENTS", of: target, group.settings)
        }
        return
      }
      info = file
    }

    // The entitlements file: the one CODE_SIGN_ENTITLEMENTS names, or with fixEntitlements a new one.
    var entitlementsPath = group.entitlements
    var entitlements: PropertyListFile?
    var createsEntitlements = false
    if let path = entitlementsPath {
      if let file = configured[path] {
        entitlements = file
      } else {
        guard
          let file = try read(
            path, role: "entitlements file", of: target, setting: "CODE_SIGN_ENTITLEMENTS", group.settings)
        else { return }
        entitlements = file
      }
    } else if options.fixEntitlements {
      let relative = Self.join(Self.dirname(relativeToSourceRoot(infoPath)), "\(target.name).entitlements")
      let path = Self.absolute(Self.join(project.sourceRoot, relative))
      createsEntitlements = configured[path] == nil && !FileManager.default.fileExists(atPath: path)
      let file =
        configured[path]
        ?? (createsEntitlements
          ? PropertyListFile(content: .value(.dictionary([:]), .xml), path: path)
          : try read(
            path, role: "entitlements file", of: target, setting: "CODE_SIGN_ENTITLEMENTS", group.settings))
      // A file of that name no configuration uses (BlueWallet's Stickers.entitlements) is adopted only
      // when it holds nothing an iOS signature must not carry: macOS's App Sandbox and hardened-runtime keys
      // (com.apple.security.…) would; of those, only the app groups key is iOS's too.
      let macOSKeys =
        createsEntitlements || configured[path] != nil
        ? []
        : (file?.value.dictionaryValue?.entries.map(\.key) ?? []).filter {
          $0.hasPrefix("com.apple.security.") && $0 != "com.apple.security.application-groups"
        }
      if !macOSKeys.isEmpty {
        findings.append(
          ProjectFinding(
            id: "entitlements-file-not-adopted", .warning,
            at: BuildSettingLocation(file: path, line: 1, column: 1),
            "\(target.name) has no entitlements file, and \(relative), which no configuration uses, holds macOS "
              + "entitlements (\(macOSKeys.joined(separator: ", "))) an iOS app's signature must not carry; "
              + "--fix-entitlements does not adopt it, so \(target.name)'s keychain groups are not planned",
            fix:
              "set \(target.name)'s CODE_SIGN_ENTITLEMENTS to an iOS entitlements file (or remove those keys "
              + "from this one), then run configure again"))
      } else {
        entitlementsPath = path
        entitlements = file
        addEdits(
          "CODE_SIGN_ENTITLEMENTS", relative, target: target, configurations: configurations,
          reason: createsEntitlements || configured[path] != nil
            ? "\(target.name) had no entitlements file (--fix-entitlements)"
            : "\(target.name) had no entitlements file; \(relative), which no configuration used, is adopted "
              + "(--fix-entitlements)")
        keepCatalystEntitlements(of: target, configurations: configurations)
      }
    }

    var targetOptions = options
    // Expanded as if the settings this plan adds were there already.
    targetOptions.buildConfigurations = group.settings.map { resolved in
      let pending =
        (containingApp?.pendingSetting(forConfiguration: resolved.configuration).map { [$0] } ?? [])
        + (appGroups?.pendingSettings(forConfiguration: resolved.configuration) ?? [])
      return BuildConfigurationExpansion(
        configuration: resolved.configuration, preprocessing: group.preprocessing,
        missingPrefixHeader: Self.missingPrefixHeader(resolved)
      ) { text in
        resolved.expand(pending.reduce(text) { $1.substitute(in: $0) })
      }
    }
    targetOptions.appGroupIdentifiers = appGroups?.entries
    targetOptions.generatedInfoPlistKeys = generates ? Self.generatedKeys(first) : PropertyListDictionary()
    targetOptions.containingApp = containingApp?.containingApp
    if containingApp != nil, let entitlementsPath, let app = appEntitlementsFiles[entitlementsPath] {
      targetOptions.signsWithContainingAppEntitlements = true
      let place = Self.assignmentPlaces(of: "CODE_SIGN_ENTITLEMENTS", in: group.settings)?.first
      let name = relativeToSourceRoot(entitlementsPath)
      findings.append(
        ProjectFinding(
          id: "entitlements-shared-with-app", .note, at: place ?? target.location,
          "\(target.name) signs with \(app)'s entitlements file \(name) (\(configurations.joined(separator: ", "))): "
            + "its keychain groups are the app's, so the app's bundle ID group serves both and the file is "
            + "edited once",
          fix:
            "to give \(target.name) keychain groups of its own, set its CODE_SIGN_ENTITLEMENTS to a file of its "
            + "own"))
    }
    let plan: ConfigurationPlan
    do {
      plan = try AppConfigurator.plan(infoPlist: info, entitlements: entitlements, options: targetOptions)
    } catch {
      throw error
    }
    let configuredInfo: PropertyListFile
    do {
      configuredInfo = try plan.configuredInfoPlist()
    } catch {
      throw .file(error)
    }
    // A preprocessed file other builds read with other macros: keys added here must not shadow theirs.
    var conflicts: [ConfiguratorFinding] = []
    if let own = group.preprocessing, !createsInfo, plan.changes.contains(where: { $0.file == .infoPlist }),
      let bytes = try? configuredInfo.serialized()
    {
      conflicts = conditionalKeyConflicts(
        of: target, infoPlist: infoPath, ownPreprocessing: own, configuredBytes: bytes)
    }
    // The setting the reference needs, in each configuration of this group whose Info.plist refers to it
    // (planned now, or by an earlier group sharing the file) and that does not have it yet.
    if let choice = containingApp, let name = choice.settingName,
      configuredInfo.value.dictionaryValue?["IntuneMAMSettings"]?.dictionaryValue?["ContainingAppBundleId"]
        == .string("$(\(name))")
    {
      let missing = group.settings.filter { $0[name] != choice.valuesByConfiguration[$0.configuration] }
      for (configuration, edit) in choice.pendingEdits(forConfigurations: Set(missing.map(\.configuration))) {
        edits.append(
          PlannedBuildSetting(
            edit: edit, targetName: target.name, configuration: configuration,
            reason: "the app's identifier in \(configuration), which ContainingAppBundleId refers to"))
      }
      // The Mac Catalyst app's identifier where it differs; the choice left out what is already set.
      for (configuration, edit) in choice.catalystEdits(forConfigurations: Set(configurations)) {
        edits.append(
          PlannedBuildSetting(
            edit: edit, targetName: target.name, configuration: configuration,
            reason:
              "the app's identifier in \(configuration) built for Mac Catalyst, which ContainingAppBundleId refers to"
          ))
      }
    }
    let listed = Set(
      configuredInfo.value.dictionaryValue?["IntuneMAMSettings"]?.dictionaryValue?["AppGroupIdentifiers"]?
        .arrayValue?.compactMap(\.stringValue) ?? [])
    for setting in appGroups?.settings ?? [] where listed.contains("$(\(setting.name))") {
      for resolved in group.settings {
        guard let value = setting.values[resolved.configuration], resolved[setting.name] != value else {
          continue
        }
        addEdits(
          setting.name, value, target: target, configurations: [resolved.configuration],
          reason: "the app group of \(resolved.configuration), which AppGroupIdentifiers refers to")
      }
    }
    do {
      configured[infoPath] = configuredInfo
      if let entitlementsPath, let configuredEntitlements = try plan.configuredEntitlements() {
        configured[entitlementsPath] = configuredEntitlements
      }
    } catch {
      throw .file(error)
    }
    let plannedBy = targetPlans.filter { $0.infoPlistPath == infoPath }.map {
      "\($0.targetName) (\($0.configurations.joined(separator: ", ")))"
    }
    var plannedPlan = plan
    plannedPlan.findings += conflicts
    // The project's own error says why the app cannot be named, and how to fix that in the project; the
    // file plan's "pass --containing-app" is advice for a file configured alone.
    if containingApp?.unknownAppFinding != nil {
      plannedPlan.findings.removeAll { $0.id == "containing-app-unknown" }
    }
    if !plannedBy.isEmpty {
      // Positions of findings are places in the file on disk, not in the text earlier plans would write.
      plannedPlan.findings = plannedPlan.findings.map { finding in
        var onDisk = finding
        let original =
          finding.file == .infoPlist ? originals[infoPath] : entitlementsPath.flatMap { originals[$0] }
        if finding.file == .infoPlist || finding.file == .entitlements {
          onDisk.position = original.flatMap { Planner.nearestPosition(of: finding.keyPath, in: $0.document) }
        }
        return onDisk
      }
      // A repeated key belongs to the file: read where it is on disk (the text this plan read holds the
      // earlier plans' insertions, which move lines), and said once, by the first plan of the file, unless
      // this group's macros leave a different one.
      let reported = Set(
        targetPlans.filter { $0.infoPlistPath == infoPath }.flatMap(\.plan.findings).filter {
          $0.id == "duplicate-key"
        }.map(\.message))
      plannedPlan.findings.removeAll { $0.id == "duplicate-key" }
      if let onDisk = try? PropertyListFile.read(
        contentsOf: infoPath, duplicateKeys: .keepLast, preprocessing: group.preprocessing)
      {
        plannedPlan.findings += Planner.duplicateKeyFindings(in: onDisk).filter {
          !reported.contains($0.message)
        }
      }
    }
    targetPlans.append(
      TargetConfigurationPlan(
        targetName: target.name, configurations: configurations, infoPlistPath: infoPath,
        entitlementsPath: entitlementsPath, plan: plannedPlan, createsInfoPlist: createsInfo,
        createsEntitlements: createsEntitlements, infoPlistPlannedBy: plannedBy))
  }

  /// A warning when `target` also copies its Info.plist at `infoPath` as a resource
  /// (``ResourceMembership``): a copy named `Info.plist` lands where the processed one goes, and Xcode fails
  /// with "Multiple commands produce …/Info.plist"; under another name (seafile's
  /// `seafile-appstore-Info.plist`) Xcode warns that the Copy Bundle Resources phase contains the target's
  /// Info.plist file, and the app ships the copy. Not for a file that is missing, which is reported as such.
  private mutating func noteInfoPlistCopiedAsResource(_ target: XcodeTarget, _ infoPath: String) {
    let relative = relativeToSourceRoot(infoPath)
    guard FileManager.default.fileExists(atPath: infoPath),
      let membership = project.resourceMembership(ofFile: relative, in: target)
    else { return }
    let id = "info-plist-copied-as-resource"
    let name = relative.split(separator: "/").last.map(String.init) ?? relative
    let consequence =
      name == "Info.plist"
      ? "Xcode fails with \"Multiple commands produce …/Info.plist\""
      : "Xcode warns that the Copy Bundle Resources build phase contains the target's Info.plist file, and the "
        + "app ships a copy of it as \(name)"
    switch membership {
    case .resourcesPhase(let location):
      findings.append(
        ProjectFinding(
          id: id, .warning, at: location,
          "\(target.name)'s Info.plist \(relative) is also in its Copy Bundle Resources phase: \(consequence)",
          fix: "remove \(name) from \(target.name)'s Copy Bundle Resources phase"))
    case .synchronizedFolder(let folderPath, let inFolder, let location):
      let folder = relativeToSourceRoot(folderPath)
      findings.append(
        ProjectFinding(
          id: id, .warning, at: location,
          "\(target.name)'s Info.plist \(relative) lies in the synchronized folder \(folder), which "
            + "\(target.name) builds, and no exception takes it out, so it is also copied as a resource: "
            + consequence,
          fix: "in Xcode, select \(relative) and clear \(target.name) under Target Membership (the folder's "
            + "exception set for \(target.name) then lists \(inFolder) in membershipExceptions)"))
    }
  }

  /// Warns where `INFOPLIST_FILE` or `CODE_SIGN_ENTITLEMENTS` spells a path whose file exists only under
  /// another letter case: it is read and configured, as Xcode on a case-insensitive volume (macOS's
  /// default) builds with it, but a case-sensitive checkout fails to build (Anx Reader's
  /// `shareExtension/Info.plist` for `ShareExtension/Info.plist`).
  private mutating func noteCaseMismatches(of target: XcodeTarget, settings: [ResolvedBuildSettings]) {
    for setting in ["INFOPLIST_FILE", "CODE_SIGN_ENTITLEMENTS"] {
      var order: [String] = []
      var configurations: [String: [String]] = [:]
      var found: [String: (path: String, location: BuildSettingLocation?)] = [:]
      for resolved in settings {
        guard let mismatch = resolved.pathCaseMismatch(for: setting) else { continue }
        if found[mismatch.written] == nil {
          order.append(mismatch.written)
          found[mismatch.written] = (mismatch.found, resolved.assignment(for: setting)?.location)
        }
        configurations[mismatch.written, default: []].append(resolved.configuration)
      }
      for written in order {
        guard let (path, location) = found[written] else { continue }
        let names = configurations[written] ?? []
        findings.append(
          ProjectFinding(
            id: "path-case-mismatch", .warning, at: location ?? target.location,
            "\(setting) of \(target.name) (\(names.joined(separator: ", "))) names "
              + "\(relativeToSourceRoot(written)), which exists only as \(relativeToSourceRoot(path)): Xcode "
              + "finds it on a case-insensitive volume (macOS's default) and fails on a case-sensitive one; "
              + "RuleKit reads \(relativeToSourceRoot(path))",
            fix: "spell \(setting) as the file is named (\(relativeToSourceRoot(path))), or rename the file"))
      }
    }
  }

  /// Reads a file a build setting names (or `bytes` already planned for it); a missing file is an error
  /// finding (`nil`) at the first assignment of `setting` among `settings`, the group's configurations,
  /// naming the others (``reportMissing(_:setting:of:_:)``); a damaged one throws.
  private mutating func read(
    _ path: String, role: String, of target: XcodeTarget, setting: String,
    _ settings: [ResolvedBuildSettings],
    bytes: [UInt8]? = nil, preprocessing: PropertyListPreprocessing? = nil
  ) throws(ConfiguratorError) -> PropertyListFile? {
    // Xcode builds an Info.plist with a repeated key (the later value wins); entitlements stay strict.
    let duplicates: PropertyListDuplicateKeyPolicy = role == "Info.plist" ? .keepLast : .error
    // A folder where a file should be (`INFOPLIST_FILE = App`, the target's folder): the setting's error,
    // at its assignment, as for a missing file, not a read error that stops the whole run.
    if bytes == nil, Self.isFolder(path) {
      reportMissing(path, setting: setting, of: target, settings)
      return nil
    }
    do {
      if let bytes {
        return try PropertyListFile(
          data: Data(bytes), path: path, duplicateKeys: duplicates, preprocessing: preprocessing)
      }
      let file = try PropertyListFile.read(
        contentsOf: path, duplicateKeys: duplicates, preprocessing: preprocessing)
      if originals[path] == nil { originals[path] = file }
      return file
    } catch {
      guard error.kind == .fileNotFound else { throw .file(error) }
      reportMissing(path, setting: setting, of: target, settings)
      return nil
    }
  }

  /// A `file-not-found` error at the first assignment of `setting`, naming the lines of the others
  /// (pixelfed sets INFOPLIST_FILE to another machine's path in Debug and in Release, on two lines). A file
  /// that configuration groups planned apart share is one finding, as `lint --project` reports it: a later
  /// group's places join the first one's (Limit's extension, its Info.plist removed: lines 339 and 367).
  mutating func reportMissing(
    _ path: String, setting: String, of target: XcodeTarget, _ settings: [ResolvedBuildSettings]
  ) {
    let isFolder = Self.isFolder(path)
    let message = Self.missingFileMessage(setting, of: target.name, path)
    var places = Self.assignmentPlaces(of: setting, in: settings) ?? [target.location]
    if let reported = missingFiles[message] {
      places = reported.places + places.filter { !reported.places.contains($0) }
      findings[reported.finding].message = message + Self.alsoSet(places)
      missingFiles[message]?.places = places
      return
    }
    missingFiles[message] = (findings.count, places)
    findings.append(
      ProjectFinding(
        id: "file-not-found", .error, at: places[0], message + Self.alsoSet(places),
        fix: isFolder
          ? Self.folderFix(setting, path, sourceRoot: project.sourceRoot)
          : Self.missingFileFix(setting, path, sourceRoot: project.sourceRoot),
        namedFile: path))
  }

  /// What a file-not-found finding says of a path that is a folder.
  static let isAFolder = "which is a folder, not a file"

  /// Whether `path` is a folder (a setting naming one is reported as naming no file).
  static func isFolder(_ path: String) -> Bool {
    (try? FileManager.default.contentsOfDirectory(atPath: path)) != nil
  }

  /// How to fix a setting naming a folder: the file in it of the kind the setting names, when there is one
  /// (relative to `sourceRoot`, as settings are written).
  static func folderFix(_ setting: String, _ path: String, sourceRoot: String) -> String {
    let wanted = setting == "INFOPLIST_FILE" ? "plist" : "entitlements"
    let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).sorted()
    guard let file = names.first(where: { $0.hasSuffix("." + wanted) }) else {
      return "set \(setting) to the file in the target's build settings, not its folder"
    }
    let root = absolute(sourceRoot) + "/"
    let found = absolute(join(path, file))
    return "set \(setting) = \(found.hasPrefix(root) ? String(found.dropFirst(root.count)) : found): the "
      + "setting names the folder that holds it"
  }

  /// The distinct places `setting` is assigned in `settings`, in order; nil when it is assigned in none.
  static func assignmentPlaces(of setting: String, in settings: [ResolvedBuildSettings])
    -> [BuildSettingLocation]?
  {
    var places: [BuildSettingLocation] = []
    for resolved in settings {
      guard let location = resolved.assignment(for: setting)?.location else { continue }
      if !places.contains(location) { places.append(location) }
    }
    return places.isEmpty ? nil : places
  }

  /// " (also set at line 610)" for the places after the first (the file named when it differs).
  static func alsoSet(_ places: [BuildSettingLocation]) -> String {
    guard let first = places.first, places.count > 1 else { return "" }
    let others = places.dropFirst().map { place in
      (place.file == first.file ? "" : (place.file.split(separator: "/").last.map(String.init) ?? "") + ":")
        + (place.line.map { "line \($0)" } ?? "")
    }
    return " (also set at " + others.joined(separator: ", ") + ")"
  }

  /// How to fix a missing file a setting names: the path under the project's folder that ends the way the
  /// written one does, when there is one (a path from another machine: /Users/…/ios/Share/Info.plist for
  /// Share/Info.plist in this checkout), else correcting the setting or restoring the file.
  static func missingFileFix(_ setting: String, _ path: String, sourceRoot: String) -> String {
    // Tuist writes a target's Info.plist there when Project.swift gives it as a dictionary
    // (`.dictionary`, `.extendingDefault`), at each `tuist generate`; checkouts rarely hold it.
    if path.contains("/Derived/InfoPlists/") || path.contains("/Derived/Entitlements/") {
      return "run `tuist generate` (Tuist writes this file from Project.swift), then run again; the keys "
        + "configure adds belong in Project.swift, as Tuist rewrites the file at each generate"
    }
    guard let tail = existingTail(of: path, under: sourceRoot) else {
      return "correct \(setting) in the target's build settings, or restore the file"
    }
    return "set \(setting) = \(tail): this checkout has the file there (the path written ends the same way), "
      + "or restore the file"
  }

  /// The shortest end of `path`, two components or more, naming a file under `root`; nil when none does.
  static func existingTail(of path: String, under root: String) -> String? {
    let components = path.split(separator: "/").map(String.init)
    guard components.count >= 2 else { return nil }
    for start in stride(from: components.count - 2, through: 1, by: -1) {
      let tail = components[start...].joined(separator: "/")
      if FileManager.default.fileExists(atPath: join(root, tail)) { return tail }
    }
    return nil
  }

  /// What a `file-not-found` finding says: `setting` of `target` names `path` (absolute), which is missing.
  static func missingFileMessage(_ setting: String, of target: String, _ path: String) -> String {
    "\(setting) of \(target) names \(path), " + (isFolder(path) ? isAFolder : "which does not exist")
  }

  /// Adds `name = value` to the target's build settings in each of `configurations`.
  mutating func addEdits(
    _ name: String, _ value: String, target: XcodeTarget, configurations: [String], reason: String
  ) {
    guard let list = try? project.buildConfigurations(of: target) else { return }
    for configuration in list where configurations.contains(configuration.name) {
      edits.append(
        PlannedBuildSetting(
          edit: BuildSettingEdit(configurationID: configuration.id, name: name, value: value),
          targetName: target.name, configuration: configuration.name, reason: reason))
    }
  }

  /// Where a new Info.plist for `target` goes, relative to `SRCROOT`: `Target/Info.plist` when the target
  /// has a folder of that name, else `Target-Info.plist`; never a path some target would copy as a resource
  /// (``XcodeProjects/XcodeProject/resourceMembership(ofFile:in:)``: an Xcode 16 synchronized folder copies
  /// every file in it that no exception of the target takes out, so an Info.plist there would clash with the
  /// built one), whatever the folder's name, nor a file that exists.
  func newInfoPlistPath(for target: XcodeTarget) -> String {
    let folder = Self.join(project.sourceRoot, target.name)
    let candidates = [Self.isFolder(folder) ? "\(target.name)/Info.plist" : nil, "\(target.name)-Info.plist"]
      .compactMap {
        $0
      }
    let free = { (name: String) in
      !FileManager.default.fileExists(atPath: Self.join(self.project.sourceRoot, name))
        && !self.project.targets.contains { self.project.resourceMembership(ofFile: name, in: $0) != nil }
    }
    if let name = candidates.first(where: free) { return name }
    // Never a file that exists: the plan writes the new one whole.
    var number = 1
    while !free("\(target.name)-Intune-Info\(number == 1 ? "" : "-\(number)").plist") { number += 1 }
    return "\(target.name)-Intune-Info\(number == 1 ? "" : "-\(number)").plist"
  }

  /// How Xcode preprocesses the target's Info.plist in this configuration: `nil` unless
  /// `INFOPLIST_PREPROCESS = YES`; the macros are `INFOPLIST_PREPROCESSOR_DEFINITIONS` (`NAME`, `NAME=value`).
  /// `INFOPLIST_PREFIX_HEADER`'s macros are not read.
  static func preprocessing(_ settings: ResolvedBuildSettings) -> PropertyListPreprocessing? {
    guard settings["INFOPLIST_PREPROCESS"] == "YES" else { return nil }
    let items = (settings["INFOPLIST_PREPROCESSOR_DEFINITIONS"] ?? "").split(whereSeparator: \.isWhitespace)
    var preprocessing = PropertyListPreprocessing(preprocessorDefinitions: items.map(String.init))
    // cc takes the -D items first, then -include's the prefix header, whose definitions win.
    if let header = settings.path(for: "INFOPLIST_PREFIX_HEADER"),
      let data = FileManager.default.contents(atPath: header)
    {
      let defined = PropertyListPreprocessing.definitions(
        inPrefixHeader: String(decoding: data, as: UTF8.self))
      preprocessing.definitions.merge(defined) { $1 }
    }
    return preprocessing
  }

  /// The prefix header (`INFOPLIST_PREFIX_HEADER`) a preprocessed Info.plist is built with when the checkout
  /// does not have it: projects often generate it in a build phase and ignore it in git.
  static func missingPrefixHeader(_ settings: ResolvedBuildSettings) -> String? {
    guard settings["INFOPLIST_PREPROCESS"] == "YES",
      let header = settings.path(for: "INFOPLIST_PREFIX_HEADER"),
      !FileManager.default.fileExists(atPath: header)
    else { return nil }
    return header
  }

  /// The keys `INFOPLIST_KEY_…` settings put into a generated Info.plist.
  static func generatedKeys(_ settings: ResolvedBuildSettings) -> PropertyListDictionary {
    var keys = PropertyListDictionary()
    let prefix = "INFOPLIST_KEY_"
    for (name, value) in settings.all.sorted(by: { $0.key < $1.key })
    where name.hasPrefix(prefix) && !value.isEmpty {
      keys[String(name.dropFirst(prefix.count))] = .string(value)
    }
    return keys
  }

  /// `path` relative to `SRCROOT` when it is inside it.
  func relativeToSourceRoot(_ path: String) -> String {
    let root = Self.absolute(project.sourceRoot) + "/"
    let absolutePath = Self.absolute(path)
    return absolutePath.hasPrefix(root) ? String(absolutePath.dropFirst(root.count)) : absolutePath
  }

  /// `path` made absolute against the working directory, with `.` and `..` resolved, as
  /// `URL(fileURLWithPath:).standardizedFileURL.path` spells it. Its URL parsing was most of the cost of
  /// finding a project in `configure` (docs/performance.md, issue 18 part 9), so plain paths are joined
  /// here; Foundation still answers where it does more than that: it resolves symbolic links before `..`
  /// and drops Darwin's `/private` prefix.
  static func absolute(_ path: String) -> String {
    let joined = path.hasPrefix("/") ? path : FileManager.default.currentDirectoryPath + "/" + path
    let components = joined.split(separator: "/", omittingEmptySubsequences: true)
    if components.contains("..") || joined.hasPrefix("/private/") || joined.hasPrefix("/var/automount") {
      return URL(fileURLWithPath: path).standardizedFileURL.path
    }
    return "/" + components.filter { $0 != "." }.joined(separator: "/")
  }

  /// The folder holding `absolutePath` (itself for `/`).
  static func parentFolder(_ absolutePath: String) -> String {
    guard let slash = absolutePath.lastIndex(of: "/"), slash != absolutePath.startIndex else { return "/" }
    return String(absolutePath[..<slash])
  }

  static func join(_ base: String, _ relative: String) -> String {
    if relative.hasPrefix("/") || base.isEmpty || base == "." { return relative }
    if relative.isEmpty { return base }
    return base.hasSuffix("/") ? base + relative : base + "/" + relative
  }

  static func dirname(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return "" }
    return String(path[..<slash])
  }
}
