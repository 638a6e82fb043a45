import ArgumentParser

/// `rulekit` run under the closed tool's name (`cp rulekit IntuneMAMConfigurator`), so a wrapper — a MAUI or
/// Xamarin build target, a Capacitor script — switches by renaming the binary:
///
/// - `IntuneMAMConfigurator -i Info.plist -e App.entitlements [-o Out.plist]`, with any other option of
///   `rulekit configure`, is `rulekit configure` with the same arguments.
/// - `IntuneMAMConfigurator Info.plist [New/Info.plist]`, the oldest form (Microsoft's Xamarin build
///   package), configures the Info.plist, or writes the result to the second path, without an
///   entitlements file.
/// - `IntuneMAMConfigurator -generateOpenInIcons /path/to/app.app [-o /path/to/output/directory]` is
///   `rulekit open-in-icons` (the output folder defaults to the current one).
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
      entitlements file. 'IntuneMAMConfigurator -generateOpenInIcons APP.app [-o DIR]' writes the Open-In \
      action extension's template icons into DIR (default: the current folder), as 'rulekit open-in-icons' \
      does, and takes its --dry-run, --force, --appiconset and --format json.

      Examples:
        IntuneMAMConfigurator -i App/Info.plist -e App/App.entitlements
        IntuneMAMConfigurator -i App/Info.plist -e App/App.entitlements \\
          --dry-run --diff
        IntuneMAMConfigurator -generateOpenInIcons MyApp.app -o OpenInIcons
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
    /// `-generateOpenInIcons`: `rulekit open-in-icons` with these settings.
    case openInIcons(OpenInIconsRun)
    /// A command line rulekit cannot run: the message for a usage error.
    case unsupported(String)
  }

  /// `-generateOpenInIcons APP [-o DIR]` and the `open-in-icons` flags it also takes.
  struct OpenInIconsRun: Equatable {
    var input: String
    var output = "."
    var appIconSet = false
    var dryRun = false
    var force = false
    var json = false
    var quiet = false

    /// Reads the closed tool's `-generateOpenInIcons APP [-o DIR]`, in any order, plus rulekit's
    /// `--dry-run`, `--force`, `--appiconset`, `--format text|json` and `-q`; a message for anything else.
    static func parse(_ arguments: [String]) -> Result<OpenInIconsRun, UsageMessage> {
      var input: String?
      var run = OpenInIconsRun(input: "")
      var remaining = arguments[...]
      while let argument = remaining.popFirst() {
        switch argument {
        case "-generateOpenInIcons", "-o", "--output", "--format":
          guard let value = remaining.popFirst(), !value.isEmpty else {
            return .failure(UsageMessage("\(argument) needs a value: " + usage))
          }
          switch argument {
          case "-generateOpenInIcons":
            guard input == nil else { return .failure(UsageMessage("-generateOpenInIcons given twice")) }
            input = value
          case "--format":
            guard value == "json" || value == "text" else {
              return .failure(UsageMessage("--format takes text or json, not '\(value)'"))
            }
            run.json = value == "json"
          default: run.output = value
          }
        case "--dry-run": run.dryRun = true
        case "--force": run.force = true
        case "--appiconset": run.appIconSet = true
        case "-q", "--quiet": run.quiet = true
        default:
          return .failure(
            UsageMessage("unexpected argument '\(argument)' with -generateOpenInIcons: " + usage))
        }
      }
      guard let input else { return .failure(UsageMessage(usage)) }
      run.input = input
      return .success(run)
    }

    static let usage =
      "IntuneMAMConfigurator -generateOpenInIcons /path/to/app.app [-o /path/to/output/directory]"

    var consoleSettings: ConsoleSettings { ConsoleSettings(json: json, quiet: quiet) }

    func execute() throws {
      try OpenInIconsCommand.generate(
        input: input, output: output, appIconSet: appIconSet, dryRun: dryRun, force: force, json: json)
    }
  }

  /// A usage error's message.
  struct UsageMessage: Error, Equatable {
    var text: String
    init(_ text: String) { self.text = text }
  }

  /// Reads `arguments` (without the program name) as the closed tool would.
  static func invocation(_ arguments: [String], environment: [String: String]) -> Invocation {
    if arguments.contains("-generateOpenInIcons") {
      switch OpenInIconsRun.parse(arguments) {
      case .success(let run): return .openInIcons(run)
      case .failure(let message): return .unsupported(message.text)
      }
    }
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
