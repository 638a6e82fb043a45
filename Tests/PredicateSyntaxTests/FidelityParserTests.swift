import PredicateSyntax
import Testing

/// The syntax of issue 17: functions named as NSExpression names them, FIRST/LAST/SIZE as keys, and rule
/// text still XML-escaped. docs/language.md gives the evidence for each.
@Suite struct FidelityParserTests {
  /// Text in Apple's spelling and the tree RuleKit's own spelling gives.
  @Test(
    "a selector-named call is the same tree as its RuleKit spelling",
    arguments: [
      ("sum:({1, 2, 3}) == 6", "sum:({1, 2, 3}) == 6"),
      ("add:to:(a, b) < 11", "a + b < 11"),
      ("from:subtract:(a, b) == 1", "a - b == 1"),
      ("multiply:by:(a, b) == 1", "a * b == 1"),
      ("divide:by:(a, b) == 1", "a / b == 1"),
      ("raise:toPower:(a, b) == 1", "a ** b == 1"),
      ("size == 2", "#size == 2"),
      ("FIRST == LAST", "#FIRST == #LAST"),
      ("a.Size[SIZE] == 1", "a.#Size[SIZE] == 1"),
    ])
  func sameTree(apple: String, rulekit: String) throws {
    #expect(try PredicateParser.parse(apple) == PredicateParser.parse(rulekit))
  }

  @Test(
    "a selector name is one token ending with a colon",
    arguments: [
      ("uppercase:(name) == 'A'", "uppercase:"), ("bitwiseAnd:with:(a, 1) == 0", "bitwiseAnd:with:"),
      ("castObject:toType:(a, 'NSString') == 'x'", "castObject:toType:"),
    ])
  func selectorName(text: String, name: String) throws {
    let tree = try PredicateParser.parse(text)
    guard case .comparison(let comparison) = tree.kind, case .function(let found, _) = comparison.lhs.kind
    else {
      Issue.record("not a function call: \(tree)")
      return
    }
    #expect(found == name)
  }

  @Test(
    "what stays an error",
    arguments: [
      ("sum: == 1", PredicateSyntaxErrorKind.functionArgumentsExpected),
      ("add:to == 1", .functionArgumentsExpected),
      ("a.sum:(1) == 1", .unexpectedToken),
      ("a : b", .unexpectedCharacter),
      ("$x := 1 == 1 AND a.ci == 1", .reservedWordAsIdentifier),
      ("a &gt; 1", .xmlEscapedText),
      ("a &#62; 1", .xmlEscapedText),
      ("a &#x3E; 1", .xmlEscapedText),
      ("a & b", .unexpectedCharacter),
    ])
  func stillAnError(text: String, reason: PredicateSyntaxErrorKind) {
    #expect(throws: PredicateSyntaxError.self) { try PredicateParser.parse(text) }
    do {
      _ = try PredicateParser.parse(text)
    } catch {
      #expect(error.kind == reason)
    }
  }

  @Test(
    "the fix for XML-escaped text decodes it",
    arguments: [
      ("a &gt; 1 &amp;&amp; b == &quot;x&quot;", #"a > 1 && b == "x""#),
      ("name == &apos;a&amp;b&apos;\n", "name == 'a&b'\n"),
      ("a &lt;= 2 AND\n  b &gt;= &#49;", "a <= 2 AND\n  b >= 1"),
      ("x == &quot;&amp;lt;&quot;", #"x == "&lt;""#),
    ])
  func xmlFix(escaped: String, decoded: String) throws {
    do {
      _ = try PredicateParser.parse(escaped)
      Issue.record("parsed")
    } catch {
      let fix = try #require(error.diagnostic.fix)
      let fixed = fix.applied(to: escaped)
      #expect(fixed == decoded)
      _ = try PredicateParser.parse(fixed)
    }
  }
}
