import CLITestSupport
import Foundation
import Testing

/// `rulekit diff` decides rules of counts and type tests exactly, and says when it only enumerated.
@Suite struct ExactDiffEndToEndTests {
  static func json(_ arguments: [String]) throws -> (status: Int32, document: [String: Any]) {
    let run = try RuleKitBinary.run(["diff", "--format", "json"] + arguments)
    let object = try JSONSerialization.jsonObject(with: Data(run.standardOutput.utf8))
    return (run.status, try #require(object as? [String: Any]))
  }

  @Test func theGuidesRulesDifferExactly() throws {
    let (status, document) = try Self.json([
      "Examples/IntuneGuide/rule-B.predicate", "Examples/IntuneGuide/rule-C.predicate", "--check",
    ])
    #expect(status == 1)
    #expect(document["exact"] as? Bool == true)
    #expect(document["reason"] == nil)
    let smallest = try #require((document["smallest"] as? [[String: Any]])?.first)
    #expect(smallest["context"] as? String == "[[com.microsoft.intune.mam.public.url]]")
  }

  @Test func aDifferenceAtElevenAttachmentsIsFound() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "exact-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let images =
      "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, ANY $a.registeredTypeIdentifiers "
      + "UTI-CONFORMS-TO \"public.image\").@count "
    let first = directory.appendingPathComponent("ten.predicate")
    let second = directory.appendingPathComponent("any.predicate")
    try Data((images + "BETWEEN {1, 10}).@count == 1").utf8).write(to: first)
    try Data((images + ">= 1).@count == 1").utf8).write(to: second)
    let run = try RuleKitBinary.run(["diff", first.path, second.path, "--show", "1"])
    // Eleven equal attachments are written once, with their number.
    #expect(
      run.standardOutput
        == "the rules disagree (exact); smallest:\n  [11 × [public.image]]: \(first.path) does not, \(second.path) activates\n"
    )
    // The enumeration of old saw no difference.
    let bounded = try RuleKitBinary.run(["diff", first.path, second.path, "--max-attachments", "3"])
    #expect(bounded.standardOutput.hasPrefix("the rules agree on all "))
    #expect(bounded.standardOutput.contains("(bounded: enumerated within the bounds asked for;"))
  }

  @Test func aRuleOutsideTheFragmentIsBoundedAndSaysWhy() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "exact-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let rule = directory.appendingPathComponent("text.predicate")
    try Data(#"ANY extensionItems.attributedContentText MATCHES "a.*""#.utf8).write(to: rule)
    let (status, document) = try Self.json([rule.path, rule.path])
    #expect(status == 0)
    #expect(document["exact"] as? Bool == false)
    #expect((document["reason"] as? String)?.contains("MATCHES") == true)
    // More effort would not decide it: no hint.
    #expect(document["searchLimitReached"] as? Bool == false)
  }

  /// The apple form with twins of a real version 1 dictionary and Microsoft's form of it, written to files
  /// in `directory` by the CLI as a user would.
  static func intuneForms(of dictionary: String, in directory: URL) throws -> (URL, URL) {
    let name = URL(fileURLWithPath: dictionary).deletingPathExtension().lastPathComponent
    let apple = directory.appendingPathComponent("\(name)-apple.predicate")
    let appleWithTwins = directory.appendingPathComponent("\(name)-apple-twins.predicate")
    let microsoft = directory.appendingPathComponent("\(name)-intune.predicate")
    let converted = try RuleKitBinary.run(["convert", "--style", "apple", "--rule", dictionary])
    try Data(converted.standardOutput.utf8).write(to: apple)
    let injected = try RuleKitBinary.run(["inject", "--rule", apple.path])
    try Data(injected.standardOutput.utf8).write(to: appleWithTwins)
    let intune = try RuleKitBinary.run(["convert", "--style", "intune", "--rule", dictionary])
    try Data(intune.standardOutput.utf8).write(to: microsoft)
    #expect([converted.status, injected.status, intune.status] == [0, 0, 0])
    return (appleWithTwins, microsoft)
  }

  /// A version 1 dictionary's two Intune forms (the apple form with twins, Microsoft's). Those of the real
  /// real-rules-holdout2/34.plist, which the default search stopped at its bound until the interval search
  /// over parts, are decided by default; those of a generated dictionary (seven keys, among them web pages
  /// and audio, attachments up to 999) still stop there, say so, and --exhaustive decides them.
  @Test func exhaustiveDecidesWhatTheDefaultBoundStops() throws {
    let directory = FileManager.default.temporaryDirectory.appendingPathComponent(
      "exact-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let (decidedApple, decidedMicrosoft) = try Self.intuneForms(
      of: "Tests/Fixtures/real-rules-holdout2/34.plist", in: directory)
    let (_, decided) = try Self.json([decidedApple.path, decidedMicrosoft.path])
    #expect(decided["exact"] as? Bool == true)
    #expect(decided["rulesAgree"] as? Bool == false)

    let generated = directory.appendingPathComponent("generated.plist")
    let keys = [
      "MovieWithMaxCount": 5, "FileWithMaxCount": 20, "WebPageWithMaxCount": 50, "ImageWithMaxCount": 50,
      "AttachmentsWithMaxCount": 999, "WebURLWithMaxCount": 2, "AudioWithMaxCount": 2,
    ]
    let entries = keys.sorted { $0.key < $1.key }.map {
      "<key>NSExtensionActivationSupports\($0.key)</key><integer>\($0.value)</integer>"
    }
    try Data(("<plist version=\"1.0\"><dict>" + entries.joined() + "</dict></plist>\n").utf8).write(
      to: generated)
    let (appleWithTwins, microsoft) = try Self.intuneForms(of: generated.path, in: directory)
    let (_, bounded) = try Self.json([appleWithTwins.path, microsoft.path])
    #expect(bounded["exact"] as? Bool == false)
    #expect(bounded["searchLimitReached"] as? Bool == true)
    #expect((bounded["reason"] as? String)?.contains("combinations of count intervals") == true)
    let text = try RuleKitBinary.run(["diff", appleWithTwins.path, microsoft.path, "--show", "1"])
    #expect(text.standardOutput.contains("; --exhaustive decides it, which can take a minute); smallest:"))

    let (status, exact) = try Self.json([appleWithTwins.path, microsoft.path, "--exhaustive", "--check"])
    #expect(status == 1)
    #expect(exact["exact"] as? Bool == true)
    #expect(exact["reason"] == nil)
    let smallest = try #require((exact["smallest"] as? [[String: Any]])?.first)
    #expect(smallest["first"] as? Bool != smallest["second"] as? Bool)
  }

  /// `lint --exhaustive` takes the full parser (the build-phase fast path knows only the usual flags) and,
  /// on a rule the default search decides, reports the same.
  @Test func lintTakesExhaustive() throws {
    let rule = "Examples/SampleApp/ShareExtension/Info.plist"
    let standard = try RuleKitBinary.run(["lint", "--format", "json", rule])
    let exhaustive = try RuleKitBinary.run(["lint", "--format", "json", "--exhaustive", rule])
    #expect(exhaustive.status == standard.status)
    #expect(exhaustive.standardOutput == standard.standardOutput)
    #expect(exhaustive.standardError.isEmpty)
  }

  @Test func exhaustiveAndEnumerationBoundsExcludeEachOther() throws {
    let run = try RuleKitBinary.run([
      "diff", "--exhaustive", "--max-items", "2", "Examples/IntuneGuide/rule-B.predicate",
      "Examples/IntuneGuide/rule-C.predicate",
    ])
    #expect(run.status == 2)
    #expect(
      run.standardError.contains("--exhaustive decides exactly, --max-attachments and --max-items ask for"))
  }
}
