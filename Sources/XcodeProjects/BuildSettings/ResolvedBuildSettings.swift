import PropertyLists

/// A target's build settings in one configuration, resolved as Xcode resolves them; made by
/// ``XcodeProject/buildSettings(target:configuration:sdk:arch:notingUndefinedVariables:)``.
///
/// ```swift
/// settings["PRODUCT_BUNDLE_IDENTIFIER"]               // "com.example.app.share", fully expanded
/// settings.expand("$(BASE_ID).share")                 // any text, in this target and configuration
/// settings.assignment(for: "PRODUCT_BUNDLE_IDENTIFIER")?.location   // App.xcodeproj/project.pbxproj:312:5
/// settings.path(for: "INFOPLIST_FILE")                // "Share/Info.plist", for a project in "."
/// ```
public struct ResolvedBuildSettings: Sendable {
  /// The target's name.
  public let targetName: String
  /// The configuration resolved.
  public let configuration: String
  /// The SDK the conditions were matched against.
  public let sdk: String
  /// `SRCROOT`, against which ``path(for:)`` resolves relative paths.
  public let sourceRoot: String
  /// The levels, lowest first, with their assignments (conditions not yet applied).
  public let levels: [BuildSettingLevel]
  /// Every setting any level assigns, expanded.
  public let all: [String: String]
  /// Warnings (missing base configurations, skipped `#include` cycles, reference cycles, unknown operators)
  /// and, when asked for, notes on variables that expanded to nothing.
  public let diagnostics: [BuildSettingDiagnostic]
  /// Variables referenced but defined nowhere (they expanded to nothing), sorted.
  public let undefinedVariables: [String]
  let evaluator: MacroEvaluator

  init(
    project: XcodeProject, target: XcodeTarget, configuration: String, sdk: String,
    levels: [BuildSettingLevel],
    parameters: [String: [String]], missingFiles: [(level: Int, diagnostic: BuildSettingDiagnostic)],
    fileWarnings: [BuildSettingDiagnostic] = [], notingUndefinedVariables: Bool
  ) {
    targetName = target.name
    self.configuration = configuration
    self.sdk = sdk
    sourceRoot = project.sourceRoot
    self.levels = levels
    var chains: [String: [SettingCandidate]] = [:]
    for (level, settings) in levels.enumerated().reversed() {
      for assignment in settings.assignments.reversed() where Self.matches(assignment.conditions, parameters)
      {
        chains[assignment.name, default: []].append(SettingCandidate(assignment: assignment, level: level))
      }
    }
    evaluator = MacroEvaluator(chains: chains)

    var all: [String: String] = [:]
    var undefinedBy: [String: Set<String>] = [:]
    var cycles: [[SettingCandidate]] = []
    var unknown: [String: Set<String>] = [:]
    var limited: [String] = []
    for name in chains.keys.sorted() {
      var findings = MacroEvaluator.Findings()
      all[name] = evaluator.value(of: name, findings: &findings)
      for variable in findings.undefined { undefinedBy[variable, default: []].insert(name) }
      cycles += findings.cycles
      for op in findings.unknownOperators { unknown[op, default: []].insert(name) }
      if findings.hitLimit { limited.append(name) }
    }
    self.all = all
    undefinedVariables = undefinedBy.keys.sorted()

    var diagnostics: [BuildSettingDiagnostic] = []
    for (level, diagnostic) in missingFiles {
      var warning = diagnostic
      warning.affectedSettings = Self.affected(by: level, chains: chains, undefinedBy: undefinedBy)
      if !warning.affectedSettings.isEmpty {
        warning.message +=
          "; settings that may differ from Xcode's: "
          + warning.affectedSettings.joined(separator: ", ")
      }
      diagnostics.append(warning)
    }
    // Xcode skips the line too, so no resolved value is in doubt: no affected settings.
    diagnostics += fileWarnings
    diagnostics += Self.cycleDiagnostics(cycles)
    for op in unknown.keys.sorted() {
      diagnostics.append(
        BuildSettingDiagnostic(
          .warning, .unknownOperator,
          "unknown operator :\(op) in \(unknown[op, default: []].sorted().joined(separator: ", ")); the value "
            + "was left as it was",
          hint: "Xcode's operators: lower, upper, identifier, rfc1034identifier, "
            + "c99extidentifier, quote, dir, file, base, suffix, standardizepath, not, default=, relativeto=")
      )
    }
    for name in limited {
      diagnostics.append(
        BuildSettingDiagnostic(
          .warning, .limitExceeded,
          "expanding \(name) passed the nesting or size limit; its value is cut short",
          location: chains[name]?.first?.assignment.location))
    }
    if notingUndefinedVariables {
      for variable in undefinedVariables {
        diagnostics.append(
          BuildSettingDiagnostic(
            .note, .undefinedVariable,
            "$(\(variable)) is defined nowhere and expanded to nothing, in "
              + undefinedBy[variable, default: []].sorted().joined(separator: ", ")))
      }
    }
    self.diagnostics = diagnostics
  }

  /// The expanded value of `name`, or `nil` when no level assigns it.
  public subscript(name: String) -> String? { all[name] }

  /// `text` expanded in this target and configuration: `"$(BASE_ID).share"` → `"com.example.share"`.
  public func expand(_ text: String) -> String {
    var findings = MacroEvaluator.Findings()
    return evaluator.expand(text, findings: &findings)
  }

  /// The assignment that supplies `name`'s value: the highest-precedence one whose conditions match, with its
  /// raw value and location; `nil` when nothing assigns it.
  public func assignment(for name: String) -> BuildSettingAssignment? {
    evaluator.chains[name]?.first?.assignment
  }

  /// The level ``assignment(for:)`` is in.
  public func level(for name: String) -> BuildSettingLevel? {
    evaluator.chains[name]?.first.map { levels[$0.level] }
  }

  /// The value of `name` as a file path: relative values joined to ``sourceRoot`` (Xcode resolves
  /// `INFOPLIST_FILE` and `CODE_SIGN_ENTITLEMENTS` against the project folder), normalized; `nil` when the
  /// setting is unset or empty.
  ///
  /// When no file is at that path but one is at a path that differs only in letter case, that one is
  /// returned: Xcode runs on macOS, whose volumes are case-insensitive by default, and builds with it
  /// (Anx Reader's `INFOPLIST_FILE = shareExtension/Info.plist` for `ShareExtension/Info.plist`).
  /// ``pathCaseMismatch(for:)`` says when that happened.
  public func path(for name: String) -> String? {
    guard let written = writtenPath(for: name) else { return nil }
    return CaseInsensitivePath.existing(written) ?? written
  }

  /// The file path `name` spells and the one ``path(for:)`` found in its place, when they differ in
  /// letter case only: Xcode finds the file on a case-insensitive volume (macOS's default) and fails on a
  /// case-sensitive one. `nil` when the spelt path exists, or no file matches it.
  public func pathCaseMismatch(for name: String) -> (written: String, found: String)? {
    guard let written = writtenPath(for: name), let found = CaseInsensitivePath.existing(written),
      found != written
    else { return nil }
    return (written, found)
  }

  private func writtenPath(for name: String) -> String? {
    guard let value = all[name], !value.isEmpty else { return nil }
    return XcodePath.normalize(XcodePath.join(sourceRoot, value))
  }

  static func matches(_ conditions: [BuildSettingCondition], _ parameters: [String: [String]]) -> Bool {
    conditions.allSatisfy { condition in
      (parameters[condition.parameter] ?? []).contains { ConditionGlob.matches(condition.pattern, $0) }
    }
  }

  /// Settings a missing file at `level` may change: those that use a variable nothing defines (the file may
  /// have defined it), and those whose winning value is above the file and uses `$(inherited)` (the file may
  /// have supplied the inherited part).
  static func affected(
    by level: Int, chains: [String: [SettingCandidate]], undefinedBy: [String: Set<String>]
  )
    -> [String]
  {
    var names = Set(undefinedBy.values.joined())
    for (name, chain) in chains {
      guard let winner = chain.first, winner.level > level else { continue }
      let value = winner.assignment.value
      // Most values hold no reference at all: `$` is looked for first.
      guard value.utf8.contains(UInt8(ascii: "$")) else { continue }
      if holds(value, "$(inherited)") || holds(value, "${inherited}") || holds(value, "$(\(name))") {
        names.insert(name)
      }
    }
    return names.sorted()
  }

  /// Whether `text` holds `pattern`, compared byte by byte. `String.contains(_:)` builds a searcher (a table
  /// of the pattern's characters) on every call, which was half of a `configure --project` run here: this
  /// is asked of every setting of every resolution.
  static func holds(_ text: String, _ pattern: String) -> Bool {
    let text = text.utf8
    let pattern = pattern.utf8
    // An empty pattern is in no text, as `contains` answers.
    guard let first = pattern.first, pattern.count <= text.count else { return false }
    var start = text.startIndex
    while let found = text[start...].firstIndex(of: first) {
      if text[found...].starts(with: pattern) { return true }
      start = text.index(after: found)
    }
    return false
  }

  static func cycleDiagnostics(_ cycles: [[SettingCandidate]]) -> [BuildSettingDiagnostic] {
    var seen: Set<[String]> = []
    var result: [BuildSettingDiagnostic] = []
    for cycle in cycles where !cycle.isEmpty {
      let names = cycle.map(\.assignment.name)
      guard seen.insert(names.sorted()).inserted else { continue }
      let places = cycle.map { "\($0.assignment.name) = \($0.assignment.value) (\($0.assignment.location))" }
      result.append(
        BuildSettingDiagnostic(
          .warning, .referenceCycle,
          "reference cycle \((names + [names[0]]).joined(separator: " → ")): "
            + places.joined(separator: ", ")
            + "; Xcode expands the inner $(\(names[0])) to the value \(names[0]) inherits",
          location: cycle[0].assignment.location,
          relatedLocations: cycle.dropFirst().map(\.assignment.location),
          hint: "make one of them a plain value"))
    }
    return result
  }
}
