import AppBundles
import ArgumentParser
import IntuneConfigurator

/// `rulekit audit APP`: whether a built app and each extension in it is ready for Intune (``AppAuditor``).
struct AuditCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "audit",
    abstract: "Check a built app (.ipa, .app or .xcarchive) and each extension in it for Intune.",
    discussion: """
      Reads the app's and every PlugIns/*.appex's Info.plist (binary or XML) and entitlements (from the \
      executable's code signature, else embedded.mobileprovision; no signature is validated) without \
      extracting or writing anything. Per bundle: its kind, bundle ID, activation rule (a dictionary rule \
      converted to a predicate), the Intune twins it misses, IntuneMAMSettings, queried schemes against iOS's \
      limit, keychain groups, and every change 'rulekit configure' would make. Exit status 1 when something \
      required is missing. Archive limits: docs/limits.md.

      Examples:
        rulekit audit Examples/BuiltApp/Configured/Notes.app
        # exit 1: the share extension is not configured for Intune
        rulekit audit --format xcode Examples/BuiltApp/Shipped/Notes.app
      """)

  @Argument(help: "An .ipa file, or an .app or .xcarchive folder.", completion: .file())
  var path: String

  @OptionGroup var outputOptions: OutputOptions<RulesOutputFormat>

  var consoleSettings: ConsoleSettings { outputOptions.consoleSettings }

  func run() throws {
    let report: AuditReport
    do {
      report = try AppAuditor.audit(path: path)
    } catch {
      throw Self.fail(error)
    }
    switch outputOptions.format {
    case .json: Console.json(AuditOutput.json(report))
    case .xcode: for line in AuditOutput.xcodeLines(report) { Console.result(line) }
    case .text:
      Console.diagnosticResult(AuditOutput.text(report, quiet: outputOptions.quiet))
    }
    if report.hasProblems { throw RulesCLI.Exit.problemsFound }
  }

  static func fail(_ error: AppAuditError) -> ExitCode {
    let code: ExitCode =
      switch error.bundleError?.kind {
      case .notFound?: RulesCLI.Exit.missingInput
      case .inputOutput?: RulesCLI.Exit.ioError
      default: RulesCLI.Exit.invalidInput
      }
    return RulesCLI.fail(InputDiagnostic(message: error.message, file: error.path), code: code)
  }
}
