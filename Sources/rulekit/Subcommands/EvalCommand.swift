import ActivationRules
import ArgumentParser
import PredicateEvaluation
import PredicateSyntax
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit eval`: whether a predicate holds for a JSON value or a set of shared attachments.
struct EvalCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "eval",
    abstract: "Evaluate a predicate or activation rule; prints true or false.",
    discussion: """
      The object comes from --input (any JSON value) or from --attachment, one attachment per flag, all in \
      one extension item: --attachment com.adobe.pdf,public.file-url --attachment public.url. Without either \
      the predicate is evaluated against an empty JSON object. Exit status 0 whatever the answer. \
      --input - (or /dev/stdin) reads the JSON from standard input, which then cannot also hold the rule.

      Examples:
        rulekit eval --rule Examples/rules/intune-guide-share-rule.predicate \\
          --attachment com.adobe.pdf,public.file-url
        rulekit eval --rule Examples/rules/intune-guide-share-rule.predicate \\
          --input Examples/SampleApp/attachments/url-and-pdf.json --format json
        rulekit eval --predicate 'ANY $types UTI-CONFORMS-TO "public.image"' \\
          --var 'types=["public.jpeg"]'
      """
  )

  @OptionGroup var source: RuleInput
  @OptionGroup var parsing: ParsingOptions

  @Option(
    name: .long, help: ArgumentHelp("A JSON file with the object to evaluate against.", valueName: "FILE"))
  var input: String?

  @Option(
    name: .long,
    help: ArgumentHelp(
      "The registered type identifiers of one attachment, comma-separated (repeatable).",
      valueName: "UTI,UTI…"))
  var attachment: [String] = []

  @Option(
    name: .customLong("var"),
    help: ArgumentHelp(
      "A $variable: name=value, the value read as JSON if it parses, else as a string.",
      valueName: "NAME=VALUE"))
  var variables: [String] = []

  @OptionGroup var outputOptions: ResultOutputOptions<DiagnosticFormat>

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

  /// Conflicting options are a usage error, exit status 2 (docs/design.md).
  private func checkUsage() throws {
    var problems: [String] = []
    if input != nil && !attachment.isEmpty {
      problems.append("give either --input or --attachment, not both")
    }
    if let input, InputFile.isStandardInput(input), source.readsStandardInput {
      problems.append("--input \(input) reads standard input, so give the rule with --rule or --predicate")
    }
    for variable in variables where !variable.contains("=") || variable.hasPrefix("=") {
      problems.append("--var needs name=value, found '\(variable)'")
    }
    guard problems.isEmpty else {
      for problem in problems { _ = RulesCLI.fail(problem, code: RulesCLI.Exit.usage) }
      throw RulesCLI.Exit.usage
    }
  }

  func run() throws {
    try checkUsage()
    let rule = try source.read()
    let predicate = try parsing.parse(rule)
    let object = try evaluatedObject()
    let result: Bool
    do {
      result = try PredicateEvaluator.evaluate(
        predicate, on: object, variables: bindings(), registry: rule.ruleFile?.registry() ?? .system)
    } catch {
      throw rule.report(error)
    }
    switch outputOptions.format {
    case .text: Console.result(result ? "true" : "false")
    case .json: Console.json(["result": result])
    }
  }

  /// `--var` values: JSON when the text parses as JSON, otherwise the text as a string.
  private func bindings() -> [String: PredicateValue] {
    var bindings: [String: PredicateValue] = [:]
    for variable in variables {
      guard let separator = variable.firstIndex(of: "=") else { continue }
      let name = variable[..<separator].trimmingPrefix("$")
      let text = String(variable[variable.index(after: separator)...])
      bindings[String(name)] = (try? PredicateValue(json: text)) ?? .string(text)
    }
    return bindings
  }

  /// The object from --input, from --attachment, or an empty object.
  private func evaluatedObject() throws -> PredicateValue {
    if let input {
      let data = try RulesCLI.read(input)
      do {
        // From the bytes, so invalid UTF-8 and the size limit are errors rather than silently replaced.
        return try PredicateValue(jsonUTF8: Array(data))
      } catch {
        let position = error.position
        let diagnostic = PredicateDiagnostic(
          severity: .error, message: error.message, range: SourceRange(start: position, end: position))
        report(diagnostic, in: String(decoding: data, as: UTF8.self), file: RulesCLI.displayName(input))
        throw RulesCLI.Exit.invalidInput
      }
    }
    guard !attachment.isEmpty else { return .dictionary([:]) }
    let providers = attachment.map { list -> PredicateValue in
      let identifiers = list.split(separator: ",").map {
        PredicateValue.string(String($0.trimming(while: \.isSpaceOrTab)))
      }
      return ["registeredTypeIdentifiers": .array(identifiers)]
    }
    return ["extensionItems": [["attachments": .array(providers)]]]
  }

  /// An error in the predicate or the JSON input, written as `--format` asks.
  private func report(_ diagnostic: PredicateDiagnostic, in text: String, file: String) {
    CommandOutput.report([diagnostic], source: text, fileName: file)
  }
}
