import ArgumentParser
import IntuneConfigurator
import PropertyLists
import XcodeProjects

/// `rulekit build-settings`: a target's build settings resolved as Xcode resolves them, like
/// `xcodebuild -showBuildSettings`, or with `--list` the project's targets and configurations.
struct BuildSettingsCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "build-settings",
    abstract: "Print a target's build settings as Xcode resolves them (like xcodebuild -showBuildSettings).",
    discussion: """
      Reads project.pbxproj and the xcconfig files it is based on; needs no Xcode. A base configuration \
      missing from the checkout (Pods/Target Support Files/…) is a warning naming the settings it may change.

      Examples:
        rulekit build-settings --list \\
          --project Tests/Fixtures/share-app/ShareApp.xcodeproj
        rulekit build-settings --target ShareApp --configuration Debug \\
          --project Tests/Fixtures/share-app/ShareApp.xcodeproj
        rulekit build-settings --target Share --format json \\
          --project Tests/Fixtures/share-app/ShareApp.xcodeproj
      """)

  @Option(
    help: ArgumentHelp(
      "The .xcodeproj folder (or its project.pbxproj; a workspace or folder holding one project reads that one).",
      valueName: "path"))
  var project: String

  @Option(help: "The target whose settings to print.")
  var target: String?

  @Option(help: "The build configuration (default: the one xcodebuild builds without -configuration).")
  var configuration: String?

  @Option(help: "The SDK conditions are matched against: iphoneos, iphonesimulator, macosx….")
  var sdk = "iphoneos"

  @Flag(help: "List the targets (product type, configurations, embedded extensions) instead.")
  var list = false

  @OptionGroup var outputOptions: ResultOutputOptions<OutputFormat>

  var format: OutputFormat { outputOptions.format }
  var consoleSettings: ConsoleSettings { outputOptions.consoleSettings }

  func validate() throws {
    if list && (target != nil || configuration != nil) {
      throw ValidationError("--list takes no --target or --configuration")
    }
    if !list && target == nil { throw ValidationError("pass --target NAME, or --list to see the targets") }
  }

  func run() throws {
    let xcodeProject: XcodeProject
    do {
      xcodeProject = try XcodeProject(path: project)
    } catch {
      throw Self.fail(error)
    }
    if list { return try printList(xcodeProject) }
    guard let name = target, let found = xcodeProject.target(named: name) else {
      // Quoted as a shell word, as the hints of configure and lint quote names: "ownCloud Share Extension".
      let names = xcodeProject.targets.map { ShellWord.quoted($0.name) }.joined(separator: ", ")
      // The error configure and lint give for an unknown target, at the project file.
      let close = target.flatMap { xcodeProject.target(resembling: $0) }.map {
        "did you mean \"\($0.name)\"? "
      }
      throw Self.fail(
        XcodeProjectError(
          .targetNotFound, "the project has no target named \"\(target ?? "")\"",
          location: BuildSettingLocation(file: xcodeProject.pbxprojPath),
          hint: (close ?? "") + "its targets: " + names))
    }
    let settings: ResolvedBuildSettings
    do {
      settings = try xcodeProject.buildSettings(target: found, configuration: configuration, sdk: sdk)
    } catch {
      throw Self.fail(error)
    }
    switch format {
    case .json:
      var document: [String: Any] = [
        "project": xcodeProject.path, "target": found.name, "configuration": settings.configuration,
        "sdk": sdk,
        "buildSettings": settings.all,
      ]
      if !settings.diagnostics.isEmpty { document["diagnostics"] = settings.diagnostics.map(Self.record) }
      Console.json(document)
    case .text:
      for diagnostic in settings.diagnostics {
        Console.diagnostic(Self.text(diagnostic), records: [Self.record(diagnostic)])
      }
      var lines = ["Build settings for target \(found.name), configuration \(settings.configuration):"]
      lines += settings.all.keys.sorted().map { "    \($0) = \(settings.all[$0] ?? "")" }
      Console.result(lines.joined(separator: "\n"))
    }
  }

  private func printList(_ xcodeProject: XcodeProject) throws {
    var records: [[String: Any]] = []
    var lines = ["Targets of \(xcodeProject.name) (\(xcodeProject.path)):"]
    for target in xcodeProject.targets {
      let names = xcodeProject.configurationNames(for: target)
      // What xcodebuild builds without -configuration, not the target list's own (possibly stale) name.
      let defaultName = xcodeProject.effectiveConfigurationName(of: target)
      var record: [String: Any] = [
        "name": target.name, "kind": target.kind.rawValue, "configurations": names,
        "embeddedTargets": target.embeddedTargetNames, "embeddedApps": target.embeddedAppTargetNames,
      ]
      record["productType"] = target.productType
      record["defaultConfiguration"] = defaultName
      records.append(record)
      lines.append("    \(target.name) (\(target.productType ?? target.kind.rawValue))")
      lines.append(
        "        configurations: \(names.joined(separator: ", "))"
          + (defaultName.map { " (default: \($0))" } ?? ""))
      if !target.embeddedTargetNames.isEmpty {
        lines.append("        embeds: \(target.embeddedTargetNames.joined(separator: ", "))")
      }
      if !target.embeddedAppTargetNames.isEmpty {
        lines.append("        carries apps: \(target.embeddedAppTargetNames.joined(separator: ", "))")
      }
    }
    switch format {
    case .json: Console.json(["project": xcodeProject.path, "name": xcodeProject.name, "targets": records])
    case .text: Console.result(lines.joined(separator: "\n"))
    }
  }

  /// `file:line:column: warning: message`, the hint on a line of its own.
  static func text(_ diagnostic: BuildSettingDiagnostic) -> String {
    diagnostic.description + (diagnostic.hint.map { "\n  hint: \($0)" } ?? "")
  }

  static func record(_ diagnostic: BuildSettingDiagnostic) -> [String: Any] {
    var record: [String: Any] = [
      "severity": diagnostic.severity.rawValue, "kind": diagnostic.kind.rawValue,
      "message": diagnostic.message,
    ]
    if let location = diagnostic.location {
      record["file"] = location.file
      record["line"] = location.line
      record["column"] = location.column
    }
    if let hint = diagnostic.hint { record["hint"] = hint }
    if !diagnostic.affectedSettings.isEmpty { record["affectedSettings"] = diagnostic.affectedSettings }
    return record
  }

  /// Reports a project error with the exit status of its kind: 66 missing file, 74 unreadable, 2 unknown
  /// target or configuration or a workspace holding several projects, 65 anything wrong inside the files.
  static func fail(_ error: XcodeProjectError) -> ExitCode {
    let diagnostic = ConfigureRun.diagnostic(.project(error))
    let code: ExitCode
    switch error.kind {
    case .fileNotFound: code = RulesCLI.Exit.missingInput
    case .unreadable: code = RulesCLI.Exit.ioError
    case .targetNotFound, .configurationNotFound, .ambiguousProject: code = RulesCLI.Exit.usage
    default: code = RulesCLI.Exit.invalidInput
    }
    return RulesCLI.fail(diagnostic, code: code)
  }
}
