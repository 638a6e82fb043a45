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
    var files: [String] = []
    var format: RulesOutputFormat?
    var color: ColorChoice?
    var quiet = false
    var skipFilesWithoutRule = false
    var index = 1
    while index < arguments.count {
      let argument = arguments[index]
      index += 1
      if argument == "-" || !argument.hasPrefix("-") {
        files.append(argument)
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      switch name {
      case "--format", "--color":
        let value: String
        if let inline {
          value = inline
        } else {
          guard index < arguments.count, !arguments[index].hasPrefix("-") else { return nil }
          value = arguments[index]
          index += 1
        }
        if name == "--format" {
          guard format == nil, let chosen = RulesOutputFormat(rawValue: value) else { return nil }
          format = chosen
        } else {
          guard color == nil, let chosen = ColorChoice(rawValue: value) else { return nil }
          color = chosen
        }
      case "-q", "--quiet":
        guard inline == nil, !quiet else { return nil }
        quiet = true
      case "--skip-files-without-rule":
        guard inline == nil, !skipFilesWithoutRule else { return nil }
        skipFilesWithoutRule = true
      default:
        return nil
      }
    }
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
    return command
  }
}
