import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension ProjectPlanner {
  /// Errors for keys a plan adds to a preprocessed Info.plist that another build of the same file (another
  /// target, or a configuration with other macros) already defines inside a preprocessor conditional: in
  /// that build the key would appear twice, and Xcode keeps the later one — the one added here — so that
  /// build loses its own value.
  ///
  /// KeePassium builds one `KeePassium/Info.plist` for three apps, and only its Intune app defines `INTUNE`,
  /// under which the file holds that app's `IntuneMAMSettings` (client ID, redirect URI, app group).
  /// Configuring the free app added an unconditional `IntuneMAMSettings` after it, and the Intune app's build
  /// lost its settings, silently. Each other set of macros the file is built with is read again from the
  /// planned text, and any key it then holds twice, and did not before, is reported where the file defines it.
  func conditionalKeyConflicts(
    of target: XcodeTarget, infoPlist path: String, ownPreprocessing: PropertyListPreprocessing,
    configuredBytes: Data
  ) -> [ConfiguratorFinding] {
    guard let original = try? PropertyListFile.readData(contentsOf: path) else { return [] }
    // The other builds of this file, by the macros they read it with.
    var builds: [PropertyListPreprocessing: [String]] = [:]
    for other in project.targets {
      guard let all = try? settings(of: other) else { continue }
      for resolved in all where resolved.path(for: "INFOPLIST_FILE").map(Self.absolute) == path {
        guard let preprocessing = Self.preprocessing(resolved), preprocessing != ownPreprocessing else {
          continue
        }
        builds[preprocessing, default: []].append("\(other.name) (\(resolved.configuration))")
      }
    }
    var findings: [ConfiguratorFinding] = []
    var reported: Set<String> = []
    for (preprocessing, names) in builds.sorted(by: { $0.value.first ?? "" < $1.value.first ?? "" }) {
      guard
        let before = try? PropertyListFile(
          data: original, path: path, duplicateKeys: .keepLast, preprocessing: preprocessing),
        let after = try? PropertyListFile(
          data: configuredBytes, path: path, duplicateKeys: .keepLast, preprocessing: preprocessing)
      else { continue }
      let existing = Set(before.duplicateKeyWarnings.map(\.key))
      for duplicate in after.duplicateKeyWarnings
      where !existing.contains(duplicate.key) && reported.insert(duplicate.key).inserted {
        let macros = preprocessing.definitions.keys.sorted().joined(separator: " ")
        // Where the file on disk defines it (the planned text has lines added above it); a key nested
        // deeper than the top level is named without a place.
        let topLevel: PropertyListPath = [.key(duplicate.key)]
        let position = Planner.position(of: topLevel, in: before.document)
        findings.append(
          ConfiguratorFinding(
            id: "conditional-key-in-shared-info-plist", .error, at: position == nil ? [] : topLevel,
            position: position,
            "\(duplicate.key) is already defined here for the builds of this file with "
              + (macros.isEmpty ? "no macros" : "the macros \(macros)") + ": " + names.joined(separator: ", ")
              + "; the \(duplicate.key) this plan adds for \(target.name) would appear after it in those builds, "
              + "and Xcode keeps the later one, so they would lose theirs",
            fix:
              "give \(target.name) an Info.plist of its own, or add its Intune keys by hand inside the "
              + "conditional (an #else branch), so each build reads one \(duplicate.key)"))
      }
      // Keys whose value those builds read differently now: the additions land outside the conditional
      // that keeps the Intune entries to this target (KeePassium's Org app defines INTUNE; its twins of the
      // schemes inside `#ifdef INTUNE` went after `#endif`, into the free and Pro apps' builds too).
      let was = before.value.dictionaryValue ?? [:]
      let now = after.value.dictionaryValue ?? [:]
      let changed = now.keys.filter { !reported.contains($0) && was[$0] != now[$0] }
      guard !changed.isEmpty else { continue }
      let macros = preprocessing.definitions.keys.sorted().joined(separator: " ")
      findings.append(
        ConfiguratorFinding(
          id: "shared-info-plist-changes-other-builds", .warning, at: [],
          "the changes planned for \(target.name) also change the builds of this file with "
            + (macros.isEmpty ? "no macros" : "the macros \(macros)") + " (" + names.joined(separator: ", ")
            + "): their " + changed.joined(separator: ", ") + " would change too, as the additions are "
            + "outside the conditionals that keep \(target.name)'s entries to its own build",
          fix:
            "move the additions the diff shows inside the conditional by hand (they are in the plan), or give "
            + "\(target.name) an Info.plist of its own"))
    }
    return findings
  }
}
