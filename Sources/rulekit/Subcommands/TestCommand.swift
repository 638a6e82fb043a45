import ActivationRules
import ArgumentParser
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit test EXPECTATIONS.json`: rules × named contexts → expected outcomes.
struct TestCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "test",
    abstract: "Check that rules activate (or not) for named contexts, as an expectations file says.",
    discussion: """
      The file: {"rules": {NAME: PATH}, "contexts": {NAME: PATH or context}, "expectations": [{"rule": NAME, \
      "context": NAME or preset, "activates": BOOL}]}; paths are relative to the file. Exit 1 on a mismatch. \
      With --quiet nothing is printed when every expectation is met.

      Examples:
        rulekit test Examples/SampleApp/expectations.json
        rulekit test --format json --twin-policy mirrored \\
          Examples/SampleApp/expectations.json
      """)

  @Argument(help: "The expectations JSON file.") var expectations: String

  @Option(help: "How dictionary rules are read: apple or intune.")
  var style: DictionaryConversionStyle = .apple

  @Option(help: "How Intune twins conform: literal (as iOS: a twin conforms only to itself) or mirrored.")
  var twinPolicy: UTITwinPolicyArgument = .literal

  @OptionGroup var outputOptions: OutputOptions<OutputFormat>

  var consoleSettings: ConsoleSettings {
    outputOptions.consoleSettings
  }

  func run() throws {
    let url = URL(fileURLWithPath: expectations)
    let data = try RulesCLI.read(expectations)
    let suite: ExpectationsFile
    do {
      suite = try ExpectationsFile(json: data)
    } catch {
      throw RulesCLI.report(error, path: expectations, data: data)
    }
    let style = self.style
    let registry = TypeRegistry.system.withTwinPolicy(twinPolicy.policy)
    let outcomes = suite.run(
      directory: url.deletingLastPathComponent(),
      loadEvaluator: { ruleURL throws(ActivationRuleError) in
        let loaded = try ActivationRule.load(ruleURL)
        // Each rule sees the types its own Info.plist declares.
        return RuleEvaluator(
          loaded.rule.predicate(style: style), registry: loaded.file.registry(extending: registry))
      },
      loadContext: { contextURL throws(ActivationRuleError) in try ExtensionContext.load(contextURL) })
    let passed = outcomes.filter(\.passed).count
    switch outputOptions.format {
    case .json:
      Console.json([
        "expectations": outcomes.count, "passed": passed, "failed": outcomes.count - passed,
        "outcomes": outcomes.map { outcome -> [String: Any] in
          var fields: [String: Any] = [
            "rule": outcome.expectation.rule, "context": outcome.expectation.context,
            "expected": outcome.expectation.activates,
            "actual": outcome.actual.map { $0 as Any } ?? JSONTree.null,
            "passed": outcome.passed,
          ]
          if let problem = outcome.problem { fields["problem"] = problem }
          return fields
        },
      ])
    case .text:
      // All met is a summary, which --quiet drops; the table of mismatches is the result.
      if passed < outcomes.count || !outputOptions.quiet { Console.result(ExpectationsFile.report(outcomes)) }
    }
    if outcomes.contains(where: { !$0.passed }) { throw RulesCLI.Exit.problemsFound }
  }
}
