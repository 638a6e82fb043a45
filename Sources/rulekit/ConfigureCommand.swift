import ArgumentParser
import Foundation
import IntuneConfigurator
import PropertyLists

/// `rulekit configure`: IntuneMAMConfigurator's job, with its flags (`-i -e -o`), so wrappers can switch by
/// renaming the binary.
struct ConfigureCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "configure",
    abstract: "Make an app's or extension's Info.plist ready for the Intune App SDK.",
    discussion: """
      Edits only what it must (comments, indentation and key order are kept) and never removes or rewrites \
      an entry you wrote. A second run changes nothing. Without -o the Info.plist is edited in place.

      With --quiet only errors and the diff are printed; with --format json the report is a JSON document \
      on standard output (docs/json-output.md).

      Examples:
        rulekit configure -i Examples/SampleApp/App/Info.plist \\
          -e Examples/SampleApp/App/App.entitlements --dry-run --diff
        rulekit configure -i Examples/SampleApp/ShareExtension/Info.plist \\
          -e Examples/SampleApp/App/App.entitlements --dry-run --format json
      """)

  @Option(
    name: .customShort("i"), help: ArgumentHelp("The Info.plist to configure.", valueName: "Info.plist"))
  var infoPlist: String

  @Option(
    name: .customShort("e"), help: ArgumentHelp("The target's entitlements file.", valueName: "entitlements"))
  var entitlements: String

  @Option(
    name: .customShort("o"),
    help: ArgumentHelp("Write the configured Info.plist here instead of in place.", valueName: "output"))
  var output: String?

  @Flag(help: "Show what would change; write nothing.")
  var dryRun = false

  @Flag(help: "Print the changes as a unified diff.")
  var diff = false

  @Option(help: "Report format: text or json.")
  var format: ReportFormat = .text

  @Option(help: "Intune guide edition whose requirements apply (2016, 2017, 2018, 2020, 2023).")
  var sdkVersion: IntuneGuideVersion = .newest

  @Option(help: "Major version of the iOS SDK the app links against (27 and later allow 25 queried schemes).")
  var iosSDK = 26

  @Option(help: "Bundle identifier of the extension's containing app.")
  var containingApp: String?

  @Option(help: "The containing app's Info.plist (for an extension; found beside it when omitted).")
  var containingAppPlist: String?

  @Flag(help: "Add missing keychain access groups to the entitlements file.")
  var fixEntitlements = false

  @OptionGroup var quietOption: QuietOption
  @OptionGroup var colorOption: ColorOption

  enum ReportFormat: String, ExpressibleByArgument {
    case text, json
  }

  var consoleSettings: ConsoleSettings {
    ConsoleSettings(json: format == .json, quiet: quietOption.quiet, color: colorOption.color)
  }

  func run() throws {
    guard !infoPlist.isEmpty else {
      throw CLIExit.fail("-i is empty: pass the path of the Info.plist", code: 66)
    }
    guard !entitlements.isEmpty else {
      throw CLIExit.fail(
        "-e is empty: pass the path of the target's entitlements file (in Xcode: CODE_SIGN_ENTITLEMENTS)",
        code: 66)
    }
    let info = try readPropertyList(infoPlist, role: "Info.plist")
    let entitlementsFile = try readPropertyList(entitlements, role: "entitlements file")
    var options = IntuneConfiguratorOptions(
      guide: sdkVersion, iosSDKMajor: iosSDK, containingAppBundleID: containingApp,
      fixEntitlements: fixEntitlements)
    if let containingAppPlist {
      options.containingAppInfoPlist = try readPropertyList(
        containingAppPlist, role: "containing app Info.plist"
      )
      .value
      options.containingAppInfoPlistPath = containingAppPlist
    } else if containingApp == nil, case .dictionary(let root) = info.value, root["NSExtension"] != nil,
      let located = ContainingAppLocator.locate(forExtensionAt: infoPlist)
    {
      options.containingAppInfoPlist = located.value
      options.containingAppInfoPlistPath = Self.displayPath(located.path)
    }

    let plan: ConfigurationPlan
    do {
      plan = try IntuneConfigurator.plan(infoPlist: info, entitlements: entitlementsFile, options: options)
    } catch {
      throw CLIExit.fail(error.description, code: 65)
    }
    let configuredInfo: PropertyListFile
    let configuredEntitlements: PropertyListFile?
    let diffText: String
    do {
      configuredInfo = try plan.configuredInfoPlist()
      configuredEntitlements = try plan.configuredEntitlements()
      diffText = try ConfigurationReport.diff(plan, infoPlistName: infoPlist, entitlementsName: entitlements)
    } catch {
      throw CLIExit.fail(error.description, code: 65)
    }

    let blocked = plan.findings.contains { $0.severity == .error }
    var written: [String] = []
    if !dryRun && !blocked {
      let infoDestination = output ?? infoPlist
      var files: [(file: PropertyListFile, destination: String?)] = []
      // Write the Info.plist when it changes, or when -o asks for a copy even of an unchanged one.
      if output != nil || plan.changes.contains(where: { $0.file == .infoPlist }) {
        files.append((configuredInfo, infoDestination))
      }
      if let configuredEntitlements, plan.changes.contains(where: { $0.file == .entitlements }) {
        files.append((configuredEntitlements, entitlements))
      }
      // Both files or neither: a failure on the second must not leave the first half-configured.
      do {
        try PropertyListFile.write(files)
      } catch {
        throw CLIExit.fail(error.rendered(source: []), code: 74)
      }
      written = files.compactMap(\.destination)
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
        Console.diagnostic(quietOption.quiet ? errorLines(of: report) : report, records: [])
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

  private func readPropertyList(_ path: String, role: String) throws -> PropertyListFile {
    do {
      return try PropertyListFile.read(contentsOf: path)
    } catch {
      switch error.kind {
      case .fileNotFound: throw CLIExit.fail("\(path): no such file (the \(role))", code: 66)
      case .io: throw CLIExit.fail(error.rendered(source: []), code: 74)
      default:
        // The source line and a caret under the column, then the hint, when the error has a position.
        let source =
          error.position == nil ? [] : [UInt8](FileManager.default.contents(atPath: path) ?? Data())
        throw CLIExit.fail(error.rendered(source: source), code: 65)
      }
    }
  }
}

extension IntuneGuideVersion: ExpressibleByArgument {}

/// Ends a subcommand with a one-line message on standard error and an exit code.
enum CLIExit {
  static func fail(_ message: String, code: Int32) -> ExitCode {
    // A positioned message starts its line with file:line:column, where Xcode and editors look for it.
    let prefixed =
      message.hasPrefix("rulekit") || startsWithLocation(message) ? message : "rulekit: \(message)"
    Console.error(prefixed, message: message)
    return ExitCode(code)
  }

  /// Whether `message` starts with `file:line:column: `.
  static func startsWithLocation(_ message: String) -> Bool {
    let parts = message.split(separator: ":", maxSplits: 3, omittingEmptySubsequences: false)
    guard parts.count == 4, !parts[0].isEmpty, parts[3].hasPrefix(" ") else { return false }
    return [parts[1], parts[2]].allSatisfy {
      !$0.isEmpty && $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber)
    }
  }
}
