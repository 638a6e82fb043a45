import CLITestSupport
import Foundation
import Testing

/// docs/design.md's CLI contract: every subcommand that reads one rule takes `--rule FILE` (a predicate file, a
/// rule plist or an extension Info.plist), `--predicate TEXT` or standard input, reads them the same way and
/// fails the same way: missing file 66, unreadable 74, malformed 65, both options a usage error (2).
@Suite("One rule input: --rule, --predicate and standard input read and fail alike everywhere")
struct RuleInputTests {
  /// Each subcommand that reads one rule, with what else it needs to run.
  static let readers: [[String]] = [
    ["format"], ["parse"], ["eval"], ["convert"], ["inject"], ["explain", "--preset", "photos"], ["lint"],
  ]

  static let share = "Examples/SampleApp/ShareExtension/Info.plist"
  static let action = "Examples/SampleApp/ActionExtension/Info.plist"
  static let app = "Examples/SampleApp/App/Info.plist"

  @Test("the table holds every subcommand whose help offers --rule")
  func everyReaderIsListed() throws {
    let root = try RuleKitBinary.run(["--help"])
    let offering = try CLIConventionsTests.listedSubcommands(root.standardOutput).filter {
      try RuleKitBinary.run([$0, "--help"]).standardOutput.contains("--rule <FILE>")
    }
    #expect(Set(offering) == Set(Self.readers.map { $0[0] }))
  }

  @Test("a missing --rule file: exit 66 and one message, saying what to check", arguments: readers)
  func missingFile(_ reader: [String]) throws {
    let run = try RuleKitBinary.run(reader + ["--rule", "no-such/Info.plist"])
    #expect(run.status == 66)
    #expect(run.standardOutput.isEmpty)
    #expect(
      run.standardError
        == "rulekit: error: no-such/Info.plist: no such file; check the path (relative paths start at the "
        + "current directory)\n")
  }

  @Test("in JSON mode the missing file is the same record everywhere", arguments: readers)
  func missingFileJSON(_ reader: [String]) throws {
    let run = try RuleKitBinary.run(reader + ["--rule", "no-such/Info.plist", "--format", "json"])
    #expect(run.status == 66)
    let document = try JSONSerialization.jsonObject(with: Data(run.standardError.utf8)) as? [String: Any]
    let diagnostics = try #require(document?["diagnostics"] as? [[String: String]], "\(run.standardError)")
    #expect(
      diagnostics == [
        [
          "file": "no-such/Info.plist", "severity": "error",
          "message": "no such file; check the path (relative paths start at the current directory)",
        ]
      ])
  }

  @Test("a directory given as --rule: exit 74 and one message", arguments: readers)
  func unreadable(_ reader: [String]) throws {
    let run = try RuleKitBinary.run(reader + ["--rule", "Examples"])
    #expect(run.status == 74)
    #expect(
      run.standardError
        == "rulekit: error: Examples: cannot read: it is a directory; pass the file inside it\n")
  }

  @Test(
    "an app's Info.plist (no rule): exit 65, pointing at its root dictionary, the same everywhere",
    arguments: readers)
  func noRuleInThePlist(_ reader: [String]) throws {
    let run = try RuleKitBinary.run(reader + ["--rule", Self.app])
    #expect(run.status == 65)
    #expect(
      run.standardError == """
        \(Self.app):4:1: error: no NSExtension › NSExtensionAttributes › NSExtensionActivationRule in the \
        property list (an app's Info.plist has none: pass the extension's)
        <dict>
        ^

        """)
  }

  @Test("--rule and --predicate together: a usage error (exit 2) saying which to keep", arguments: readers)
  func bothOptions(_ reader: [String]) throws {
    let run = try RuleKitBinary.run(reader + ["--rule", Self.share, "--predicate", "TRUEPREDICATE"])
    #expect(run.status == 2)
    #expect(
      run.standardError.hasPrefix(
        "Error: Give --rule FILE or --predicate TEXT, not both (with neither, the rule is read from standard "
          + "input).\nUsage: rulekit \(reader[0]) "), "\(run.standardError)")
  }

  @Test(
    "standard input and --rule - are read like --rule FILE: a plist is a plist",
    arguments: [share, action, "Examples/IntuneGuide/rule-B.predicate"])
  func standardInputIsARuleFile(_ file: String) throws {
    let contents = try String(
      contentsOf: RuleKitBinary.packageRoot.appendingPathComponent(file), encoding: .utf8)
    for reader in Self.readers {
      let fromFile = try RuleKitBinary.run(reader + ["--rule", file])
      for fromInput in [
        try RuleKitBinary.run(reader, standardInput: contents),
        try RuleKitBinary.run(reader + ["--rule", "-"], standardInput: contents),
      ] {
        #expect(fromInput.status == fromFile.status, "\(reader) \(file): \(fromInput.standardError)")
        #expect(
          fromInput.standardOutput == fromFile.standardOutput.replacingOccurrences(of: file, with: "<stdin>"),
          "\(reader) \(file)")
      }
    }
  }

  @Test("a syntax error in a plist on standard input points into the plist", arguments: ["format", "parse"])
  func standardInputDiagnosticsPointIntoThePlist(_ subcommand: String) throws {
    let plist = """
      <plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>
      <key>NSExtensionActivationRule</key>
      <string>SUBQUERY(extensionItems, $e,
        $e.attachments.@count &gt; ).@count == 1</string>
      </dict></dict></dict></plist>
      """
    let run = try RuleKitBinary.run([subcommand], standardInput: plist)
    #expect(run.status == 65)
    // At the ')' in the file; read as predicate text, the plist would fail at its first '<'.
    #expect(
      run.standardError.hasPrefix("<stdin>:4:30: error: expected an expression, found ')'\n"),
      "\(run.standardError)")
  }

  @Test(
    "with nothing given on a terminal, a usage error instead of waiting",
    .enabled(if: CLIConventionsTests.canFakeTerminal))
  func terminalIsNotRead() throws {
    let binary = try RuleKitBinary.locate().path
    for (arguments, operands) in [("lint", "FILE…, "), ("format", ""), ("explain --preset photos", "")] {
      let run = try RuleKitBinary.run(
        ["-qec", "'\(binary)' \(arguments) --color never", "/dev/null"],
        executable: URL(fileURLWithPath: "/usr/bin/script"))
      #expect(run.status == 2, "\(arguments): \(run.standardOutput)")
      #expect(
        run.standardOutput.contains(
          "rulekit: error: no rule given: pass \(operands)--rule FILE or --predicate TEXT, or pipe the rule "
            + "into standard input"), "\(arguments): \(run.standardOutput)")
    }
  }
}

@Suite("rulekit lint takes FILE…, --rule, --predicate and standard input")
struct LintInputTests {
  static let truePredicate =
    "1:1: error: TRUEPREDICATE activates for everything; the App Store rejects extensions whose rule "
    + "contains it [RK001 true-predicate]"

  @Test("--rule FILE lints like FILE")
  func ruleOption() throws {
    let operand = try RuleKitBinary.run(["lint", RuleInputTests.share])
    let option = try RuleKitBinary.run(["lint", "--rule", RuleInputTests.share])
    #expect(option.status == 0)
    #expect(option.standardOutput == operand.standardOutput)
    #expect(option.standardOutput == "no problems found in 1 file\n")
  }

  @Test("--predicate TEXT, standard input and '-' are linted, named <predicate> and <stdin>")
  func predicateAndStandardInput() throws {
    let predicate = try RuleKitBinary.run(["lint", "--predicate", "TRUEPREDICATE"])
    #expect(predicate.status == 1)
    #expect(predicate.standardOutput.hasPrefix("<predicate>:" + Self.truePredicate), "\(predicate)")
    for arguments in [["lint"], ["lint", "-"], ["lint", "--rule", "-"]] {
      let piped = try RuleKitBinary.run(arguments, standardInput: "TRUEPREDICATE\n")
      #expect(piped.status == 1, "\(arguments)")
      #expect(piped.standardOutput.hasPrefix("<stdin>:" + Self.truePredicate), "\(arguments)")
    }
    let json = try RuleKitBinary.run(["lint", "--predicate", "TRUEPREDICATE", "--format", "json"])
    let document = try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any]
    #expect(document?["files"] as? [String] == ["<predicate>"])
  }

  @Test("files and --rule together are all linted")
  func filesAndOption() throws {
    let run = try RuleKitBinary.run([
      "lint", RuleInputTests.share, "Examples/SampleApp/OpenInExtension/Info.plist", "--rule",
      RuleInputTests.action,
    ])
    #expect(run.status == 0, "\(run.standardError)")
    #expect(run.standardOutput == "no problems found in 3 files\n")
  }
}
