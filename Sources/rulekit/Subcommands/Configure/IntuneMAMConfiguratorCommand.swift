import ArgumentParser

/// `rulekit` run under the closed tool's name (`cp rulekit IntuneMAMConfigurator`), so a wrapper — a MAUI or
/// Xamarin build target, a Capacitor script — switches by renaming the binary:
///
/// - `IntuneMAMConfigurator -i Info.plist -e App.entitlements [-o Out.plist]`, with any other option of
///   `rulekit configure`, is `rulekit configure` with the same arguments.
/// - `IntuneMAMConfigurator Info.plist [New/Info.plist]`, the oldest form (Microsoft's Xamarin build
///   package), configures the Info.plist, or writes the result to the second path, without an
///   entitlements file.
/// - `-generateOpenInIcons` renders images, which rulekit does not do: a one-line usage error says what to
///   do instead.
///
/// Help and usage errors name the program `IntuneMAMConfigurator`; everything else is `rulekit configure`'s,
/// byte for byte.
struct IntuneMAMConfiguratorCommand: ConfigureOptionsCommand {
  /// The closed tool's executable name, compared exactly (case-sensitively) with the program's.
  static let executableName = "IntuneMAMConfigurator"

  static let configuration = CommandConfiguration(
    commandName: executableName,
    abstract: "rulekit configure under IntuneMAMConfigurator's name.",
    usage: ConfigureCommand.usage(executableName),
    discussion: """
      This is rulekit, renamed so that scripts written for Microsoft's IntuneMAMConfigurator keep working: \
      it makes an app's or extension's Info.plist ready for the Intune App SDK, and takes the closed tool's \
      -i, -e and -o and every option of 'rulekit configure', listed below. The oldest form, \
      'IntuneMAMConfigurator Info.plist [New/Info.plist]', configures the Info.plist without an \
      entitlements file. -generateOpenInIcons is not supported: make the Open-In extension's template \
      icons by hand.

      Examples:
        IntuneMAMConfigurator -i App/Info.plist -e App/App.entitlements
        IntuneMAMConfigurator -i App/Info.plist -e App/App.entitlements \\
          --dry-run --diff
      """,
    version: RuleKitVersion.current)

  @OptionGroup var options: ConfigureOptions

  /// Whether `programPath` (the process's `argv[0]`) names the closed tool: its last path component is
  /// exactly ``executableName``.
  static func isInvoked(as programPath: String?) -> Bool {
    guard let programPath else { return false }
    return programPath.split(separator: "/", omittingEmptySubsequences: true).last == executableName[...]
  }

  /// What one command line of the closed tool asks for.
  enum Invocation: Equatable {
    /// A configure run read without swift-argument-parser.
    case run(ConfigureRun)
    /// Anything else: swift-argument-parser reads the arguments as ``IntuneMAMConfiguratorCommand``.
    case parse
    /// A mode rulekit does not have: the message for a usage error.
    case unsupported(String)
  }

  /// The message for `-generateOpenInIcons`, which renders template PNGs from the app's icons.
  static let openInIconsUnsupported =
    "-generateOpenInIcons is not supported by rulekit, which does not render images: make the Open-In "
    + "extension's template icons by hand, as the Intune guide describes"

  /// Reads `arguments` (without the program name) as the closed tool would.
  static func invocation(_ arguments: [String], environment: [String: String]) -> Invocation {
    if arguments.contains("-generateOpenInIcons") { return .unsupported(openInIconsUnsupported) }
    // IntuneMAMConfigurator /path/to/info.plist [/path/to/new/info.plist]
    if (1...2).contains(arguments.count), arguments.allSatisfy({ !$0.hasPrefix("-") }) {
      var run = ConfigureRun(infoPlist: arguments[0], entitlements: nil)
      run.output = arguments.count == 2 ? arguments[1] : nil
      return .run(run)
    }
    return ConfigureRun.parse(["configure"] + arguments, environment: environment).map(Invocation.run)
      ?? .parse
  }
}
