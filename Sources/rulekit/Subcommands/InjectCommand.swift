import ActivationRules
import ArgumentParser
import PredicateSyntax

/// `rulekit inject`: add Intune twin types to a rule.
struct InjectCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "inject",
    abstract: "Add an Intune twin (com.microsoft.intune.mam.…) beside every UTI test of a rule.",
    discussion: """
      A predicate is edited as text: only insertions, the layout kept, idempotent. Exclusions (NONE, NOT, \
      @count == 0) exclude the twins too. A dictionary rule is converted (--style) and given twins; one that \
      accepts nothing (<dict/>) becomes FALSEPREDICATE, with a warning saying why. The twins added are \
      listed on standard error, and --in-place says which file it wrote, unless --quiet.

      Examples:
        rulekit inject --rule Examples/IntuneGuide/rule-B.predicate
        rulekit inject --rule Examples/IntuneGuide/rule-B.predicate --format json
      """)

  @OptionGroup var source: RuleInput

  @Option(help: "How a dictionary rule is converted first: apple (keeps its meaning) or intune.")
  var style: DictionaryConversionStyle = .apple

  @Flag(help: "Print the result in the canonical layout instead of editing the text.")
  var canonical = false

  @Flag(help: "Write the result into the rule file.")
  var inPlace = false

  @OptionGroup var outputOptions: OutputOptions<OutputFormat>

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

  func run() throws {
    let (file, rule) = try source.read().parsed()
    let output: String
    var fileContents: String?
    let addedTwins: [String]
    switch rule {
    case .predicate(let tree, let text):
      if canonical {
        output = PredicatePrinter.pretty(TwinInjector.injectedTree(tree))
        addedTwins = TwinInjector.missingTwins(tree)
        fileContents = file.contents(replacingRuleWith: file.form == .predicateFile ? output + "\n" : output)
      } else {
        let result: TwinInjector.Result
        do {
          result = try TwinInjector.inject(text: text)
        } catch {
          throw RulesCLI.report(error, in: file)
        }
        output = result.text
        fileContents = file.contents(inserting: result.insertions)
        addedTwins = result.addedTwins
      }
    case .dictionary(let dictionary):
      RulesCLI.noteLeftOutKeys(of: dictionary)
      RulesCLI.warnIfAcceptsNothing(dictionary, in: file)
      let converted = DictionaryConverter.predicate(for: dictionary, style: style)
      output = PredicatePrinter.pretty(TwinInjector.injectedTree(converted))
      addedTwins = TwinInjector.missingTwins(converted)
      fileContents = file.contents(replacingRuleWith: file.form == .predicateFile ? output + "\n" : output)
    }
    // A file --in-place cannot write back fails before anything is said of the edit.
    let target = inPlace ? source.editablePath.flatMap { path in fileContents.map { (path, $0) } } : nil
    if inPlace && target == nil { throw RulesCLI.notEditableInPlace(source.editablePath) }
    if !addedTwins.isEmpty {
      Console.info("added \(addedTwins.count): " + addedTwins.joined(separator: ", "))
    }
    var written: [String] = []
    if let (path, fileContents) = target {
      if fileContents != file.contents {
        try RulesCLI.write(fileContents, to: path)
        written.append(path)
        Console.info("wrote \(path)")
      } else {
        Console.info("\(path): already has its twins; nothing written")
      }
    }
    switch outputOptions.format {
    case .json:
      Console.json(["predicate": output, "written": written, "addedTwins": addedTwins])
    case .text:
      guard !inPlace else { break }
      // Predicate text from a file or standard input comes out exactly as --in-place would write it, so
      // `inject < r | inject` is `inject < r` byte for byte; --predicate TEXT has no file and ends its line.
      if file.form == .predicateFile, source.predicate == nil, let fileContents {
        Console.result(fileContents, terminator: "")
      } else {
        Console.result(output)
      }
    }
  }
}
