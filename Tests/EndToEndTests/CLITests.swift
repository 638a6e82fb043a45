import CLITestSupport
import Foundation
import Testing

/// End-to-end runs of the `rulekit` built with the tests (CLITestSupport's ``RuleKitBinary``). Expected
/// outputs are files (the Intune guide's rules in `Examples/IntuneGuide`, goldens), never library calls.
@Suite struct CLITests {
  struct Run {
    var status: Int32
    var output: String
    var errors: String
  }

  static func run(_ arguments: [String], input: String? = nil, in directory: URL = RuleKitBinary.packageRoot)
    throws -> Run
  {
    let outcome = try RuleKitBinary.run(arguments, standardInput: input, currentDirectory: directory)
    return Run(status: outcome.status, output: outcome.standardOutput, errors: outcome.standardError)
  }

  static func temporaryFile(_ name: String, _ contents: String) throws -> URL {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "rulekit-cli-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    let url = directory.appendingPathComponent(name)
    try Data(contents.utf8).write(to: url)
    return url
  }

  /// The guide's rules B and C (spec intune-guide-requirements.md §1.4), without their final line break.
  static func guideRule(_ letter: String) throws -> String {
    let url = RuleKitBinary.packageRoot.appendingPathComponent("Examples/IntuneGuide")
      .appendingPathComponent("rule-\(letter).predicate")
    var text = try String(contentsOf: url, encoding: .utf8)
    while text.hasSuffix("\n") { text.removeLast() }
    return text
  }

  static var ruleB: String { get throws { try guideRule("B") } }
  static var ruleC: String { get throws { try guideRule("C") } }

  @Test func examplesExpectationsPass() throws {
    let run = try Self.run(["test", "Examples/SampleApp/expectations.json"])
    #expect(run.status == 0)
    #expect(run.output == "16 expectations, all met\n")
  }

  @Test func examplesLintClean() throws {
    let run = try Self.run([
      "lint", "Examples/SampleApp/ShareExtension/Info.plist", "Examples/SampleApp/ActionExtension/Info.plist",
      "Examples/SampleApp/OpenInExtension/Info.plist",
    ])
    #expect(run.status == 0)
    #expect(run.output == "no problems found in 3 files\n")
  }

  @Test func injectTurnsRuleBIntoRuleC() throws {
    let (ruleB, ruleC) = (try Self.ruleB, try Self.ruleC)
    let file = try Self.temporaryFile("b.predicate", ruleB)
    let run = try Self.run(["inject", "--rule", file.path])
    #expect(run.status == 0)
    // Standard output carries what --in-place writes: rule B has no final line break, nor has the result.
    #expect(run.output == ruleC)
    try FileManager.default.setAttributes([.posixPermissions: 0o640], ofItemAtPath: file.path)
    let inPlace = try Self.run(["inject", "--rule", file.path, "--in-place"])
    #expect(inPlace.status == 0)
    #expect(String(decoding: try Data(contentsOf: file), as: UTF8.self) == ruleC)
    let permissions =
      try FileManager.default.attributesOfItem(atPath: file.path)[.posixPermissions] as? NSNumber
    #expect(permissions?.intValue == 0o640)
  }

  @Test func injectReadsStandardInput() throws {
    let (ruleB, ruleC) = (try Self.ruleB, try Self.ruleC)
    let run = try Self.run(["inject"], input: ruleB)
    #expect(run.output == ruleC)
  }

  @Test func diffCheck() throws {
    let (ruleB, ruleC) = (try Self.ruleB, try Self.ruleC)
    let b = try Self.temporaryFile("b.predicate", ruleB)
    let c = try Self.temporaryFile("c.predicate", ruleC)
    let differ = try Self.run(["diff", b.path, c.path, "--check"])
    #expect(differ.status == 1)
    #expect(
      differ.output.contains(
        "[[com.microsoft.intune.mam.public.url]]: \(b.path) does not, \(c.path) activates"))
    let same = try Self.run(["diff", b.path, b.path, "--check"])
    #expect(same.status == 0)
    #expect(same.output == "the rules agree on every extension context (exact)\n")
    // Asking for bounds enumerates, and says so.
    let bounded = try Self.run(["diff", b.path, b.path, "--max-attachments", "2"])
    #expect(
      bounded.output.hasPrefix("the rules agree on all ")
        && bounded.output.hasSuffix(
          " contexts checked (bounded: enumerated within the bounds asked for; checked contexts of up to 2 "
            + "attachments in up to 2 items)\n")
    )
  }

  /// A bounded diff (==[c] is outside the exact fragment) of an equality test and a conformance test on
  /// public.url: the enumeration includes public.file-url, a declared subtype, and finds the disagreement.
  @Test func boundedDiffFindsTheSubtypeWitness() throws {
    func rule(_ test: String) -> String {
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers \(test))"
        + ".@count >= 1).@count == 1\n"
    }
    let equality = try Self.temporaryFile("equality.predicate", rule(#"==[c] "PUBLIC.URL""#))
    let conformance = try Self.temporaryFile("conformance.predicate", rule(#"UTI-CONFORMS-TO "public.url""#))
    let run = try Self.run(["diff", "--check", equality.path, conformance.path])
    #expect(run.status == 1, "\(run.output)")
    #expect(run.output.contains("(bounded: "))
    #expect(
      run.output.contains(
        "  [[public.file-url]]: \(equality.path) does not, \(conformance.path) activates\n"),
      "\(run.output)")
  }

  @Test func lintFormats() throws {
    let corpus = RuleKitBinary.corpus.path
    let text = try Self.run(["lint", "\(corpus)/34.predicate"])
    #expect(text.status == 1)
    #expect(text.output.contains("34.predicate:1:1: error: TRUEPREDICATE activates for everything"))
    #expect(text.output.contains("[RK001 true-predicate]\n  fix: "))
    let xcode = try Self.run(["lint", "--format", "xcode", "\(corpus)/12.plist"])
    #expect(
      xcode.output.hasSuffix(
        "12.plist:5:2: warning: NSExtensionActivationSupportsWebURLWithMaxCount is written as string but Apple documents an integer (read as 1) [RK007]\n"
      ))
    let json = try Self.run(["lint", "--format", "json", "\(corpus)/12.plist"])
    let document = try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any]
    #expect(document?["schemaVersion"] as? Int == 1)
    let findings = document?["findings"] as? [[String: Any]]
    #expect(findings?.first?["id"] as? String == "RK007")
  }

  @Test func syntaxErrorInAPlistPointsIntoThePlist() throws {
    let plist = try Self.temporaryFile(
      "Info.plist",
      """
      <plist version="1.0"><dict><key>NSExtension</key><dict><key>NSExtensionAttributes</key><dict>
      <key>NSExtensionActivationRule</key>
      <string>SUBQUERY(extensionItems, $e,
        $e.attachments.@count &gt; ).@count == 1</string>
      </dict></dict></dict></plist>
      """)
    let run = try Self.run(["inject", "--rule", plist.path])
    #expect(run.status == 65)
    let lines = run.errors.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first?.hasPrefix("\(plist.path):4:") == true)
    #expect(lines.count >= 3 && lines[2].hasSuffix("^"))
  }

  @Test func exitCodes() throws {
    #expect(try Self.run(["lint", "/nonexistent/rule.predicate"]).status == 66)
    #expect(try Self.run(["explain", "--predicate", "TRUEPREDICATE"]).status == 2)
    #expect(try Self.run(["presets", "nope"]).status == 2)
    #expect(try Self.run(["convert", "--predicate", "a =="]).status == 65)
  }

  @Test func convertPrintsTheGolden() throws {
    let run = try Self.run([
      "convert", "--rule", RuleKitBinary.corpus.appendingPathComponent("27.plist").path,
    ])
    // The same text as ActivationRulesTests' library golden of 27.plist: the CLI prints what the library makes.
    let golden = try Data(
      contentsOf: RuleKitBinary.testDirectory.appendingPathComponent("Golden/convert/27.intune.predicate"))
    #expect(run.output == String(decoding: golden, as: UTF8.self))
  }

  @Test func explainAsJSON() throws {
    let run = try Self.run([
      "explain", "--rule", "Examples/SampleApp/OpenInExtension/Info.plist", "--preset", "intune-managed-app",
      "--format", "json",
    ])
    #expect(run.status == 0)
    let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    #expect(object?["accepted"] as? Bool == true)
  }

  /// An evaluation error is reported as `eval` reports it: `file:line:column: error:`, the source line and a
  /// caret, and a JSON record with the position; not one wrapped message with "error:" twice.
  @Test func explainEvaluationErrorIsPositioned() throws {
    let rule = "TRUEPREDICATE AND\n  FUNCTION(extensionItems, 'count') >= 1"
    let file = try Self.temporaryFile("function.predicate", rule)
    let run = try Self.run(["explain", "--rule", file.path, "--preset", "photos-1"])
    #expect(run.status == 65)
    #expect(run.output.isEmpty)
    #expect(
      run.errors.hasPrefix("\(file.path):2:3: error: FUNCTION selector 'count' is not one of the functions"),
      "\(run.errors)")
    #expect(run.errors.contains("\n  FUNCTION(extensionItems, 'count') >= 1\n  ^"), "\(run.errors)")
    #expect(run.errors.components(separatedBy: "error:").count == 2, "\(run.errors)")
    // The same error from eval reads the same.
    let eval = try Self.run(["eval", "--rule", file.path, "--attachment", "public.jpeg"])
    #expect(eval.errors == run.errors)

    let json = try Self.run(["explain", "--rule", file.path, "--preset", "photos-1", "--format", "json"])
    #expect(json.status == 65)
    let document = try JSONSerialization.jsonObject(with: Data(json.errors.utf8)) as? [String: Any]
    let diagnostic = try #require((document?["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["file"] as? String == file.path)
    #expect(diagnostic["line"] as? Int == 2)
    #expect(diagnostic["column"] as? Int == 3)
    #expect((diagnostic["message"] as? String)?.hasPrefix("FUNCTION selector 'count'") == true)
  }

  /// A rule string in a plist: the error's position is in the plist, where the user edits it.
  @Test func explainEvaluationErrorInAPlistPointsIntoThePlist() throws {
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>NSExtensionActivationRule</key>
      \t<string>TRUEPREDICATE AND FUNCTION(extensionItems, 'count') &gt;= 1</string>
      </dict>
      </plist>

      """
    let file = try Self.temporaryFile("rule.plist", plist)
    let run = try Self.run(["explain", "--rule", file.path, "--preset", "photos-1"])
    #expect(run.status == 65)
    #expect(run.errors.hasPrefix("\(file.path):5:28: error: FUNCTION selector"), "\(run.errors)")
    #expect(run.errors.contains("\n\t<string>TRUEPREDICATE AND FUNCTION("), "\(run.errors)")
  }

  /// iOS declares no twin, so a managed JPEG's twin does not conform to the twin of public.image; only the
  /// mirrored policy (twins declared like their bases) lets rule C accept it.
  @Test func twinPolicyDecidesWhetherSubtypeTwinsMatch() throws {
    let arguments = [
      "explain", "--rule", "Examples/IntuneGuide/rule-C.predicate", "--attachment",
      "com.microsoft.intune.mam.public.jpeg",
    ]
    #expect(try Self.run(arguments).output.contains("result: does not activate\n"))
    #expect(try Self.run(arguments + ["--twin-policy", "mirrored"]).output.contains("result: activates\n"))
  }

  @Test func presetsAsJSON() throws {
    let run = try Self.run(["presets", "--format", "json"])
    let document = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    #expect(document?["schemaVersion"] as? Int == 1)
    #expect((document?["presets"] as? [[String: Any]])?.count == 9)
  }
}

@Suite struct CLIInPlaceTests {
  /// inject and convert rewrite a dictionary as a string: its comments stay, and the keys the predicate
  /// cannot carry (undocumented, ignored by the system) are named on standard error.
  @Test(arguments: [["inject"], ["convert", "--style", "apple"]])
  func dictionaryRewriteKeepsCommentsAndNamesLeftOutKeys(command: [String]) throws {
    let rule = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<!-- images from Photos -->
      \t<key>NSExtensionActivationSupportsImageWithMaxCount</key>
      \t<integer>5</integer>
      \t<key>NSExtensionActivationSupportsFileWithType</key>
      \t<array><string>com.adobe.pdf</string></array>
      </dict>
      </plist>

      """
    let file = try CLITests.temporaryFile("rule.plist", rule)
    let run = try CLITests.run(command + ["--rule", file.path, "--in-place"])
    #expect(run.status == 0, "\(run.errors)")
    #expect(
      run.errors.contains(
        "left out of the predicate: NSExtensionActivationSupportsFileWithType (not a key the system reads)"))
    let after = try String(contentsOf: file, encoding: .utf8)
    #expect(after.contains("<plist version=\"1.0\">\n<!-- images from Photos -->\n<string>SUBQUERY"))
  }

  /// A key with a line break inside its `<key>`: lint's finding (in every format) and inject's note name it
  /// escaped, each on one line, so `--format xcode` files one issue per finding.
  @Test func keyWithALineBreakStaysOnOneLine() throws {
    let rule = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>NSExtensionActivationSupportsImageWithMaxCount
      </key>
      \t<integer>3</integer>
      \t<key>NSExtensionActivationSupportsWebURLWithMaxCount</key>
      \t<integer>1</integer>
      </dict>
      </plist>

      """
    let file = try CLITests.temporaryFile("rule.plist", rule)
    let key = "NSExtensionActivationSupportsImageWithMaxCount"
    let xcode = try CLITests.run(["lint", file.path, "--format", "xcode"])
    #expect(
      xcode.output.split(separator: "\n") == [
        "\(file.path):4:2: warning: \(key)\\n is not a documented NSExtensionActivationRule key; the system "
          + "ignores it: it is \(key) followed by a line break (U+000A) [RK006]"
      ], "\(xcode.output)")
    let text = try CLITests.run(["lint", file.path])
    #expect(text.output.contains("fix: remove the whitespace inside <key>, so that it reads \(key)\n"))
    #expect(!text.output.contains("did you mean"))
    let inject = try CLITests.run(["inject", "--rule", file.path])
    #expect(inject.status == 0)
    #expect(
      inject.errors.contains("left out of the predicate: \(key)\\n (not a key the system reads)\n"),
      "\(inject.errors)")
  }

  /// An empty rule dictionary (a shipping app's `<dict/>`, its keys written beside it) accepts nothing: the
  /// FALSEPREDICATE that replaces it comes with a warning at the dictionary, saying why; exit 0 as after the
  /// commands' other notes.
  @Test(arguments: [["inject"], ["convert"], ["convert", "--style", "apple"]])
  func emptyDictionaryIsAWarning(command: [String]) throws {
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<dict/>
      \t\t\t<key>NSExtensionActivationSupportsImageWithMaxCount</key>
      \t\t\t<integer>1</integer>
      \t\t</dict>
      \t\t<key>NSExtensionPointIdentifier</key>
      \t\t<string>com.apple.share-services</string>
      \t</dict>
      </dict>
      </plist>

      """
    let file = try CLITests.temporaryFile("Info.plist", plist)
    let run = try CLITests.run(command + ["--rule", file.path])
    #expect(run.status == 0)
    #expect(run.output == "FALSEPREDICATE\n")
    #expect(
      run.errors.hasPrefix(
        "\(file.path):9:4: warning: the rule accepts nothing, so the extension never activates: the dictionary "
          + "has no NSExtensionActivationSupports… key the system reads; "
          + "NSExtensionActivationSupportsImageWithMaxCount is outside it, where the system does not read it: "
          + "move it into the dictionary\n\t\t\t<dict/>\n\t\t\t^"), "\(run.errors)")
    // --quiet drops notes, not warnings.
    #expect(try CLITests.run(command + ["--rule", file.path, "--quiet"]).errors == run.errors)

    let json = try CLITests.run(command + ["--rule", file.path, "--format", "json"])
    #expect(json.status == 0)
    let document = try JSONSerialization.jsonObject(with: Data(json.errors.utf8)) as? [String: Any]
    let diagnostic = try #require((document?["diagnostics"] as? [[String: Any]])?.first)
    #expect(diagnostic["severity"] as? String == "warning")
    #expect(diagnostic["file"] as? String == file.path)
    #expect(diagnostic["line"] as? Int == 9)
    #expect(diagnostic["column"] as? Int == 4)
    #expect((diagnostic["message"] as? String)?.hasPrefix("the rule accepts nothing") == true)

    // A dictionary that accepts something gets no such warning.
    let images = try CLITests.temporaryFile(
      "Info.plist",
      plist.replacingOccurrences(
        of: "<dict/>\n",
        with: "<dict><key>NSExtensionActivationSupportsImageWithMaxCount</key><integer>1</integer></dict>\n"))
    #expect(try !CLITests.run(command + ["--rule", images.path]).errors.contains("accepts nothing"))
  }

  @Test func convertInPlaceTurnsTheDictionaryIntoAnEquivalentString() throws {
    let originalURL = RuleKitBinary.packageRoot.appendingPathComponent(
      "Examples/SampleApp/ActionExtension/Info.plist")
    let original = try String(contentsOf: originalURL, encoding: .utf8)
    #expect(original.contains("<key>NSExtensionActivationRule</key>\n\t\t\t<dict>"))
    let file = try CLITests.temporaryFile("Info.plist", original)
    let run = try CLITests.run(["convert", "--rule", file.path, "--style", "apple", "--in-place"])
    #expect(run.status == 0)
    let after = try String(contentsOf: file, encoding: .utf8)
    // The rule is a predicate string now.
    #expect(after.contains("<key>NSExtensionActivationRule</key>\n\t\t\t<string>"))
    // Only the rule's element changed: the JavaScript preprocessing key is still there.
    #expect(after.contains("<key>NSExtensionJavaScriptPreprocessingFile</key>\n\t\t\t<string>Clip</string>"))
    // The string accepts exactly what the dictionary accepted: on every extension context, and on each preset.
    let diff = try CLITests.run(["diff", originalURL.path, file.path, "--check"])
    #expect(diff.status == 0)
    #expect(diff.output == "the rules agree on every extension context (exact)\n")
    let presets =
      try JSONSerialization.jsonObject(
        with: Data(try CLITests.run(["presets", "--format", "json"]).output.utf8)) as? [String: Any]
    let names = (presets?["presets"] as? [[String: Any]])?.compactMap { $0["name"] as? String } ?? []
    #expect(names.count == 9)
    for name in names {
      #expect(try Self.accepted(originalURL.path, preset: name) == Self.accepted(file.path, preset: name))
    }
  }

  static func accepted(_ rule: String, preset: String) throws -> Bool? {
    let run = try CLITests.run(["explain", "--rule", rule, "--preset", preset, "--format", "json"])
    let object = try JSONSerialization.jsonObject(with: Data(run.output.utf8)) as? [String: Any]
    return object?["accepted"] as? Bool
  }
}
