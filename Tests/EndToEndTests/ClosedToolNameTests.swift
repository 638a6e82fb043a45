import CLITestSupport
import Foundation
import Testing

/// The built `rulekit`, copied once into a scratch folder as `IntuneMAMConfigurator`, the way a wrapper
/// switches to it.
enum ClosedToolBinary {
  static let name = "IntuneMAMConfigurator"

  private static let copy: Result<URL, ConfiguredSampleApp.SetupFailure> = {
    do { return .success(try make(named: name)) } catch {
      return .failure(ConfiguredSampleApp.SetupFailure(description: "copying rulekit failed: \(error)"))
    }
  }()

  /// `rulekit` copied into a new scratch folder under `name`.
  static func make(named name: String) throws -> URL {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-renamed-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    let binary = folder.appendingPathComponent(name)
    try FileManager.default.copyItem(at: try RuleKitBinary.locate(), to: binary)
    return binary
  }

  static func get() throws -> URL { try copy.get() }
}

/// `cp rulekit IntuneMAMConfigurator`: the closed tool's command lines, run on copies of the sample app,
/// give `rulekit configure`'s outcome byte for byte.
@Suite("rulekit renamed IntuneMAMConfigurator takes the closed tool's command lines")
struct ClosedToolNameTests {
  typealias Result = ConfigureFastPathTests.Result

  /// `rulekit configure LINE` and `IntuneMAMConfigurator LINE`: every flag form, the closed tool's own and
  /// with configure's options, and the errors the run itself reports.
  static let flagLines: [[String]] = [
    ["-i", "App/Info.plist", "-e", "App/App.entitlements"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "-o", "Out.plist"],
    ["-i", "ShareExtension/Info.plist", "-e", "App/App.entitlements"],
    ["-i", "ActionExtension/Info.plist", "-e", "App/App.entitlements", "--fix-entitlements"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--dry-run", "--diff"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--dry-run", "--format", "json"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--sdk-version", "2017", "-q"],
    ["-i", "Missing.plist", "-e", "App/App.entitlements"],
    ["-i", "App/Info.plist", "-e", ""],
    // Usage errors: the same words, with the program's own name in the usage lines.
    ["-i", "App/Info.plist"],
    ["-i", "App/Info.plist", "-e", "App/App.entitlements", "--unknown"],
  ]

  @Test(arguments: flagLines)
  func flagFormIsRulekitConfigure(_ line: [String]) throws {
    let renamed = try ConfigureFastPathTests.run(line, fullParser: false, closedToolName: true)
    let rulekit = try ConfigureFastPathTests.run(line, fullParser: false)
    #expect(renamed.status == rulekit.status)
    #expect(renamed.standardOutput == rulekit.standardOutput)
    #expect(renamed.files == rulekit.files)
    if rulekit.standardError.contains("Usage: ") {
      #expect(renamed.standardError.contains("Usage: IntuneMAMConfigurator [<options>] -i <Info.plist>"))
      #expect(
        renamed.standardError.replacingOccurrences(of: "IntuneMAMConfigurator", with: "rulekit configure")
          == rulekit.standardError)
    } else {
      #expect(renamed.standardError == rulekit.standardError)
    }
  }

  /// The oldest (Xamarin) form names only the Info.plist: the same Info.plist as `-i … -e …` (the sample's
  /// app groups are in it already), the entitlements untouched, and a note saying what was not checked.
  @Test func positionalFormConfiguresWithoutEntitlements() throws {
    let renamed = try ConfigureFastPathTests.run(["App/Info.plist"], fullParser: false, closedToolName: true)
    let rulekit = try ConfigureFastPathTests.run(
      ["-i", "App/Info.plist", "-e", "App/App.entitlements"], fullParser: false)
    #expect(renamed.status == 0)
    #expect(renamed.files == rulekit.files)
    let original = try Data(contentsOf: ConfiguredSampleApp.example.appendingPathComponent("App/Info.plist"))
    #expect(renamed.files["App/Info.plist"] != original)
    #expect(
      renamed.standardError.hasPrefix(
        "App/Info.plist:4:1: note: no entitlements file was given, so IntuneMAMSettings.AppGroupIdentifiers "
          + "(from the app groups) and the keychain access groups are not checked [entitlements-not-given]\n"
          + "  fix: pass the target's entitlements file with -e (in Xcode: CODE_SIGN_ENTITLEMENTS)\n"))
    #expect(renamed.standardError.hasSuffix("wrote App/Info.plist\n"))
  }

  @Test func positionalFormWritesTheSecondPath() throws {
    let renamed = try ConfigureFastPathTests.run(
      ["App/Info.plist", "Out.plist"], fullParser: false, closedToolName: true)
    let rulekit = try ConfigureFastPathTests.run(
      ["-i", "App/Info.plist", "-e", "App/App.entitlements", "-o", "Out.plist"], fullParser: false)
    #expect(renamed.status == 0)
    #expect(renamed.files == rulekit.files)
    let original = try Data(contentsOf: ConfiguredSampleApp.example.appendingPathComponent("App/Info.plist"))
    #expect(renamed.files["App/Info.plist"] == original)
    #expect(renamed.files["Out.plist"] != nil)
  }

  /// -generateOpenInIcons without an app, or with an argument it does not take, is a one-line usage error.
  @Test(arguments: [["-generateOpenInIcons"], ["-generateOpenInIcons", "App.app", "-i", "Info.plist"]])
  func openInIconsUsageErrors(_ line: [String]) throws {
    let renamed = try ConfigureFastPathTests.run(line, fullParser: false, closedToolName: true)
    #expect(renamed.status == 2)
    #expect(renamed.standardError.hasPrefix("rulekit: error: "))
    #expect(renamed.standardError.contains("IntuneMAMConfigurator -generateOpenInIcons /path/to/app.app"))
    #expect(renamed.standardOutput.isEmpty)
    for (name, data) in renamed.files {
      #expect(data == (try? Data(contentsOf: ConfiguredSampleApp.example.appendingPathComponent(name))))
    }
  }

  /// Help is configure's, under the program's name; golden in Golden/closed-tool/help.txt.
  @Test func helpIsConfiguresUnderTheClosedToolsName() throws {
    let help = try RuleKitBinary.run(["--help"], executable: ClosedToolBinary.get())
    #expect(help.status == 0)
    let url = RuleKitBinary.testDirectory.appendingPathComponent("Golden/closed-tool/help.txt")
    if ProcessInfo.processInfo.environment["RULEKIT_UPDATE_GOLDEN"] == "1" {
      try FileManager.default.createDirectory(
        at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
      try Data(help.standardOutput.utf8).write(to: url)
    }
    #expect(help.standardOutput == (try String(contentsOf: url, encoding: .utf8)))
    #expect(
      help.standardOutput.contains(
        "USAGE: IntuneMAMConfigurator [<options>] -i <Info.plist> -e <entitlements>"))
    let configureHelp = try RuleKitBinary.run(["configure", "--help"])
    // Every option line of configure's help is there.
    let options = configureHelp.standardOutput.components(separatedBy: "OPTIONS:\n")
    #expect(options.count == 2 && help.standardOutput.hasSuffix(options[1]))
  }

  /// The name is compared exactly: another spelling is plain `rulekit`.
  @Test func onlyTheExactNameSwitches() throws {
    let other = try ClosedToolBinary.make(named: "intunemamconfigurator")
    defer { try? FileManager.default.removeItem(at: other.deletingLastPathComponent()) }
    let outcome = try RuleKitBinary.run(["-i", "Info.plist", "-e", "App.entitlements"], executable: other)
    #expect(outcome.status == 2)
    #expect(outcome.standardError.hasPrefix("Error: Unknown option '-i'"))
  }
}
