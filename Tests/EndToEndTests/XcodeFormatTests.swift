import CLITestSupport
import Foundation
import Testing

/// `--format xcode` is for build phases, where Xcode reads the output and files an issue for each
/// `file:line:column: error: message` line (or `error: message` for one about no file). Every failure a
/// subcommand offering it can end in must be such a line, or the build fails with no issue to show why.
@Suite("--format xcode keeps every problem in Xcode's issue form")
struct XcodeFormatTests {
  static let cases = "Tests/EndToEndTests/BadInput/cases/"
  static let ruleB = "Examples/IntuneGuide/rule-B.predicate"

  /// A failing command line, its exit status and the first line it must write to standard error.
  struct Failure: CustomTestStringConvertible, Sendable {
    var arguments: [String]
    var status: Int32
    var header: String
    var testDescription: String { arguments.joined(separator: " ") }

    init(_ arguments: [String], _ status: Int32, _ header: String) {
      self.arguments = arguments
      self.status = status
      self.header = header
    }
  }

  static let failures: [Failure] = [
    // lint: every way reading a rule fails, and a usage error.
    Failure(
      ["lint", "Examples/SampleApp/App/Info.plist"], 65,
      "Examples/SampleApp/App/Info.plist:4:1: error: no NSExtension › NSExtensionAttributes › "
        + "NSExtensionActivationRule in the property list (an app's Info.plist has none: pass the extension's)"
    ),
    Failure(
      ["lint", "no-such/Info.plist"], 66,
      "no-such/Info.plist:1:1: error: no such file; check the path (relative paths start at the current "
        + "directory)"),
    Failure(
      ["lint", "Examples"], 74, "Examples:1:1: error: cannot read: it is a directory; pass the file inside it"
    ),
    Failure(
      ["lint", cases + "plist-truncated.plist"], 65,
      cases + "plist-truncated.plist:33:2: error: expected a value element in <dict>, found <>"),
    Failure(
      ["lint", cases + "plist-truncated-bplist.plist"], 65,
      cases + "plist-truncated-bplist.plist:1:1: error: the binary property list (bplist00) is damaged: "
        + "it is 30 bytes, too short for the 8-byte header, an object and the 32-byte trailer (the file is "
        + "truncated)"),
    Failure(
      ["lint", cases + "plist-root-is-array.plist"], 65,
      cases + "plist-root-is-array.plist:4:1: error: malformed property list: the root of the property list "
        + "is neither a dictionary nor a predicate string"),
    Failure(
      ["lint", cases + "plist-activation-rule-is-integer.plist"], 65,
      cases + "plist-activation-rule-is-integer.plist:12:4: error: NSExtensionActivationRule is an integer; "
        + "it must be a string (a predicate) or a dictionary (NSExtensionActivationSupports… keys)"),
    Failure(
      ["lint", cases + "predicate-invalid-utf8.predicate"], 65,
      cases + "predicate-invalid-utf8.predicate:1:13: error: invalid UTF-8: byte 0xE9 at offset 12"),
    Failure(
      ["lint", "--rule", ruleB, "--predicate", "TRUEPREDICATE"], 2,
      "error: Give --rule FILE or --predicate TEXT, not both (with neither, the rule is read from standard "
        + "input)."),
    Failure(["lint", "--nope"], 2, "error: Unknown option '--nope'. Did you mean '--rule'?"),
    // diff: its two rules, and its bounds.
    Failure(
      ["diff", ruleB, "no-such.predicate"], 66,
      "no-such.predicate:1:1: error: no such file; check the path (relative paths start at the current "
        + "directory)"),
    Failure(
      ["diff", ruleB, cases + "predicate-inject-syntax-error.predicate"], 65,
      cases + "predicate-inject-syntax-error.predicate:2:1: error: expected an expression, found end of input"
    ),
    Failure(["diff", ruleB], 2, "error: Missing expected argument '<second>'"),
    Failure(
      ["diff", ruleB, "Examples/IntuneGuide/rule-C.predicate", "--max-attachments", "40"], 2,
      "error: 224988064012019 contexts of up to 40 attachments in up to 2 items over 9 attachment types "
        + "exceed the limit of 100000 (ContextEnumerator.maximumContexts); lower the most attachments or items "
        + "(--max-attachments, --max-items)"),
    // explain: the rule, the context and their options.
    Failure(
      ["explain", "--rule", "Examples/SampleApp/App/Info.plist", "--preset", "photos"], 65,
      "Examples/SampleApp/App/Info.plist:4:1: error: no NSExtension › NSExtensionAttributes › "
        + "NSExtensionActivationRule in the property list (an app's Info.plist has none: pass the extension's)"
    ),
    Failure(
      ["explain", "--predicate", "a <", "--preset", "photos"], 65,
      "<predicate>:1:4: error: expected an expression, found end of input"),
    Failure(
      ["explain", "--rule", ruleB, "--input", cases + "json-trailing-comma.json"], 65,
      cases + "json-trailing-comma.json:1:40: error: malformed JSON: trailing comma before ']'; JSON allows "
        + "none, remove the comma"),
    Failure(
      ["explain", "--rule", ruleB, "--input", cases + "json-attachments-is-a-string-explain.json"], 65,
      cases + "json-attachments-is-a-string-explain.json:1:1: error: malformed JSON: "
        + "extensionItems[0].attachments: expected an array; an extension context is "
        + #"{"extensionItems":[{"attachments":[{"registeredTypeIdentifiers":["public.url"]}]}]}"#),
    Failure(
      ["explain", "--rule", ruleB, "--input", "no-such.json"], 66,
      "no-such.json:1:1: error: no such file; check the path (relative paths start at the current directory)"),
    Failure(["explain", "--rule", ruleB], 2, "error: give exactly one of --input, --attachment, --preset"),
    Failure(
      ["explain", "--rule", ruleB, "--preset", "nope"], 2,
      "error: no preset named nope; run 'rulekit presets' for the list"),
    Failure(
      ["explain", "--input", "-"], 2,
      "error: --input - reads standard input, so give the rule with --rule or --predicate"),
    // audit: a missing path, a folder that is no bundle, a file that is no zip archive.
    Failure(["audit", "no-such.ipa"], 66, "no-such.ipa:1:1: error: no such file or folder"),
    Failure(
      ["audit", "Examples/SampleApp"], 65,
      "Examples/SampleApp:1:1: error: is not an .app folder (no Info.plist), an .xcarchive (no "
        + "Products/Applications) or an .ipa file"),
    Failure(
      ["audit", "README.md"], 65,
      "README.md:1:1: error: no end-of-central-directory record: not a zip archive, or one cut short (an .ipa "
        + "is a zip file)"),
    // presets
    Failure(["presets", "nope"], 2, "error: no preset named nope; run 'rulekit presets' for the list"),
  ]

  @Test("the table covers every subcommand whose --format offers xcode")
  func everyOfferIsCovered() throws {
    let root = try RuleKitBinary.run(["--help"])
    let offering = try CLIConventionsTests.listedSubcommands(root.standardOutput).filter {
      // "json or xcode": the --format values, not an .xcodeproj option.
      try RuleKitBinary.run([$0, "--help"]).standardOutput.contains("json or xcode")
    }
    #expect(!offering.isEmpty)
    #expect(Set(offering) == Set(Self.failures.map { $0.arguments[0] }))
  }

  @Test("each failure starts with an issue line Xcode files, never coloured", arguments: failures)
  func failureIsAnXcodeIssue(_ failure: Failure) throws {
    let arguments = [failure.arguments[0], "--format", "xcode"] + failure.arguments.dropFirst()
    let run = try RuleKitBinary.run(arguments + ["--color", "always"])
    #expect(run.status == failure.status)
    #expect(run.standardOutput.isEmpty)
    let first = run.standardError.split(separator: "\n", omittingEmptySubsequences: false).first ?? ""
    #expect(first == failure.header)
    #expect(Self.isXcodeIssue(first), "not an Xcode issue line: \(first)")
    #expect(!run.standardError.contains("\u{1B}["), "coloured")
  }

  /// `path:line:column: error: …` or `error: …`.
  static func isXcodeIssue<S: StringProtocol>(_ line: S) -> Bool {
    if line.hasPrefix("error: ") { return true }
    guard let range = line.range(of: ": error: ") else { return false }
    let location = line[..<range.lowerBound].split(separator: ":", omittingEmptySubsequences: false)
    guard location.count >= 3 else { return false }
    return location.suffix(2).allSatisfy { !$0.isEmpty && $0.allSatisfy(\.isNumber) }
  }
}
