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
  }
}
