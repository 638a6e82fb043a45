import ArgumentParser

extension LintCommand {
  /// The lint command for the lines build phases and hooks run — FILE operands with `--format`,
  /// `-q`/`--quiet`, `--color` and `--skip-files-without-rule` (the SwiftPM plugins, `.pre-commit-hooks.yaml`) —
  /// read without swift-argument-parser. Its parse finds each property wrapper's conformances at run time,
  /// and each first look-up scans every conformance record of the process: about 15 M instructions, a third of
  /// linting the sample share extension. Every other line, a repeated option and a value the options do not
  /// take answer `nil` and go to the full parser, which words their errors; `RULEKIT_FULL_PARSER=1` sends
  /// every line there (tests compare the two).
  static func direct(_ arguments: [String], environment: [String: String]) -> LintCommand? {
    guard arguments.first == "lint", environment["RULEKIT_FULL_PARSER"] != "1" else { return nil }
    guard
      let line = DirectArguments(
        arguments.dropFirst(), valued: ["--format", "--color"],
        flags: [
          "-q": "--quiet", "--quiet": "--quiet", "--skip-files-without-rule": "--skip-files-without-rule",
        ],
        takesOperands: true)
    else { return nil }
    var format: RulesOutputFormat?
    if let text = line.values["--format"] {
      guard let chosen = RulesOutputFormat(rawValue: text) else { return nil }
      format = chosen
    }
    var color: ColorChoice?
    if let text = line.values["--color"] {
      guard let chosen = ColorChoice(rawValue: text) else { return nil }
      color = chosen
    }
    let quiet = line.flags.contains("--quiet")
    let skipFilesWithoutRule = line.flags.contains("--skip-files-without-rule")
    let files = line.operands
    // Every property the run reads is given a value: a wrapper left as a definition would stop the process
    // when read.
    var input = RuleInput()
    input.rule = nil
    input.predicate = nil
    var quietOption = QuietOption()
    quietOption.quiet = quiet
    var colorOption = ColorOption()
    colorOption.color = color ?? .auto
    var outputOptions = OutputOptions<RulesOutputFormat>()
    outputOptions.format = format ?? .text
    outputOptions.quietOption = quietOption
    outputOptions.colorOption = colorOption
    var command = LintCommand()
    command.files = files
    command.input = input
    command.project = nil
    command.targets = []
    command.outputOptions = outputOptions
    command.skipFilesWithoutRule = skipFilesWithoutRule
    command.exhaustive = false
    return command
  }
}
