import CLITestSupport
import Foundation
import Testing

/// One run of the built `rulekit` from the package root, with standard input, extra environment variables and
/// standard output and error piped (so never a terminal).
private struct CLIRun {
  var status: Int32
  var output: String
  var errors: String

  static let escape = "\u{1B}["

  init(_ arguments: [String], input: String = "", environment: [String: String] = [:]) throws {
    try self.init(RuleKitBinary.run(arguments, standardInput: input, environment: environment))
  }

  /// Runs `line` through `/bin/sh`, with the built `rulekit` first on `PATH`: what a reader of the help does.
  init(shell line: String) throws {
    let directory = try RuleKitBinary.locate().deletingLastPathComponent().path
    let path = directory + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
    try self.init(
      RuleKitBinary.run(
        ["-c", line], environment: ["PATH": path], executable: URL(fileURLWithPath: "/bin/sh")))
  }

  private init(_ outcome: RuleKitBinary.Outcome) {
    status = outcome.status
    output = outcome.standardOutput
    errors = outcome.standardError
  }

  /// The output parsed as one JSON object.
  var outputJSON: [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
  }

  /// Standard error parsed as one JSON object.
  var errorJSON: [String: Any]? {
    try? JSONSerialization.jsonObject(with: Data(errors.utf8)) as? [String: Any]
  }
}

/// A copy of files from the package in a scratch folder, for the commands that write.
private struct ScratchCopy {
  let folder: URL

  init(_ paths: [String]) throws {
    folder = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-cli-\(UUID())")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for path in paths {
      try FileManager.default.copyItem(
        at: RuleKitBinary.packageRoot.appendingPathComponent(path),
        to: folder.appendingPathComponent((path as NSString).lastPathComponent))
    }
  }

  func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
  func contents(_ name: String) throws -> String { try String(contentsOfFile: path(name), encoding: .utf8) }
  func remove() { try? FileManager.default.removeItem(at: folder) }
}

@Suite("rulekit follows Unix conventions: help, examples, JSON, quiet, colour, pipes")
struct CLIConventionsTests {
  /// Every subcommand, as typed after `rulekit`. `everySubcommandIsListed` keeps it complete.
  static let subcommands: [[String]] = [
    ["uti"], ["configure"], ["presets"], ["convert"], ["inject"], ["diff"], ["lint"], ["explain"], ["test"],
    ["eval"], ["format"], ["parse"], ["uti", "conforms"], ["uti", "ancestors"], ["uti", "descendants"],
    ["uti", "info"], ["uti", "for-extension"], ["uti", "for-mime"], ["build-settings"], ["open-in-icons"],
    ["audit"],
  ]

  /// The names a help text lists under SUBCOMMANDS.
  static func listedSubcommands(_ help: String) -> [String] {
    guard let section = help.components(separatedBy: "SUBCOMMANDS:\n").last, help.contains("SUBCOMMANDS:")
    else { return [] }
    // The list ends at the first blank line; "See 'rulekit help <subcommand>'…" follows it.
    let entries = section.split(separator: "\n", omittingEmptySubsequences: false).prefix { !$0.isEmpty }
    return entries.compactMap { line -> String? in
      // Entries are indented two spaces; wrapped abstracts are indented further.
      guard line.hasPrefix("  "), !line.hasPrefix("   ") else { return nil }
      return line.split(separator: " ").first.map(String.init)
    }.filter { $0 != "help" }
  }

  @Test("--version prints the version alone, the same on its fast path as through the argument parser")
  func versionIsPrintedAlone() throws {
    let fast = try CLIRun(["--version"])
    // Any other argument beside it takes swift-argument-parser's path.
    let parsed = try CLIRun(["lint", "--version"])
    #expect(fast.status == 0 && fast.errors.isEmpty)
    #expect(fast.output.wholeMatch(of: /[0-9]+\.[0-9]+\.[0-9]+\n/) != nil)
    #expect(fast.output == parsed.output && parsed.status == 0)
  }

  @Test("the table of subcommands holds every subcommand the help lists")
  func everySubcommandIsListed() throws {
    let root = try CLIRun(["--help"])
    let uti = try CLIRun(["uti", "--help"])
    let listed =
      Self.listedSubcommands(root.output).map { [$0] }
      + Self.listedSubcommands(uti.output).map { ["uti", $0] }
    #expect(!listed.isEmpty)
    #expect(Set(listed) == Set(Self.subcommands))
  }

  @Test("SUB --help, SUB -h and help SUB print SUB's own usage, with examples", arguments: subcommands)
  func helpIsTheSubcommands(_ subcommand: [String]) throws {
    let usage = "USAGE: rulekit \(subcommand.joined(separator: " "))"
    for arguments in [subcommand + ["--help"], subcommand + ["-h"], ["help"] + subcommand] {
      let run = try CLIRun(arguments)
      #expect(run.status == 0, "\(arguments)")
      #expect(run.output.contains(usage + " "), "\(arguments) printed: \(run.output.prefix(300))")
      #expect(run.output.contains("\nExamples:\n"), "\(arguments) has no examples")
    }
  }

  @Test(
    "help for a name that is no subcommand is a usage error naming it, not the parent's help",
    arguments: [
      (["fromat", "--help"], "fromat"), (["help", "fromat"], "fromat"),
      (["uti", "conform", "-h"], "conform"),
      (["help", "uti", "conform"], "conform"),
    ])
  func helpForAnUnknownSubcommand(_ arguments: [String], _ name: String) throws {
    let run = try CLIRun(arguments)
    #expect(run.status == 2)
    #expect(run.output.isEmpty, "printed a help page: \(run.output.prefix(200))")
    #expect(run.errors.hasPrefix("Error: '\(name)' is not a subcommand of rulekit"))
  }

  /// The example command lines in a help text; a `# exit N: why` line before an example documents its status.
  private static func examples(in help: String) -> [(line: String, status: Int32)] {
    guard let section = help.components(separatedBy: "\nExamples:\n").dropFirst().first else { return [] }
    var examples: [(String, Int32)] = []
    var pending = ""
    var status: Int32 = 0
    for rawLine in section.split(separator: "\n", omittingEmptySubsequences: false) {
      let line = rawLine.trimmingCharacters(in: .whitespaces)
      if line.isEmpty && pending.isEmpty { break }
      if line.hasPrefix("# exit ") {
        status = Int32(line.dropFirst("# exit ".count).prefix { $0.isNumber }) ?? -1
        continue
      }
      if line.hasSuffix("\\") {
        pending += line.dropLast() + " "
        continue
      }
      examples.append((pending + line, status))
      pending = ""
      status = 0
    }
    return examples
  }

  @Test("every example in the help runs and exits as documented", arguments: subcommands)
  func helpExamplesWork(_ subcommand: [String]) throws {
    let help = try CLIRun(subcommand + ["--help"]).output
    let examples = Self.examples(in: help)
    #expect(!examples.isEmpty)
    for example in examples {
      #expect(example.line.hasPrefix("rulekit "), "\(example.line)")
      // Examples must be safe to paste: none may edit the files under Examples/.
      #expect(!example.line.contains("--in-place"), "\(example.line)")
      #expect(!example.line.contains("configure") || example.line.contains("--dry-run"), "\(example.line)")
      let run = try CLIRun(shell: example.line)
      #expect(run.status == example.status, "\(example.line): \(run.errors)")
      // Piped, as here, nothing is coloured.
      #expect(!run.output.contains(CLIRun.escape) && !run.errors.contains(CLIRun.escape), "\(example.line)")
    }
  }

  /// One run per reporting subcommand with `--format json`, and the top-level keys docs/json-output.md gives.
  static let jsonDocuments: [(subcommand: [String], arguments: [String], keys: Set<String>)] = [
    (["uti", "conforms"], ["public.heic", "public.image"], ["type", "supertype", "conforms"]),
    (["uti", "ancestors"], ["public.heic"], ["type", "ancestors"]),
    (["uti", "descendants"], ["public.heif-standard"], ["type", "descendants"]),
    (
      ["uti", "info"], ["public.jpeg"],
      ["identifier", "declaredBy", "description", "parents", "ancestors", "tags", "dynamic"]
    ),
    (["uti", "for-extension"], ["gpx"], ["tag", "tagClass", "preferred", "types"]),
    (["uti", "for-mime"], ["image/heic"], ["tag", "tagClass", "preferred", "types"]),
    (
      ["configure"],
      [
        "-i", "Examples/SampleApp/App/Info.plist", "-e", "Examples/SampleApp/App/App.entitlements",
        "--dry-run",
      ],
      ["target", "changes", "findings", "written"]
    ),
    (["presets"], [], ["presets"]),
    (
      ["build-settings"], ["--project", BuildSettingsEndToEndTests.project, "--target", "Share"],
      ["project", "target", "configuration", "sdk", "buildSettings", "diagnostics"]
    ),
    (
      ["convert"], ["--rule", "Examples/SampleApp/ActionExtension/Info.plist"],
      ["predicate", "converted", "style", "written", "differsFromDictionary"]
    ),
    (
      ["inject"], ["--rule", "Examples/IntuneGuide/rule-B.predicate"], ["predicate", "addedTwins", "written"]
    ),
    (
      ["diff"], ["Examples/IntuneGuide/rule-B.predicate", "Examples/IntuneGuide/rule-C.predicate"],
      ["first", "second", "exact", "rulesAgree", "contextsChecked", "disagreements", "smallest"]
    ),
    (["lint"], ["Examples/SampleApp/ShareExtension/Info.plist"], ["files", "findings"]),
    (
      ["explain"],
      ["--rule", "Examples/SampleApp/ShareExtension/Info.plist", "--preset", "firefox-url-text"],
      ["accepted", "context", "root"]
    ),
    (["test"], ["Examples/SampleApp/expectations.json"], ["expectations", "passed", "failed", "outcomes"]),
    (
      ["eval"], ["--rule", "Examples/rules/intune-guide-share-rule.predicate", "--attachment", "public.url"],
      ["result"]
    ),
    (["format"], ["--rule", "Examples/IntuneGuide/rule-C.predicate"], ["predicate", "written"]),
    (["parse"], ["--rule", "Examples/IntuneGuide/rule-C.predicate"], ["valid"]),
    (
      ["open-in-icons"],
      ["Examples/OpenInIcons/AppIcon.appiconset", "-o", "/tmp/rulekit-json-icons", "--dry-run"],
      ["input", "output", "dryRun", "source", "files", "warnings", "infoPlist"]
    ),
    (["audit"], ["Examples/BuiltApp/Configured/Notes.app"], ["path", "bundles", "hasProblems"]),
  ]

  @Test("every subcommand that reports has a row in the JSON table")
  func everyReportingSubcommandHasJSON() {
    // `uti` alone only groups its subcommands; everything else reports something.
    let reporting = Set(Self.subcommands.filter { $0 != ["uti"] })
    #expect(Set(Self.jsonDocuments.map(\.subcommand)) == reporting)
  }

  @Test("docs/json-output.md documents every reporting subcommand's keys")
  func jsonDocumentation() throws {
    let document = try String(
      contentsOf: RuleKitBinary.packageRoot.appendingPathComponent("docs/json-output.md"), encoding: .utf8)
    let headings = document.split(separator: "\n").filter { $0.hasPrefix("### `rulekit ") }
    for row in Self.jsonDocuments {
      let name = "`rulekit \(row.subcommand.joined(separator: " "))"
      let heading = headings.first { $0.contains(name + " ") || $0.contains(name + "`") }
      #expect(heading != nil, "no section for \(name)")
      guard let heading, let section = document.components(separatedBy: heading).last else { continue }
      let body = section.components(separatedBy: "\n### ").first ?? ""
      for key in row.keys { #expect(body.contains("`\(key)`"), "\(name): \(key) is not documented") }
    }
  }

  @Test(
    "--format json prints one document with schemaVersion and the documented keys",
    arguments: jsonDocuments.map { ($0.subcommand + $0.arguments, $0.keys) })
  func jsonDocument(_ arguments: [String], _ keys: Set<String>) throws {
    let run = try CLIRun(arguments + ["--format", "json"])
    #expect(run.status == 0, "\(run.errors)")
    let document = try #require(run.outputJSON, "not one JSON object: \(run.output.prefix(200))")
    #expect(document["schemaVersion"] as? Int == 1)
    #expect(Set(document.keys) == keys.union(["schemaVersion"]))
    #expect(
      !run.errors.contains("wrote") && !run.errors.contains("added"), "informational lines in JSON mode")
  }

  /// Failing runs in JSON mode and their exit statuses.
  static let jsonFailures: [([String], Int32)] = [
    (["lint", "Examples/no-such.predicate"], Int32(66)),
    (["diff", "Examples/IntuneGuide/rule-B.predicate", "Examples/no-such.predicate"], 66),
    (["configure", "-i", "Examples/no-such.plist", "-e", "Examples/SampleApp/App/App.entitlements"], 66),
    (["explain", "--predicate", "a <", "--preset", "safari-page"], 65),
    (["eval", "--predicate", "a <"], 65),
    (["format", "--predicate", "a == (1"], 65),
    (["parse", "--rule", "Examples/rules-with-errors/intune-guide-2018-open-in-rule.predicate"], 65),
    (["test", "Examples/no-such.json"], 66),
    (["presets", "no-such-preset"], 2),
    (["build-settings", "--project", "Examples/no-such.xcodeproj", "--target", "App"], 66),
    (["build-settings", "--project", BuildSettingsEndToEndTests.project, "--target", "NoSuchTarget"], 2),
    (["convert", "--rule", "Examples/no-such.plist"], 66),
    (["inject", "--predicate", "a =="], 65),
    (["uti", "info", "public.jpeg", "--declarations", "Examples/no-such.plist"], 66),
    (["diff", "Examples/IntuneGuide/rule-B.predicate"], 2),
  ]

  @Test(
    "in JSON mode an error is a JSON document on standard error and standard output stays empty",
    arguments: jsonFailures)
  func jsonErrors(_ arguments: [String], _ status: Int32) throws {
    let run = try CLIRun(arguments + ["--format", "json"])
    #expect(run.status == status)
    #expect(run.output.isEmpty)
    let document = try #require(run.errorJSON, "standard error is not one JSON object: \(run.errors)")
    #expect(document["schemaVersion"] as? Int == 1)
    let diagnostics = try #require(document["diagnostics"] as? [[String: Any]])
    let errors = diagnostics.filter { ($0["severity"] as? String) == "error" }
    #expect(!errors.isEmpty)
    #expect(errors.allSatisfy { $0["message"] is String })
  }

  @Test("warnings and the error that follows them share one JSON document")
  func jsonWarningsAndErrorInOneDocument() throws {
    let run = try CLIRun(["eval", "--lenient", "--predicate", "a == “x” AND b <", "--format", "json"])
    #expect(run.status == 65)
    let diagnostics = try #require(run.errorJSON?["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.map { $0["severity"] as? String } == ["warning", "warning", "error"])
  }

  // MARK: Colour

  static let badRule = "Examples/rules-with-errors/intune-guide-2018-open-in-rule.predicate"

  @Test("piped output has no colour, whatever the command")
  func noColourInPipes() throws {
    for arguments in [
      ["parse", "--rule", Self.badRule], ["lint", Self.badRule], ["lint", "--color", "auto", Self.badRule],
    ] {
      let run = try CLIRun(arguments)
      #expect(run.status != 0)
      #expect(!run.output.contains(CLIRun.escape) && !run.errors.contains(CLIRun.escape), "\(arguments)")
    }
  }

  @Test("--color always colours diagnostics like swiftc; --color never and --format xcode do not")
  func colourOnRequest() throws {
    let parse = try CLIRun(["parse", "--color", "always", "--rule", Self.badRule])
    #expect(parse.status == 65)
    #expect(parse.errors.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    #expect(parse.errors.contains("\u{1B}[1;32m^"), "the caret is green")
    let lint = try CLIRun(["lint", "--color", "always", Self.badRule])
    #expect(lint.status == 1)
    #expect(lint.output.contains("\u{1B}[1;31merror:\u{1B}[0m"))
    let explain = [
      "explain", "--rule", "Examples/SampleApp/ShareExtension/Info.plist", "--preset", "safari-page",
    ]
    #expect(try CLIRun(explain + ["--color", "always"]).output.contains("\u{1B}[1;32m✓"))
    #expect(!(try CLIRun(explain).output.contains(CLIRun.escape)))
    let never = try CLIRun(["parse", "--color", "never", "--rule", Self.badRule])
    #expect(!never.errors.contains(CLIRun.escape))
    let xcode = try CLIRun(["lint", "--color", "always", "--format", "xcode", Self.badRule])
    #expect(xcode.status == 1)
    #expect(!xcode.output.contains(CLIRun.escape), "Xcode reads these lines itself")
  }

  @Test("an explicit --color always wins over NO_COLOR; an empty NO_COLOR is no request")
  func noColorPrecedence() throws {
    let forced = try CLIRun(
      ["parse", "--color", "always", "--rule", Self.badRule], environment: ["NO_COLOR": "1"])
    #expect(forced.errors.contains(CLIRun.escape))
    let empty = try CLIRun(
      ["parse", "--color", "always", "--rule", Self.badRule], environment: ["NO_COLOR": ""])
    #expect(empty.errors.contains(CLIRun.escape))
  }

  /// `script` gives the command a terminal; only util-linux's takes `-qec COMMAND FILE`.
  static let canFakeTerminal: Bool = {
    #if os(Linux)
      return FileManager.default.isExecutableFile(atPath: "/usr/bin/script")
    #else
      return false
    #endif
  }()

  @Test("on a terminal diagnostics are coloured unless NO_COLOR is set", .enabled(if: canFakeTerminal))
  func terminalColour() throws {
    let binary = try RuleKitBinary.locate().path
    let command = "'\(binary)' parse --rule \(Self.badRule)"
    let coloured = try CLIRun(shell: "/usr/bin/script -qec \"\(command)\" /dev/null")
    #expect(coloured.output.contains("\u{1B}[1;31merror:"), "\(coloured.output)")
    let plain = try CLIRun(shell: "NO_COLOR=1 /usr/bin/script -qec \"\(command)\" /dev/null")
    #expect(plain.output.contains("error:"))
    #expect(!plain.output.contains(CLIRun.escape), "\(plain.output)")
  }

  // MARK: Quiet

  @Test("configure -q prints nothing but still writes, and exits as without -q")
  func quietConfigure() throws {
    let scratch = try ScratchCopy([
      "Examples/SampleApp/App/Info.plist", "Examples/SampleApp/App/App.entitlements",
    ])
    defer { scratch.remove() }
    let arguments = ["configure", "-i", scratch.path("Info.plist"), "-e", scratch.path("App.entitlements")]
    let loudDryRun = try CLIRun(arguments + ["--dry-run"])
    #expect(loudDryRun.errors.contains("dry run: nothing written"))
    let quietDryRun = try CLIRun(arguments + ["--dry-run", "-q"])
    #expect(quietDryRun.status == loudDryRun.status)
    #expect(quietDryRun.errors.isEmpty)
    let diff = try CLIRun(arguments + ["--dry-run", "--diff", "--quiet"])
    #expect(diff.output.hasPrefix("--- a/"), "the diff is the result and stays")
    #expect(diff.errors.isEmpty)
    let before = try scratch.contents("Info.plist")
    let write = try CLIRun(arguments + ["-q"])
    #expect(write.status == 0)
    #expect(write.errors.isEmpty && write.output.isEmpty)
    #expect(try scratch.contents("Info.plist") != before)
  }

  @Test("lint -q drops the summary but keeps findings and the exit status")
  func quietLint() throws {
    let clean = try CLIRun(["lint", "Examples/SampleApp/ShareExtension/Info.plist"])
    #expect(clean.output.hasPrefix("no problems found"))
    let quietClean = try CLIRun(["lint", "-q", "Examples/SampleApp/ShareExtension/Info.plist"])
    #expect(quietClean.status == 0)
    #expect(quietClean.output.isEmpty)
    let quietBad = try CLIRun(["lint", "--quiet", Self.badRule])
    #expect(quietBad.status == 1)
    #expect(quietBad.output.contains(": error: "))
  }

  @Test("test -q and diff -q are silent on success and keep the mismatches")
  func quietTestAndDiff() throws {
    let loudTest = try CLIRun(["test", "Examples/SampleApp/expectations.json"])
    #expect(loudTest.output.contains("all met"))
    let quietTest = try CLIRun(["test", "-q", "Examples/SampleApp/expectations.json"])
    #expect(quietTest.status == 0)
    #expect(quietTest.output.isEmpty)
    let agreeing = [
      "Examples/IntuneGuide/rule-B.predicate", "Examples/rules/intune-guide-share-rule.predicate",
    ]
    let loudDiff = try CLIRun(["diff"] + agreeing)
    #expect(loudDiff.output.hasPrefix("the rules agree"))
    let quietDiff = try CLIRun(["diff", "-q", "--check"] + agreeing)
    #expect(quietDiff.status == 0)
    #expect(quietDiff.output.isEmpty)
    let disagreeing = try CLIRun([
      "diff", "-q", "--check", "Examples/IntuneGuide/rule-B.predicate",
      "Examples/IntuneGuide/rule-C.predicate",
    ])
    #expect(disagreeing.status == 1)
    #expect(disagreeing.output.contains("disagree"))
  }

  @Test("inject, convert and format: --in-place says what it wrote unless -q")
  func quietInPlace() throws {
    let scratch = try ScratchCopy([
      "Examples/IntuneGuide/rule-B.predicate", "Examples/SampleApp/ActionExtension/Info.plist",
      "Examples/rules/immich-share-extension.predicate",
    ])
    defer { scratch.remove() }
    let injectPrinting = try CLIRun(["inject", "-q", "--rule", scratch.path("rule-B.predicate")])
    #expect(injectPrinting.errors.isEmpty, "the list of added twins is chatter")
    #expect(injectPrinting.output.contains("com.microsoft.intune.mam.public.url"))
    let cases: [(arguments: [String], file: String)] = [
      (["inject", "--in-place", "--rule", scratch.path("rule-B.predicate")], "rule-B.predicate"),
      (["convert", "--in-place", "--rule", scratch.path("Info.plist")], "Info.plist"),
      (
        ["format", "--in-place", "--pretty", "--rule", scratch.path("immich-share-extension.predicate")],
        "immich-share-extension.predicate"
      ),
    ]
    for (arguments, file) in cases {
      let before = try scratch.contents(file)
      let quiet = try CLIRun(arguments + ["-q"])
      #expect(quiet.status == 0, "\(arguments): \(quiet.errors)")
      #expect(quiet.errors.isEmpty && quiet.output.isEmpty, "\(arguments)")
      #expect(try scratch.contents(file) != before, "\(arguments) wrote nothing")
      let loud = try CLIRun(arguments)
      #expect(loud.status == 0)
      #expect(loud.errors.contains(scratch.path(file)), "\(arguments): \(loud.errors)")
    }
  }

  // MARK: Pipes

  @Test("eval --input - and --input /dev/stdin read a piped JSON document", arguments: ["-", "/dev/stdin"])
  func evalReadsStandardInput(_ input: String) throws {
    let run = try CLIRun(
      ["eval", "--predicate", "ANY tags == 'b'", "--input", input], input: #"{"tags": ["a", "b"]}"#)
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.output == "true\n")
    let invalid = try CLIRun(["eval", "--predicate", "TRUEPREDICATE", "--input", input], input: "{\"a\": }")
    #expect(invalid.status == 65)
    #expect(invalid.errors.contains(":1:7: error: "), "\(invalid.errors)")
  }

  @Test("eval --input - needs the rule from elsewhere: a usage error otherwise")
  func evalStandardInputTwice() throws {
    let run = try CLIRun(["eval", "--input", "-"], input: "{}")
    #expect(run.status == 2)
    #expect(run.errors.contains("--rule or --predicate"))
  }

  @Test("explain --input - reads a piped context")
  func explainReadsStandardInput() throws {
    let context = #"{"extensionItems": [{"attachments": [{"registeredTypeIdentifiers": ["public.url"]}]}]}"#
    let run = try CLIRun(
      [
        "explain", "--rule", "Examples/SampleApp/ShareExtension/Info.plist", "--input", "-", "--format",
        "json",
      ],
      input: context)
    #expect(run.status == 0, "\(run.errors)")
    #expect(run.outputJSON?["context"] as? String == "[[public.url]]")
  }
}
