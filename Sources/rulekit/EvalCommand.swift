import ArgumentParser
import Foundation
import PredicateEvaluation
import PredicateSyntax

/// `rulekit eval`: whether a predicate holds for a JSON value or a set of shared attachments.
struct EvalCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "eval",
    abstract: "Evaluate a predicate or activation rule; prints true or false.",
    discussion: """
      The object comes from --input (any JSON value) or from --attachment, one attachment per flag, all in \
      one extension item: --attachment com.adobe.pdf,public.file-url --attachment public.url. Without either \
      the predicate is evaluated against an empty JSON object. Exit status 0 whatever the answer.
      """
  )

  @Option(name: .long, help: ArgumentHelp("The predicate text.", valueName: "TEXT"))
  var predicate: String?

  @Option(name: .long, help: ArgumentHelp("A file holding the predicate.", valueName: "FILE"))
  var rule: String?

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

  @Option(
    name: .long, help: "Output format: text (true/false) or json ({\"result\": …}, diagnostics as JSON).")
  var format: OutputFormat = .text

  enum OutputFormat: String, ExpressibleByArgument, CaseIterable {
    case text, json
  }

  /// Conflicting options are a usage error, exit status 2 (DESIGN.md).
  private func checkUsage() throws {
    var problems: [String] = []
    if predicate != nil && rule != nil { problems.append("give either --predicate or --rule, not both") }
    if input != nil && !attachment.isEmpty {
      problems.append("give either --input or --attachment, not both")
    }
    for variable in variables where !variable.contains("=") || variable.hasPrefix("=") {
      problems.append("--var needs name=value, found '\(variable)'")
    }
    guard problems.isEmpty else {
      throw CommandDiagnostic.plain(
        problems.map { "rulekit eval: error: \($0)" }.joined(separator: "\n"), exitCode: 2)
    }
  }

  func run() throws {
    try checkUsage()
    let source = try RuleSource.read(predicate: predicate, rule: rule)
    let parsed: PredicateNode
    do {
      parsed = try PredicateParser.parse(source.text)
    } catch {
      throw CommandDiagnostic.report(
        file: source.name, text: source.text, diagnostic: error.diagnostic, exitCode: 65,
        json: format == .json)
    }
    let object = try evaluatedObject()
    var bindings: [String: PredicateValue] = [:]
    for variable in variables {
      guard let separator = variable.firstIndex(of: "=") else { continue }
      let name = String(variable[..<separator]).trimmingPrefix("$")
      let text = String(variable[variable.index(after: separator)...])
      bindings[String(name)] = (try? PredicateValue(json: text)) ?? .string(text)
    }
    let result: Bool
    do {
      result = try PredicateEvaluator.evaluate(parsed, on: object, variables: bindings)
    } catch {
      throw CommandDiagnostic.report(
        file: source.name, text: source.text, range: error.range, message: error.message, exitCode: 65,
        json: format == .json)
    }
    switch format {
    case .text: print(result ? "true" : "false")
    case .json: print(#"{"result": \#(result)}"#)
    }
  }

  /// The object from --input, from --attachment, or an empty object.
  private func evaluatedObject() throws -> PredicateValue {
    if let input {
      let text = try RuleSource.readFile(input)
      do {
        return try PredicateValue(json: text)
      } catch {
        let position = error.position
        throw CommandDiagnostic.report(
          file: input, text: text, range: SourceRange(start: position, end: position), message: error.message,
          exitCode: 65, json: format == .json)
      }
    }
    guard !attachment.isEmpty else { return .dictionary([:]) }
    let providers = attachment.map { list -> PredicateValue in
      let identifiers = list.split(separator: ",").map {
        PredicateValue.string($0.trimmingCharacters(in: .whitespaces))
      }
      return ["registeredTypeIdentifiers": .array(identifiers)]
    }
    return ["extensionItems": [["attachments": .array(providers)]]]
  }
}
