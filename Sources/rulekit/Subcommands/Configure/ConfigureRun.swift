import ActivationRules
import ArgumentParser
import IntuneConfigurator
import PropertyLists
import XcodeProjects

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One `rulekit configure` run: its options as plain values, and the work. ``ConfigureCommand`` declares the
/// options for swift-argument-parser; ``parse(_:)`` reads the common command lines directly, because the
/// command runs in every Xcode build and the reflection swift-argument-parser starts with was half of a
/// whole run's instructions (the runtime's protocol-conformance scans). Whatever it does not recognise goes
/// to swift-argument-parser, so help, errors and rare spellings behave exactly as before.
struct ConfigureRun: Equatable, ConsoleConfigurable {
  var infoPlist: String
  /// `nil` only in IntuneMAMConfigurator's oldest (Xamarin) form, which names no entitlements file.
  var entitlements: String?
  var output: String?
  var dryRun = false
  var diff = false
  var format: OutputFormat = .text
  var sdkVersion: IntuneGuideVersion = .newest
  var iosSDK = 26
  var containingApp: String?
  var containingAppPlist: String?
  var fixEntitlements = false
  var knownManagedSchemes: [String] = []
  var dictionaryStyle: DictionaryConversionStyle = .intune
  var quiet = false
  var color: ColorChoice = .auto
  /// `--project` and `--target`: configure an Xcode project's app and its extensions instead of two files.
  var project: String?
  var target: String?
  var sdk = "iphoneos"

  init(infoPlist: String, entitlements: String?) {
    self.infoPlist = infoPlist
    self.entitlements = entitlements
  }

  /// The run swift-argument-parser parsed.
  init(_ command: ConfigureOptions) {
    infoPlist = command.infoPlist ?? ""
    entitlements = command.entitlements
    output = command.output
    dryRun = command.dryRun
    diff = command.diff
    format = command.outputOptions.format
    sdkVersion = command.sdkVersion
    iosSDK = command.iosSDK
    containingApp = command.containingApp
    containingAppPlist = command.containingAppPlist
    fixEntitlements = command.fixEntitlements
    knownManagedSchemes = command.knownManagedSchemes
    dictionaryStyle = command.dictionaryStyle
    project = command.project
    target = command.target
    sdk = command.sdk
    quiet = command.outputOptions.quiet
    color = command.outputOptions.colorOption.color
  }

  var consoleSettings: ConsoleSettings {
    ConsoleSettings(json: format == .json, quiet: quiet, color: color)
  }

  /// The variables ``parse(_:environment:)`` reads: `RULEKIT_FULL_PARSER=1` sends every command line to
  /// swift-argument-parser (tests compare the two paths with it).
  static let environmentVariables = ["RULEKIT_FULL_PARSER"]

  /// The run for `rulekit configure …` (`arguments` without the program name), or `nil` when anything in
  /// it — help, an unknown or repeated option, a missing or odd value — is for swift-argument-parser.
  /// `RULEKIT_FULL_PARSER=1` always answers `nil` (tests compare the two; bug reports can rule this out).
  static func parse(_ arguments: [String], environment: [String: String]) -> ConfigureRun? {
    guard arguments.first == "configure", environment["RULEKIT_FULL_PARSER"] != "1" else { return nil }
    guard
      let line = DirectArguments(
        arguments.dropFirst(),
        valued: [
          "-i", "-e", "-o", "--format", "--sdk-version", "--ios-sdk", "--containing-app",
          "--containing-app-plist", "--color", "--known-managed-scheme", "--project", "--target", "--sdk",
          "--dictionary-style",
        ],
        repeatable: ["--known-managed-scheme"],
        flags: [
          "--dry-run": "--dry-run", "--diff": "--diff", "--fix-entitlements": "--fix-entitlements",
          "-q": "--quiet", "--quiet": "--quiet",
        ],
        takesOperands: false)
    else { return nil }
    let values = line.values
    let flags = line.flags
    let knownManagedSchemes = line.repeated["--known-managed-scheme"] ?? []
    var run: ConfigureRun
    if let project = values["--project"] {
      // The project names each target's files: those options with it are the full parser's to refuse.
      let fileOptions = ["-i", "-e", "-o", "--containing-app", "--containing-app-plist"]
      guard fileOptions.allSatisfy({ values[$0] == nil }) else { return nil }
      run = ConfigureRun(infoPlist: "", entitlements: nil)
      run.project = project
      run.target = values["--target"]
    } else {
      guard values["--target"] == nil, let info = values["-i"], let entitlements = values["-e"] else {
        return nil
      }
      run = ConfigureRun(infoPlist: info, entitlements: entitlements)
    }
    if let sdk = values["--sdk"] { run.sdk = sdk }
    run.output = values["-o"]
    run.dryRun = flags.contains("--dry-run")
    run.diff = flags.contains("--diff")
    run.fixEntitlements = flags.contains("--fix-entitlements")
    run.knownManagedSchemes = knownManagedSchemes
    run.quiet = flags.contains("--quiet")
    run.containingApp = values["--containing-app"]
    run.containingAppPlist = values["--containing-app-plist"]
    if let text = values["--format"] {
      guard let format = OutputFormat(rawValue: text) else { return nil }
      run.format = format
    }
    if let text = values["--sdk-version"] {
      guard let version = IntuneGuideVersion(rawValue: text) else { return nil }
      run.sdkVersion = version
    }
    if let text = values["--ios-sdk"] {
      guard let major = Int(text) else { return nil }
      run.iosSDK = major
    }
    if let text = values["--dictionary-style"] {
      guard let style = DictionaryConversionStyle(rawValue: text) else { return nil }
      run.dictionaryStyle = style
    }
    if let text = values["--color"] {
      guard let color = ColorChoice(rawValue: text) else { return nil }
      run.color = color
    }
    return run
  }

  /// The configurator's options for this run's flags.
  var configuratorOptions: IntuneConfiguratorOptions {
    IntuneConfiguratorOptions(
      guide: sdkVersion, iosSDKMajor: iosSDK, fixEntitlements: fixEntitlements,
      knownManagedAppSchemes: knownManagedSchemes, dictionaryRuleStyle: dictionaryStyle)
  }

  func execute() throws {
    if let project { return try executeProject(project, target: target) }
    // A blank path is what an unset build setting gives a wrapper (`-e "$(CODE_SIGN_ENTITLEMENTS)"`, #26).
    guard !Self.isBlank(infoPlist) else {
      throw RulesCLI.fail(
        "-i is empty: pass the path of the Info.plist (in Xcode: INFOPLIST_FILE)",
        code: RulesCLI.Exit.missingInput)
    }
    if let entitlements, Self.isBlank(entitlements) {
      throw RulesCLI.fail(
        "-e is empty: pass the path of the target's entitlements file (in Xcode: CODE_SIGN_ENTITLEMENTS)",
        code: RulesCLI.Exit.missingInput)
    }
    if let output, Self.isBlank(output) {
      throw RulesCLI.fail(
        "-o is empty: pass the path to write the configured Info.plist to, or leave -o out to edit in place",
        code: RulesCLI.Exit.usage)
    }
    // An Info.plist with a repeated key builds in Xcode (the later value wins): read it as Xcode does and
    // let the plan warn. Entitlements files stay strict (see Planner.reportDuplicateKeys).
    let context = containingApp == nil && containingAppPlist == nil ? projectContext() : nil
    let info = try readPropertyList(
      infoPlist, role: "Info.plist", fix: "check the path, or in Xcode the INFOPLIST_FILE build setting",
      duplicateKeys: .keepLast, preprocessing: context?.context.preprocessing)
    let entitlementsFile = try entitlements.map {
      try readPropertyList(
        $0, role: "entitlements file",
        fix: "check the path, or in Xcode the CODE_SIGN_ENTITLEMENTS build setting")
    }
    var options =
      context?.context.options
      ?? configuratorOptions
    // No Xcode project builds the file: a .NET MAUI or Xamarin head is built by its .csproj.
    if context == nil, let dotNet = AppConfigurator.dotNetProject(forFileAt: infoPlist) {
      options.dotNetProject = Self.displayPath(dotNet)
    }
    if let containingAppPlist {
      let app = try readPropertyList(
        containingAppPlist, role: "containing app Info.plist",
        fix: "check the path given to --containing-app-plist", duplicateKeys: .keepLast)
      options.containingApp = ContainingApp(bundleIdentifier: containingApp, infoPlist: app)
    } else if containingApp == nil, options.containingApp == nil, case .dictionary(let root) = info.value,
      root["NSExtension"] != nil,
      let located = AppConfigurator.containingAppInfoPlist(forExtensionAt: infoPlist)
    {
      // Reports name the app's Info.plist as the user would type it.
      let app = PropertyListFile(content: located.content, path: located.path.map(Self.displayPath))
      options.containingApp = ContainingApp(infoPlist: app)
    } else if let containingApp {
      options.containingApp = ContainingApp(bundleIdentifier: containingApp)
    }

    var plan: ConfigurationPlan
    do {
      plan = try AppConfigurator(options: options).plan(infoPlist: info, entitlements: entitlementsFile)
    } catch {
      throw RulesCLI.fail(Self.diagnostic(error), code: RulesCLI.Exit.invalidInput)
    }
    if let context { Self.describe(context, in: &plan) }
    if let dotNet = options.dotNetProject {
      plan.findings.insert(
        ConfiguratorFinding(
          id: "dotnet-project", .note, at: [],
          "built by .NET (\(dotNet)), whose build expands only $(AppIdentifierPrefix), $(TeamIdentifierPrefix) "
            + "and $(CFBundleIdentifier) in entitlements: the bundle ID is spelt $(CFBundleIdentifier) where the "
            + "Info.plist has none"),
        at: 0)
    }
    let diffText: String
    do {
      // An edit that cannot be applied is invalid input (65), found before anything is written.
      _ = try plan.configuredInfoPlist()
      _ = try plan.configuredEntitlements()
      // The diff is only worth its cost when it is printed.
      diffText =
        diff && format == .text
        ? try ConfigurationReport.diff(plan, infoPlistName: infoPlist, entitlementsName: entitlements) : ""
    } catch {
      throw RulesCLI.fail(InputDiagnostic(error, source: []), code: RulesCLI.Exit.invalidInput)
    }

    let blocked = plan.isBlocked
    var written: [String] = []
    if !dryRun && !blocked {
      // Both files or neither; -o asks for a copy of the Info.plist even when it is unchanged.
      do {
        written = try plan.apply(infoPlistTo: output)
      } catch {
        throw RulesCLI.fail(Self.diagnostic(error), code: RulesCLI.Exit.ioError)
      }
    }

    switch format {
    case .json:
      Console.result(
        ConfigurationReport.json(
          plan, infoPlistName: infoPlist, entitlementsName: entitlements, written: written))
    case .text:
      if diff && !diffText.isEmpty {
        Console.result(diffText, terminator: diffText.hasSuffix("\n") ? "" : "\n")
      }
      let report = ConfigurationReport.text(plan, infoPlistName: infoPlist, entitlementsName: entitlements)
      if blocked {
        // Quiet keeps the errors, the reason nothing was written, and drops the changes and warnings.
        Console.diagnostic(quiet ? errorLines(of: report) : report, records: [])
        Console.diagnostic("nothing written: fix the errors above and run again", records: [])
      } else {
        Console.info(report)
        if dryRun { Console.info("dry run: nothing written") }
        for path in written { Console.info("wrote \(path)") }
      }
    }
    if blocked { throw ExitCode(1) }
  }

  /// `path` relative to the working directory when it is inside it, as users type paths.
  static func displayPath(_ path: String) -> String {
    let here = FileManager.default.currentDirectoryPath
    let prefix = here.hasSuffix("/") ? here : here + "/"
    return path.hasPrefix(prefix) ? String(path.dropFirst(prefix.count)) : path
  }

  /// The report's error findings, each with its `fix:` line.
  private func errorLines(of report: String) -> String {
    var kept: [Substring] = []
    var keepingFix = false
    for line in report.split(separator: "\n") {
      if line.hasPrefix("  fix: ") {
        if keepingFix { kept.append(line) }
        continue
      }
      keepingFix = line.contains(": error: ")
      if keepingFix { kept.append(line) }
    }
    return kept.joined(separator: "\n")
  }

  /// Whether `path` is empty or only white space.
  static func isBlank(_ path: String) -> Bool {
    path.allSatisfy(\.isWhitespace)
  }

  /// Reads the file at `path`; `role` names it in messages and `fix` says what to check when it is missing.
  /// A parse error shows the source line and a caret from the bytes read here; the file is read once.
  private func readPropertyList(
    _ path: String, role: String, fix: String, duplicateKeys: PropertyListDuplicateKeyPolicy = .error,
    preprocessing: PropertyListPreprocessing? = nil
  ) throws -> PropertyListFile {
    let data: Data
    do {
      data = try PropertyListFile.readData(contentsOf: path)
    } catch {
      if error.kind == .fileNotFound {
        throw RulesCLI.fail(
          InputDiagnostic(message: "no such file (the \(role)); \(fix)", file: path),
          code: RulesCLI.Exit.missingInput)
      }
      throw RulesCLI.fail(
        InputDiagnostic(error, file: path, source: []),
        code: error.kind == .io ? RulesCLI.Exit.ioError : RulesCLI.Exit.invalidInput)
    }
    do {
      return try PropertyListFile(
        data: data, path: path, duplicateKeys: duplicateKeys, preprocessing: preprocessing)
    } catch {
      throw RulesCLI.fail(
        InputDiagnostic(error, file: path, source: [UInt8](data)), code: RulesCLI.Exit.invalidInput)
    }
  }

  /// A ``ConfiguratorError`` as a diagnostic with its file, position and hint as fields; a file error is
  /// printed as every property-list error is.
  static func diagnostic(_ error: ConfiguratorError) -> InputDiagnostic {
    if let fileError = error.propertyListError { return InputDiagnostic(fileError, source: []) }
    var diagnostic = InputDiagnostic(message: error.message, file: error.location?.file)
    if let line = error.location?.line { diagnostic.position = (line, error.location?.column ?? 1) }
    diagnostic.hint = error.hint
    return diagnostic
  }
}
