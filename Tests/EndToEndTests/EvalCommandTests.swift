import CLITestSupport
import Foundation
import Testing

/// One run of the built `rulekit` with standard input, through the shared `RuleKitBinary` runner.
private struct EvalRun {
  var status: Int32
  var output: String
  var errors: String

  init(_ arguments: [String], input: String = "") throws {
    let outcome = try RuleKitBinary.run(arguments, standardInput: input)
    status = outcome.status
    output = outcome.standardOutput
    errors = outcome.standardError
  }
}

@Suite("rulekit eval, end to end")
struct EvalCommandTests {
  static let corpus = RuleKitBinary.corpus.path + "/"

  @Test("a corpus rule with --attachment: one attachment per flag, all in one extension item")
  func attachments() throws {
    let firefox = try EvalRun([
      "eval", "--rule", Self.corpus + "38.predicate", "--attachment", "public.url", "--attachment",
      "public.plain-text",
    ])
    #expect(firefox.status == 0)
    #expect(firefox.output == "true\n")
    // One attachment with both types is a file URL, which rule 38 excludes.
    let finder = try EvalRun([
      "eval", "--rule", Self.corpus + "38.predicate", "--attachment", "public.url,public.file-url",
    ])
    #expect(finder.status == 0)
    #expect(finder.output == "false\n")
  }

  @Test("--input reads any JSON value and --format json prints an object")
  func jsonInputAndOutput() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-eval-\(UUID()).json")
    try Data(#"{"flag": true, "one": 1}"#.utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try EvalRun([
      "eval", "--predicate", "flag == TRUE AND one == 1", "--input", file.path, "--format", "json",
    ])
    #expect(run.status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    #expect(document?["result"] as? Bool == true)
    #expect(document?["schemaVersion"] as? Int == 1)
  }

  @Test("--var binds a JSON value, or a string when the text is not JSON")
  func variables() throws {
    let run = try EvalRun([
      "eval", "--predicate", "ANY $types UTI-CONFORMS-TO \"public.image\" AND $name == \"Ann\"",
      "--var", #"types=["public.jpeg"]"#, "--var", "name=Ann",
    ])
    #expect(run.output == "true\n")
    #expect(run.status == 0)
  }

  @Test("the predicate can come from standard input; false still exits 0")
  func standardInput() throws {
    let run = try EvalRun(["eval"], input: "FALSEPREDICATE")
    #expect(run.status == 0)
    #expect(run.output == "false\n")
  }

  @Test("a syntax error exits 65 with file:line:column, the source line and a caret")
  func syntaxError() throws {
    let run = try EvalRun(["eval", "--predicate", "age <"])
    #expect(run.status == 65)
    #expect(run.output.isEmpty)
    #expect(run.errors.hasPrefix("<predicate>:1:6: error: "))
    #expect(run.errors.contains("\nage <\n     ^"))
  }

  @Test("with --format json the diagnostic is JSON too")
  func jsonDiagnostic() throws {
    let run = try EvalRun(["eval", "--predicate", "age <", "--format", "json"])
    #expect(run.status == 65)
    let document = try JSONSerialization.jsonObject(with: Data(run.errors.utf8)) as? [String: Any]
    let diagnostics = try #require(document?["diagnostics"] as? [[String: Any]])
    #expect(diagnostics.first?["line"] as? Int == 1)
    #expect(diagnostics.first?["column"] as? Int == 6)
  }

  @Test("malformed JSON exits 65 with the JSON file's line and column")
  func malformedJSON() throws {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("rulekit-eval-\(UUID()).json")
    try Data("{\"a\": 1,\n \"b\": }".utf8).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let run = try EvalRun(["eval", "--predicate", "TRUEPREDICATE", "--input", file.path])
    #expect(run.status == 65)
    #expect(run.errors.hasPrefix("\(file.path):2:7: error: expected a JSON value"))
  }

  @Test("an evaluation error exits 65 and points into the predicate")
  func evaluationError() throws {
    let run = try EvalRun(["eval", "--predicate", "FUNCTION(SELF, 'evil:') == 1"])
    #expect(run.status == 65)
    #expect(
      run.errors.hasPrefix("<predicate>:1:1: error: FUNCTION selector 'evil:' is not one of the functions"))
  }

  @Test("a missing input file exits 66; conflicting options exit 2")
  func fileAndUsageErrors() throws {
    let missing = try EvalRun(["eval", "--predicate", "TRUEPREDICATE", "--input", "/nonexistent/input.json"])
    #expect(missing.status == 66)
    #expect(missing.errors.contains("/nonexistent/input.json"))
    let conflicting = try EvalRun([
      "eval", "--predicate", "TRUEPREDICATE", "--input", "x.json", "--attachment", "a",
    ])
    #expect(conflicting.status == 2)
  }
}
