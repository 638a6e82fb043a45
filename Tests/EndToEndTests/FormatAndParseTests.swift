import CLITestSupport
import Foundation
import Testing

@Suite struct FormatAndParseTests {
  static let corpusRules = [
    "01", "03", "05", "07", "09", "13", "16", "18", "21", "29", "32", "33", "34", "38", "39",
  ]
  static let guideRules = ["intune-guide-A", "intune-guide-B", "intune-guide-C"]

  private static func path(of rule: String) -> String {
    rule.hasPrefix("intune")
      ? RuleKitBinary.fixtures.appendingPathComponent("\(rule).predicate").path
      : RuleKitBinary.corpus.appendingPathComponent("\(rule).predicate").path
  }

  @Test(arguments: corpusRules + guideRules)
  func prettyFormatMatchesGoldenAndIsIdempotent(rule: String) throws {
    let first = try RuleKitBinary.run(["format", "--pretty", "--rule", Self.path(of: rule)])
    #expect(first.status == 0)
    let golden = try String(
      contentsOf: RuleKitBinary.golden.appendingPathComponent("\(rule).pretty.predicate"), encoding: .utf8)
    #expect(first.standardOutput == golden)
    let second = try RuleKitBinary.run(["format", "--pretty"], standardInput: first.standardOutput)
    #expect(second.status == 0)
    #expect(second.standardOutput == first.standardOutput)
    let canonical = try RuleKitBinary.run(["format", "--rule", Self.path(of: rule)])
    let canonicalAgain = try RuleKitBinary.run(["format"], standardInput: first.standardOutput)
    #expect(
      canonical.standardOutput == canonicalAgain.standardOutput, "the pretty form reparses to the same tree")
  }

  @Test func guide2018RuleAIsRejectedWithPositionAndFix() throws {
    let path = RuleKitBinary.fixtures.appendingPathComponent("intune-guide-A-2018.predicate").path
    let outcome = try RuleKitBinary.run(["format", "--pretty", "--rule", path])
    #expect(outcome.status == 65)
    #expect(outcome.standardOutput.isEmpty)
    let lines = outcome.standardError.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(
      lines.first
        == "\(path):7:104: error: typographic quote ” (U+201D) used as a string delimiter; replace with \"")
    #expect(lines.count >= 4)
    if lines.count >= 4 {
      #expect(lines[2].hasSuffix("^"))
      #expect(lines[3].trimmingCharacters(in: .whitespaces) == "\"")
      #expect(lines[2].count == 104)
    }
  }

  @Test func guide2018RuleCIsRejectedWithPositionAndFix() throws {
    let path = RuleKitBinary.fixtures.appendingPathComponent("intune-guide-C-2018.predicate").path
    let outcome = try RuleKitBinary.run(["parse", "--rule", path])
    #expect(outcome.status == 65)
    #expect(outcome.standardError.hasPrefix("\(path):14:67: error: unterminated string literal\n"))
    let json = try RuleKitBinary.run(["parse", "--format", "json", "--rule", path])
    #expect(json.status == 65)
    let document = try JSONSerialization.jsonObject(with: Data(json.standardError.utf8)) as? [String: Any]
    let diagnostic = (document?["diagnostics"] as? [[String: Any]])?.first
    #expect(diagnostic?["line"] as? Int == 14)
    #expect(diagnostic?["column"] as? Int == 67)
    #expect((diagnostic?["fix"] as? [String: Any])?["title"] as? String == "insert \"")
  }

  @Test func lenientFormattingWarnsAndRepairs() throws {
    let path = RuleKitBinary.fixtures.appendingPathComponent("intune-guide-A-2018.predicate").path
    let outcome = try RuleKitBinary.run(["format", "--lenient", "--rule", path])
    #expect(outcome.status == 0)
    #expect(outcome.standardError.components(separatedBy: ": warning: typographic quote").count == 3)
    let clean = try RuleKitBinary.run(["format", "--rule", Self.path(of: "intune-guide-A")])
    #expect(outcome.standardOutput == clean.standardOutput)
  }

  @Test func predicateOptionAndStandardInput() throws {
    let fromOption = try RuleKitBinary.run(["format", "--predicate", "a=1 and not b<>2"])
    #expect(fromOption.status == 0)
    #expect(fromOption.standardOutput == "a == 1 && NOT b != 2\n")
    let fromInput = try RuleKitBinary.run(["format", "--words"], standardInput: "a=1 and not b<>2")
    #expect(fromInput.standardOutput == "a == 1 AND NOT b != 2\n")
  }

  @Test func syntaxErrorOnStandardInputNamesStdin() throws {
    let outcome = try RuleKitBinary.run(["parse"], standardInput: "a == 1)")
    #expect(outcome.status == 65)
    #expect(
      outcome.standardError == "<stdin>:1:7: error: unexpected ')' with no matching '('\na == 1)\n      ^\n")
  }

  @Test func missingFileExits66() throws {
    let outcome = try RuleKitBinary.run(["format", "--rule", "/nonexistent/rule.predicate"])
    #expect(outcome.status == 66)
    #expect(
      outcome.standardError
        == "rulekit: error: /nonexistent/rule.predicate: no such file; check the path (relative paths start "
        + "at the current directory)\n")
  }

  @Test func usageErrorExits2() throws {
    let outcome = try RuleKitBinary.run(["format", "--rule", "a", "--predicate", "b"])
    #expect(outcome.status == 2)
    #expect(outcome.standardError.hasPrefix("Error: Give --rule FILE or --predicate TEXT, not both"))
  }

  @Test func inPlaceRewritesTheFile() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-\(UUID().uuidString).predicate")
    try "a=1 OR b=2".write(to: url, atomically: true, encoding: .utf8)
    defer { try? FileManager.default.removeItem(at: url) }
    let outcome = try RuleKitBinary.run(["format", "--pretty", "--in-place", "--rule", url.path])
    #expect(outcome.status == 0)
    #expect(outcome.standardOutput.isEmpty)
    #expect(try String(contentsOf: url, encoding: .utf8) == "a == 1 ||\nb == 2\n")
  }

  @Test func dumpHasKindsAndRanges() throws {
    let outcome = try RuleKitBinary.run([
      "parse", "--dump", "--predicate", "ANY $a.types UTI-CONFORMS-TO 'public.url'",
    ])
    #expect(outcome.status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(outcome.standardOutput.utf8)) as? [String: Any]
    #expect(document?["schemaVersion"] as? Int == 1)
    let tree = document?["tree"] as? [String: Any]
    #expect(tree?["kind"] as? String == "comparison")
    #expect(tree?["quantifier"] as? String == "ANY")
    #expect(tree?["operator"] as? String == "UTI-CONFORMS-TO")
    let rhs = tree?["rhs"] as? [String: Any]
    #expect(rhs?["value"] as? String == "public.url")
    let start = (rhs?["range"] as? [String: Any])?["start"] as? [String: Any]
    #expect(start?["column"] as? Int == 30)
    #expect(start?["offset"] as? Int == 29)
  }

  @Test func invalidUTF8FileExits65() throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-\(UUID().uuidString).predicate")
    try Data([0x61, 0x20, 0x3D, 0x3D, 0x20, 0x22, 0xFF, 0x22]).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let outcome = try RuleKitBinary.run(["parse", "--rule", url.path])
    #expect(outcome.status == 65)
    #expect(outcome.standardError.hasPrefix("\(url.path):1:7: error: invalid UTF-8: byte 0xFF at offset 6\n"))
  }
}
