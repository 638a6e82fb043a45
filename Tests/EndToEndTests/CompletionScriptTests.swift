import CLITestSupport
import Foundation
import Testing

/// `rulekit --generate-completion-script bash|zsh|fish`: every subcommand is offered, and the scripts parse.
///
/// The subcommands come from the help (`rulekit --help`, then `--help` of each one that has its own), not
/// from a list here, so a new subcommand is checked without touching this file. bash is required (the test
/// fails without it) and its script is also run: sourced, asked to complete after each command, the words it
/// offers must include every subcommand. zsh and fish are checked with `zsh -n` and `fish --no-execute` only
/// where they are installed; where they are not (as on the Linux CI image) those two tests are reported as
/// skipped, and their scripts are checked only by the text tests, which need no shell.
@Suite("Shell completion scripts")
struct CompletionScriptTests {
  /// Every subcommand path (`["lint"]`, `["uti", "conforms"]`…) the help lists, found recursively.
  static func subcommandPaths() throws -> [[String]] {
    var paths: [[String]] = []
    var pending: [[String]] = [[]]
    while let parent = pending.popLast() {
      let help = try RuleKitBinary.run(parent + ["--help"])
      #expect(help.status == 0, "rulekit \(parent.joined(separator: " ")) --help")
      for name in CLIConventionsTests.listedSubcommands(help.standardOutput) {
        paths.append(parent + [name])
        pending.append(parent + [name])
      }
    }
    return paths
  }

  static func script(_ shell: String) throws -> String {
    let outcome = try RuleKitBinary.run(["--generate-completion-script", shell])
    #expect(outcome.status == 0, "\(outcome.standardError)")
    return outcome.standardOutput
  }

  /// `name` found on `PATH` or in the usual places.
  static func shell(_ name: String) -> URL? {
    let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
    let directories =
      path.split(separator: ":").map(String.init) + [
        "/bin", "/usr/bin", "/usr/local/bin", "/opt/homebrew/bin",
      ]
    return directories.lazy.map { URL(fileURLWithPath: $0).appendingPathComponent(name) }
      .first { FileManager.default.isExecutableFile(atPath: $0.path) }
  }

  @Test("the help lists the subcommands the checks below need")
  func helpListsSubcommands() throws {
    let paths = try Self.subcommandPaths()
    #expect(paths.contains(["lint"]) && paths.contains(["uti", "conforms"]), "\(paths)")
  }

  @Test("each script defines and offers every subcommand", arguments: ["bash", "zsh", "fish"])
  func offersEverySubcommand(_ shell: String) throws {
    let script = try Self.script(shell)
    for path in try Self.subcommandPaths() {
      let name = path.joined(separator: " ")
      let parent = (["rulekit"] + path.dropLast()).joined(separator: " ")
      let function = (["_rulekit"] + path).joined(separator: "_")
      let last = path[path.count - 1]
      switch shell {
      case "fish":
        // A `case` in the token parser, and an offer after the parent command.
        #expect(script.contains("case '\(last)'"), "fish: \(name) is not parsed")
        #expect(
          script.contains("positional \"\(parent)\" -eq 1' -fa '\(last)'"), "fish: \(name) is not offered")
      case "zsh":
        #expect(script.contains("\n\(function)() {"), "zsh: no \(function)")
        #expect(script.contains("'\(last):"), "zsh: \(name) is not offered")
      default:
        #expect(script.contains("\n\(function)() {"), "bash: no \(function)")
      }
    }
  }

  /// Sources the bash script and asks `_rulekit` what to complete after `words` and an empty word.
  static func bashCompletions(after words: [String], script: URL, bash: URL) throws -> Set<String> {
    let quoted = (["rulekit"] + words + [""]).map { "'\($0)'" }.joined(separator: " ")
    let line = "rulekit " + words.map { $0 + " " }.joined()
    let program = """
      source '\(script.path)'
      COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count + 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
      _rulekit rulekit '' '\(words.last ?? "rulekit")'
      printf '%s\\n' "${COMPREPLY[@]}"
      """
    let outcome = try RuleKitBinary.run(["-c", program], executable: bash)
    #expect(outcome.status == 0, "\(outcome.standardError)")
    return Set(outcome.standardOutput.split(separator: "\n").map(String.init))
  }

  @Test("bash -n accepts the bash script, and completing after each command offers all its subcommands")
  func bashScriptWorks() throws {
    let bash = try #require(Self.shell("bash"), "bash is needed to check the bash completion script")
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-\(UUID()).bash")
    try Data(try Self.script("bash").utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let syntax = try RuleKitBinary.run(["-n", file.path], executable: bash)
    #expect(syntax.status == 0, "bash -n: \(syntax.standardError)")
    let paths = try Self.subcommandPaths()
    for parent in Set(paths.map { Array($0.dropLast()) }) {
      let offered = try Self.bashCompletions(after: parent, script: file, bash: bash)
      let expected = Set(paths.filter { Array($0.dropLast()) == parent }.map { $0[$0.count - 1] })
      #expect(expected.isSubset(of: offered), "after rulekit \(parent): offered \(offered.sorted())")
    }
  }

  @Test("zsh -n accepts the zsh script (only where zsh is installed)", .enabled(if: shell("zsh") != nil))
  func zshSyntax() throws {
    try checkSyntax("zsh", arguments: ["-n"])
  }

  @Test(
    "fish --no-execute accepts the fish script (only where fish is installed)",
    .enabled(if: shell("fish") != nil))
  func fishSyntax() throws {
    try checkSyntax("fish", arguments: ["--no-execute"])
  }

  private func checkSyntax(_ shell: String, arguments: [String]) throws {
    let executable = try #require(Self.shell(shell))
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-\(UUID()).\(shell)")
    try Data(try Self.script(shell).utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let outcome = try RuleKitBinary.run(arguments + [file.path], executable: executable)
    #expect(outcome.status == 0, "\(shell) \(arguments): \(outcome.standardError)")
  }
}
