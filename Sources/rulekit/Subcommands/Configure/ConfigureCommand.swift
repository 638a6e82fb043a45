import ActivationRules
import ArgumentParser
import IntuneConfigurator
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit configure`: IntuneMAMConfigurator's job, with its flags (`-i -e -o`), so wrappers can switch by
/// renaming the binary.
struct ConfigureCommand: ConfigureOptionsCommand {
  static let configuration = CommandConfiguration(
    commandName: "configure",
    abstract: "Make an app's or extension's Info.plist ready for the Intune App SDK.",
    usage: usage("rulekit configure"),
    discussion: """
      Edits only what it must (in XML files comments, indentation and key order are kept; a binary or \
      OpenStep file is written back whole, with a warning for OpenStep's comments) and never removes or \
      rewrites an entry you wrote. A second run changes nothing. Without -o the Info.plist is edited in place.

      With --project, configures an Xcode project's app target (--target; without it, the project's only \
      iOS app) and every app extension it embeds, finding each target's Info.plist and entitlements through its build settings, correct in \
      every build configuration; build settings it needs are added to project.pbxproj as minimal edits.

      With --quiet only errors and the diff are printed; with --format json the report is a JSON document \
      on standard output (docs/json-output.md).

      Examples:
        rulekit configure -i Examples/SampleApp/App/Info.plist \\
          -e Examples/SampleApp/App/App.entitlements --dry-run --diff
        rulekit configure -i Examples/SampleApp/ShareExtension/Info.plist \\
          -e Examples/SampleApp/App/App.entitlements --dry-run --format json
        rulekit configure --target Limit --dry-run --diff \\
          --project Tests/Fixtures/xcode-projects/limit/Limit.xcodeproj
      """)

  @OptionGroup var options: ConfigureOptions

  /// The two forms, as the usage line shows them: the closed tool's files, or an Xcode project. (-i and -e
  /// are optional to the parser only so that --project can stand in for them.)
  static func usage(_ program: String) -> String {
    """
    \(program) [<options>] -i <Info.plist> -e <entitlements>
    or: \(program) [<options>] --project <App.xcodeproj> [--target <target>]
    """
  }
}

/// A command that runs `rulekit configure` with its options: ``ConfigureCommand`` and
/// ``IntuneMAMConfiguratorCommand`` take the same flags and run the same way.
protocol ConfigureOptionsCommand: ParsableCommand, ConsoleConfigurable {
  var options: ConfigureOptions { get }
}

extension ConfigureOptionsCommand {
  var consoleSettings: ConsoleSettings { ConfigureRun(options).consoleSettings }

  func run() throws {
    try ConfigureRun(options).execute()
  }
}

/// The options of `rulekit configure`, shared by the command run under IntuneMAMConfigurator's name
/// (``IntuneMAMConfiguratorCommand``), so the two take exactly the same flags.
struct ConfigureOptions: ParsableArguments {
  @Option(
    name: .customShort("i"), help: ArgumentHelp("The Info.plist to configure.", valueName: "Info.plist"))
  var infoPlist: String?

  @Option(
    name: .customShort("e"), help: ArgumentHelp("The target's entitlements file.", valueName: "entitlements"))
  var entitlements: String?

  @Option(
    help: ArgumentHelp(
      "An Xcode project: configure --target and every app extension it embeds, in every configuration.",
      valueName: "App.xcodeproj"))
  var project: String?

  @Option(
    help: ArgumentHelp(
      "With --project: the application target (default: the project's only iOS app).", valueName: "target"))
  var target: String?

  @Option(help: ArgumentHelp("With --project: the SDK conditional build settings are resolved for."))
  var sdk = "iphoneos"

  @Option(
    name: .customShort("o"),
    help: ArgumentHelp("Write the configured Info.plist here instead of in place.", valueName: "output"))
  var output: String?

  @Flag(help: "Show what would change; write nothing.")
  var dryRun = false

  @Flag(help: "Print the changes as a unified diff.")
  var diff = false

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

  @Option(
    name: .customLong("known-managed-scheme"),
    help: ArgumentHelp(
      "A queried scheme of an app known to integrate the Intune SDK: its -intunemam twin is not added, "
        + "which makes room in LSApplicationQueriesSchemes (repeat for each scheme).", valueName: "scheme"))
  var knownManagedSchemes: [String] = []

  @Option(
    help: ArgumentHelp(
      "How a dictionary activation rule becomes a predicate: intune (IntuneMAMConfigurator's shape, which "
        + "may accept other shares: a warning says which) or apple (the dictionary's own meaning, with the "
        + "Intune types added).", valueName: "style"))
  var dictionaryStyle: DictionaryConversionStyle = .intune

  @OptionGroup var outputOptions: OutputOptions<OutputFormat>

  func validate() throws {
    if project != nil {
      let fileOptions = [
        ("-i", infoPlist), ("-e", entitlements), ("-o", output), ("--containing-app", containingApp),
        ("--containing-app-plist", containingAppPlist),
      ]
      if let (name, _) = fileOptions.first(where: { $0.1 != nil }) {
        throw ValidationError(
          "\(name) cannot be used with --project: the project names each target's files itself")
      }
      return
    }
    if target != nil { throw ValidationError("--target needs --project, the Xcode project it is in") }
    // The closed tool's arguments, as before --project existed.
    if infoPlist == nil { throw ValidationError("Missing expected argument '-i <Info.plist>'") }
    if entitlements == nil { throw ValidationError("Missing expected argument '-e <entitlements>'") }
  }
}

extension IntuneGuideVersion: ExpressibleByArgument {}
