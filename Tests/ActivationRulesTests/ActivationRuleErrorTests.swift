import ActivationRules
import Foundation
import PredicateSyntax
import PropertyLists
import Testing

/// The error convention (docs/design.md, "Errors"): a kind with a stable code, a message, a location in the
/// file, a hint and the underlying error; descriptions as they have always been printed.
@Suite struct ActivationRuleErrorTests {
  @Test("a syntax error in an Info.plist's rule has its place in the predicate and in the file")
  func syntaxErrorIsLocatedInTheFile() throws {
    let plist = """
      <?xml version="1.0" encoding="UTF-8"?>
      <plist version="1.0">
      <dict>
      \t<key>NSExtension</key>
      \t<dict>
      \t\t<key>NSExtensionAttributes</key>
      \t\t<dict>
      \t\t\t<key>NSExtensionActivationRule</key>
      \t\t\t<string>SUBQUERY(extensionItems, $e,
      \t\t\t\tANY $e.attachments.registeredTypeIdentifiers UTI-CONFORMS-TO "public.text\u{201D}).@count == 1</string>
      \t\t</dict>
      \t</dict>
      </dict>
      </plist>
      """
    let file = try RuleFile(path: "Share/Info.plist", data: Data(plist.utf8))
    let error = try #require(throws: ActivationRuleError.self) { try ActivationRule(file: file) }
    #expect(error.kind == .syntax && error.kind.rawValue == "syntax")
    #expect(error.position?.line == 2)
    #expect(error.location == ActivationRuleError.Location(file: "Share/Info.plist", line: 10, column: 78))
    #expect(error.underlying is PredicateSyntaxError)
    // The summary is the message, as `rulekit test` has always printed it beside its own location; the
    // description is the compiler-style line, so `print(error)` in a user's code keeps the place.
    #expect(error.summary == error.message && error.message.hasSuffix("(fix: replace with \")"))
    #expect(error.description == "Share/Info.plist:10:78: error: \(error.message)")
  }

  @Test("a property list that does not parse keeps the underlying error and its position")
  func propertyListErrorIsUnderlying() throws {
    let error = try #require(throws: ActivationRuleError.self) {
      try RuleFile(
        path: "Info.plist", data: Data("<plist version=\"1.0\">\n<dict>\n<key>A</key>\n</plist>".utf8))
    }
    #expect(error.kind == .propertyList)
    let underlying = try #require(error.propertyListError)
    #expect(error.location?.line == underlying.position?.line && error.location?.line != nil)
    #expect(error.description == underlying.description)
  }

  @Test("every kind keeps the summary it was printed with before it was a struct")
  func descriptionsAreStable() {
    let cases: [(ActivationRuleError, ActivationRuleError.Kind, String)] = [
      (.missingFile("/x/Info.plist"), .missingFile, "no such file: /x/Info.plist"),
      (.inputOutput(path: "/x", message: "a directory"), .inputOutput, "/x: a directory"),
      (.fileTooLarge(path: "/x", message: "too big"), .fileTooLarge, "/x: too big"),
      (.malformedPropertyList(message: "m"), .malformedPropertyList, "malformed property list: m"),
      (.malformedJSON(message: "m"), .malformedJSON, "malformed JSON: m"),
      (
        .jsonSyntax(message: "m", position: SourcePosition(line: 1, column: 2, offset: 1)), .jsonSyntax,
        "malformed JSON: m"
      ),
      (
        .unexpectedRuleValue(.integer), .unexpectedRuleValue,
        "NSExtensionActivationRule is an integer; it must be a string (a predicate) or a dictionary "
          + "(NSExtensionActivationSupports… keys)"
      ),
      (
        .editVerificationFailed("d"), .editVerificationFailed,
        "the edited rule does not say what was intended: d"
      ),
    ]
    for (error, kind, description) in cases {
      #expect(error.kind == kind)
      #expect(error.summary == description)
      // None of these has a location beyond the path its summary names, so nothing is added.
      #expect(error.description == description)
    }
    #expect(
      ActivationRuleError.missingFile("/x").location?.file == "/x"
        && ActivationRuleError.Kind.missingFile.rawValue == "missing-file")
  }
}
