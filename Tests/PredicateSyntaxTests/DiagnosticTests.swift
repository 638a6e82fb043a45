import Foundation
import PredicateSyntax
import Testing

@Suite struct DiagnosticTests {
  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var text: String
    var arguments: [FormatArgument] = []
    var reason: PredicateSyntaxError.Kind
    var rendered: String
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "unterminated string", text: "a == \"abc", reason: .unterminatedString,
      rendered: """
        rule.predicate:1:6: error: unterminated string literal
        a == "abc
             ^~~~
                 "
        """),
    Case(
      name: "unterminated string keeps tabs", text: "\ta ==\t'x", reason: .unterminatedString,
      rendered: "rule.predicate:1:7: error: unterminated string literal\n\ta ==\t'x\n\t    \t^~\n\t    \t  '"),
    Case(
      name: "typographic opening quote", text: "name == “Jane”", reason: .typographicQuote,
      rendered: """
        rule.predicate:1:9: error: typographic quote “ (U+201C) used as a string delimiter; replace with "
        name == “Jane”
                ^
                "
        """),
    Case(
      name: "typographic closing quote on one line", text: "a == \"x” || b == \"y\"",
      reason: .typographicQuote,
      rendered: """
        rule.predicate:1:8: error: typographic quote ” (U+201D) used as a string delimiter; replace with "
        a == "x” || b == "y"
               ^
               "
        """),
    Case(
      name: "typographic single quote", text: "a == 'x’\n|| b == 1", reason: .typographicQuote,
      rendered: """
        rule.predicate:1:8: error: typographic quote ’ (U+2019) used as a string delimiter; replace with '
        a == 'x’
               ^
               '
        """),
    Case(
      name: "missing )", text: "(a == 1", reason: .missingClosingDelimiter,
      rendered: """
        rule.predicate:1:8: error: expected ')' to close the '(' at 1:1, found end of input
        (a == 1
               ^
        """),
    Case(
      name: "missing ) of SUBQUERY", text: "SUBQUERY(a, $x, $x == 1 || ", reason: .unexpectedToken,
      rendered: """
        rule.predicate:1:28: error: expected an expression, found end of input
        SUBQUERY(a, $x, $x == 1 || 
                                   ^
        """),
    Case(
      name: "missing ) of SUBQUERY at the end", text: "SUBQUERY(a, $x, $x == 1",
      reason: .missingClosingDelimiter,
      rendered: """
        rule.predicate:1:24: error: expected ')' to close the '(' at 1:9, found end of input
        SUBQUERY(a, $x, $x == 1
                               ^
        """),
    Case(
      name: "stray )", text: "a == 1)", reason: .unmatchedClosingDelimiter,
      rendered: """
        rule.predicate:1:7: error: unexpected ')' with no matching '('
        a == 1)
              ^
        """),
    Case(
      name: "SUBQUERY variable is a key", text: "SUBQUERY(items, x, x.a == 1).@count > 0",
      reason: .subqueryVariableExpected,
      rendered: """
        rule.predicate:1:17: error: the second argument of SUBQUERY must be a variable such as $x, found 'x'
        SUBQUERY(items, x, x.a == 1).@count > 0
                        ^
                        $
        """),
    Case(
      name: "SUBQUERY variable is a string", text: "SUBQUERY(items, 'x', $x.a == 1).@count > 0",
      reason: .subqueryVariableExpected,
      rendered: """
        rule.predicate:1:17: error: the second argument of SUBQUERY must be a variable such as $x, found the string 'x'
        SUBQUERY(items, 'x', $x.a == 1).@count > 0
                        ^~~
        """),
    Case(
      name: "trailing garbage", text: "a == 1 b", reason: .trailingInput,
      rendered: """
        rule.predicate:1:8: error: unexpected 'b' after the end of the predicate
        a == 1 b
               ^
        """),
    Case(
      name: "empty input", text: "", reason: .emptyInput,
      rendered: """
        rule.predicate:1:1: error: empty predicate: expected a comparison, TRUEPREDICATE or FALSEPREDICATE

        ^
        """),
    Case(
      name: "blank input", text: "  \n ", reason: .emptyInput,
      rendered: """
        rule.predicate:2:2: error: empty predicate: expected a comparison, TRUEPREDICATE or FALSEPREDICATE
         
         ^
        """),
    Case(
      name: "%@ without argument", text: "name == %@", reason: .missingFormatArgument,
      rendered: """
        rule.predicate:1:9: error: no argument supplied for '%@' (argument 1; 0 supplied)
        name == %@
                ^~
        """),
    Case(
      name: "%K without argument", text: "%K == 1", reason: .missingFormatArgument,
      rendered: """
        rule.predicate:1:1: error: no argument supplied for '%K' (argument 1; 0 supplied)
        %K == 1
        ^~
        """),
    Case(
      name: "second %@ without argument", text: "a == %@ OR b == %@", arguments: [.integer(1)],
      reason: .missingFormatArgument,
      rendered: """
        rule.predicate:1:17: error: no argument supplied for '%@' (argument 2; 1 supplied)
        a == %@ OR b == %@
                        ^~
        """),
    Case(
      name: "argument of the wrong type", text: "n == %d", arguments: [.string("s")],
      reason: .formatArgumentMismatch,
      rendered: """
        rule.predicate:1:6: error: argument 1 is a string, which '%d' cannot take
        n == %d
             ^~
        """),
    Case(
      name: "nesting too deep",
      text: String(repeating: "(", count: 300) + "a == 1" + String(repeating: ")", count: 300),
      reason: .nestingTooDeep,
      // The 606-scalar line is shown as a 120-scalar window around the column.
      rendered: "rule.predicate:1:257: error: nesting deeper than the limit of 256 levels "
        + "(PredicateParser.Options.maximumDepth); remove redundant parentheses or split the rule\n"
        + "…" + String(repeating: "(", count: 104) + "a == 1" + String(repeating: ")", count: 10) + "…\n"
        + String(repeating: " ", count: 61) + "^"),
    Case(
      name: "incomplete predicate", text: "a == 1 AND", reason: .unexpectedToken,
      rendered: """
        rule.predicate:1:11: error: expected an expression, found end of input
        a == 1 AND
                  ^
        """),
    Case(
      name: "expression without comparison", text: "a", reason: .unexpectedToken,
      rendered: """
        rule.predicate:1:2: error: expected a comparison operator such as '==' or 'IN', found end of input
        a
         ^
        """),
    Case(
      name: "reserved word as key", text: "a.ci == 1", reason: .reservedWordAsIdentifier,
      rendered: """
        rule.predicate:1:3: error: 'ci' is a reserved word; write '#ci' to use it as a key
        a.ci == 1
          ^~
          #
        """),
    Case(
      name: "XML-escaped rule text", text: "a &gt; 1 &amp;&amp; b == &quot;x&quot;", reason: .xmlEscapedText,
      rendered: """
        rule.predicate:1:3: error: XML entity '&gt;' in predicate text: the rule was copied out of a plist's \
        XML without decoding its entities; replace &lt; &gt; &quot; &apos; &amp; with < > " ' &
        a &gt; 1 &amp;&amp; b == &quot;x&quot;
          ^~~~
          > 1 && b == "x"
        """),
    Case(
      name: "function name without arguments", text: "sum: == 1", reason: .functionArgumentsExpected,
      rendered: """
        rule.predicate:1:1: error: expected '(' and the arguments after the function name 'sum:', found '=='
        sum: == 1
        ^~~~
        """),
    Case(
      name: "function name as a key", text: "a.sum:(1) == 1", reason: .unexpectedToken,
      rendered: """
        rule.predicate:1:3: error: expected a key after '.', found the function name 'sum:'; a function call \
        is not a key
        a.sum:(1) == 1
          ^~~~
        """),
    Case(
      name: "unknown option", text: "a ==[x] 1", reason: .invalidComparisonOption,
      rendered: """
        rule.predicate:1:6: error: unknown comparison option 'x'; the options are c, d, n and l
        a ==[x] 1
             ^
        """),
    Case(
      name: "lone ampersand", text: "a == 1 & b == 2", reason: .unexpectedCharacter,
      rendered: """
        rule.predicate:1:8: error: unexpected character '&' (did you mean '&&'?)
        a == 1 & b == 2
               ^
        """),
    Case(
      name: "bad escape", text: #"a == "\x4""#, reason: .invalidEscape,
      rendered: """
        rule.predicate:1:7: error: a \\x escape needs exactly 2 hexadecimal digits
        a == "\\x4"
              ^~~
        """),
    Case(
      name: "bad number", text: "a == 12ab", reason: .invalidNumber,
      rendered: """
        rule.predicate:1:6: error: invalid number '12ab'
        a == 12ab
             ^~~~
        """),
    Case(
      name: "literal percent", text: "a == %%", reason: .unsupportedFormatSpecifier,
      rendered: """
        rule.predicate:1:6: error: '%%' (a literal percent sign) cannot stand outside a string
        a == %%
             ^~
        """),
  ]

  @Test(arguments: cases)
  func renderedExactly(testCase: Case) {
    do {
      _ = try PredicateParser.parse(testCase.text, arguments: testCase.arguments)
      Issue.record("\(testCase.name) parsed")
    } catch {
      #expect(error.kind == testCase.reason)
      #expect(
        error.diagnostic.rendered(source: testCase.text, fileName: "rule.predicate") == testCase.rendered)
    }
  }

  @Test func invalidUTF8IsReportedAtTheByte() {
    let bytes = Array("a == \"".utf8) + [0xFF] + Array("\"".utf8)
    do {
      _ = try PredicateParser.parse(utf8: bytes)
      Issue.record("invalid UTF-8 parsed")
    } catch {
      #expect(error.kind == .invalidUTF8)
      let shown = String(decoding: bytes, as: UTF8.self)
      #expect(
        error.diagnostic.rendered(source: shown, fileName: "rule.predicate") == """
          rule.predicate:1:7: error: invalid UTF-8: byte 0xFF at offset 6
          a == "\u{FFFD}"
                ^
          """)
    }
  }

  @Test(
    arguments: [
      [0xC0, 0x80], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xE2, 0x82], [0x80],
    ] as [[UInt8]])
  func malformedSequencesAreRejected(sequence: [UInt8]) {
    #expect(throws: PredicateSyntaxError.self) {
      try PredicateParser.parse(utf8: Array("a == ".utf8) + sequence)
    }
  }

  @Test func validMultibyteUTF8Parses() throws {
    let result = try PredicateParser.parse(utf8: Array("name == \"naïve 😀\"".utf8))
    #expect(result.predicate == (try PredicateParser.parse("name == 'naïve 😀'")))
    let fromData = try PredicateParser.parse(data: Data("name == \"naïve 😀\"".utf8))
    #expect(fromData.predicate == result.predicate)
  }

  @Test func guide2018RuleAReportsTheTypographicQuoteAndItsFix() throws {
    let text = try Fixtures.localRule("intune-guide-A-2018")
    do {
      _ = try PredicateParser.parse(text)
      Issue.record("the 2018 rule parsed")
    } catch {
      #expect(error.kind == .typographicQuote)
      #expect(error.diagnostic.range.start.line == 7)
      #expect(error.diagnostic.range.start.column == 104)
      let fix = try #require(error.diagnostic.fix)
      #expect(fix.title == "replace with \"")
      let repaired = fix.applied(to: text)
      // One fix at a time: the second typographic quote is reported next, and fixing it gives rule A.
      do {
        _ = try PredicateParser.parse(repaired)
        Issue.record("the half-repaired rule parsed")
      } catch {
        let second = try #require(error.diagnostic.fix)
        #expect(error.diagnostic.range.start.line == 8)
        #expect(
          try PredicateParser.parse(second.applied(to: repaired))
            == (try PredicateParser.parse(try Fixtures.localRule("intune-guide-A"))))
      }
    }
  }

  @Test func guide2018RuleCReportsTheUnterminatedLiteralAndItsFix() throws {
    let text = try Fixtures.localRule("intune-guide-C-2018")
    do {
      _ = try PredicateParser.parse(text)
      Issue.record("the 2018 rule parsed")
    } catch {
      #expect(error.kind == .unterminatedString)
      #expect(error.diagnostic.range.start.line == 14)
      #expect(error.diagnostic.range.start.column == 67)
      let fix = try #require(error.diagnostic.fix)
      #expect(fix.title == "insert \"")
      #expect(
        try PredicateParser.parse(fix.applied(to: text))
          == (try PredicateParser.parse(try Fixtures.localRule("intune-guide-C"))))
    }
  }

  @Test func lenientModeAcceptsTypographicQuotesWithWarnings() throws {
    let text = try Fixtures.localRule("intune-guide-A-2018")
    let result = try PredicateParser.parseReportingWarnings(text, options: .lenient)
    #expect(result.predicate == (try PredicateParser.parse(try Fixtures.localRule("intune-guide-A"))))
    #expect(result.warnings.count == 2)
    #expect(result.warnings.allSatisfy { $0.severity == .warning && $0.fix?.replacement == "\"" })
    let curly = try PredicateParser.parseReportingWarnings(
      "name == “Jane” OR name == ‘Joe’", options: .lenient)
    #expect(curly.predicate == (try PredicateParser.parse("name == 'Jane' OR name == 'Joe'")))
    #expect(curly.warnings.map(\.range.start.column) == [9, 14, 27, 31])
    #expect(
      curly.warnings[0].rendered(source: "name == “Jane” OR name == ‘Joe’", fileName: "f") == """
        f:1:9: warning: typographic quote “ (U+201C) used as a string delimiter; replace with "
        name == “Jane” OR name == ‘Joe’
                ^
                "
        """)
  }

  @Test func typographicQuotesInsideAStringAreContent() throws {
    #expect(try PredicateParser.parse("a == \"say “hi”\"") == (try PredicateParser.parse("a == 'say “hi”'")))
    // A later, unrelated error is reported as itself.
    do {
      _ = try PredicateParser.parse("a == \"say “hi”\" AND b ==")
      Issue.record("parsed")
    } catch {
      #expect(error.kind == .unexpectedToken)
      #expect(error.diagnostic.message == "expected an expression, found end of input")
    }
  }

  @Test func jsonFormCarriesPositionRangeAndFix() throws {
    do {
      _ = try PredicateParser.parse("a == \"x")
      Issue.record("parsed")
    } catch {
      let json = PredicateDiagnosticRecord.json([error.diagnostic.record(fileName: "r.predicate")])
      let decoded = try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any]
      let diagnostics = try #require(decoded?["diagnostics"] as? [[String: Any]])
      let first = try #require(diagnostics.first)
      #expect(first["file"] as? String == "r.predicate")
      #expect(first["line"] as? Int == 1)
      #expect(first["column"] as? Int == 6)
      #expect(first["severity"] as? String == "error")
      #expect(first["message"] as? String == "unterminated string literal")
      let fix = try #require(first["fix"] as? [String: Any])
      #expect(fix["replacement"] as? String == "\"")
      let range = try #require(first["range"] as? [String: Any])
      let start = try #require(range["start"] as? [String: Any])
      #expect(start["offset"] as? Int == 5)
    }
  }
}
