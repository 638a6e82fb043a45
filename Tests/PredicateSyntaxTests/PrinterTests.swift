import Foundation
import PredicateSyntax
import Testing

@Suite struct PrinterTests {
  private static func golden(_ name: String, _ layout: String) throws -> String {
    let base = name.replacingOccurrences(of: ".predicate", with: "")
    let url = Fixtures.printedDirectory.appendingPathComponent("\(base).\(layout).predicate")
    return try String(contentsOf: url, encoding: .utf8)
  }

  @Test(arguments: Fixtures.allRuleNames)
  func prettyLayoutMatchesGolden(name: String) throws {
    let tree = try PredicateParser.parse(try Fixtures.rule(named: name))
    #expect(PredicatePrinter.pretty(tree) + "\n" == (try Self.golden(name, "pretty")))
  }

  @Test(arguments: Fixtures.allRuleNames)
  func canonicalLayoutMatchesGolden(name: String) throws {
    let tree = try PredicateParser.parse(try Fixtures.rule(named: name))
    #expect(PredicatePrinter.canonical(tree) + "\n" == (try Self.golden(name, "canonical")))
  }

  /// The guide's rules B and C are already in the guide's layout: pretty-printing reproduces them byte for byte.
  @Test(arguments: ["intune-guide-B", "intune-guide-C"])
  func prettyLayoutReproducesTheGuide(name: String) throws {
    let text = try Fixtures.localRule(name)
    #expect(PredicatePrinter.pretty(try PredicateParser.parse(text)) + "\n" == text)
  }

  @Test(arguments: [
    // An AND inside an OR keeps parentheses, so the text means the same under either precedence.
    ("a == 1 OR b == 2 AND c == 3", "a == 1 || (b == 2 && c == 3)"),
    ("a == 1 AND b == 2 OR c == 3", "(a == 1 && b == 2) || c == 3"),
    ("a == 1 AND (b == 2 OR c == 3)", "a == 1 && (b == 2 || c == 3)"),
    ("(a == 1 OR b == 2) AND c == 3", "(a == 1 || b == 2) && c == 3"),
    ("a == 1 OR (b == 2 OR c == 3)", "a == 1 || (b == 2 || c == 3)"),
    ("NOT (a == 1 AND b == 2)", "NOT (a == 1 && b == 2)"),
    ("not not a = 1", "NOT NOT a == 1"),
    ("x == (1 + 2) * 3", "x == (1 + 2) * 3"),
    ("x == 1 + (2 * 3)", "x == 1 + 2 * 3"),
    ("x == 1 - (2 - 3)", "x == 1 - (2 - 3)"),
    ("x == (2 ** 3) ** 2", "x == (2 ** 3) ** 2"),
    ("x == 2 ** 3 ** 2", "x == 2 ** 3 ** 2"),
    ("x == -(5)", "x == -(5)"),
    ("x == -5", "x == -5"),
    ("x == (-5) ** 2", "x == (-5) ** 2"),
    ("x == -5 ** 2", "x == -5 ** 2"),
    ("x == - -5", "x == -(-5)"),
    ("x == - -y", "x == - -y"),
    ("x == -(-5)", "x == -(-5)"),
    ("x == 1 - -5", "x == 1 - -5"),
    ("x == (a).b", "x == (a).b"),
    ("x == a[0].b[LAST]", "x == a[0].b[LAST]"),
    ("x == #size.#first", "x == #size.#first"),
    ("x ==[cd] 'a\\tb\"c\\\\d\\u0001'", #"x ==[cd] "a\tb\"c\\d\u0001""#),
    ("x => 1 AND y =< 2 AND z <> 3 AND w = 4", "x >= 1 && y <= 2 && z != 3 && w == 4"),
    ("x IN {1, 2.5, 'a', NULL, YES, NO}", #"x IN {1, 2.5, "a", NULL, TRUE, FALSE}"#),
    ("x == 1e-5 AND y == 1e100 AND z == 0.1", "x == 1e-05 && y == 1e+100 && z == 0.1"),
    ("x == 0x10", "x == 16"),
    ("$v := 2 == x", "$v := 2 == x"),
    (
      "FUNCTION(SELF, 'a:', 1) == CAST('1', 'NSNumber')", #"FUNCTION(SELF, "a:", 1) == CAST("1", "NSNumber")"#
    ),
    ("TERNARY(a == 1, 2, 3) == max(1, 2)", "TERNARY(a == 1, 2, 3) == max(1, 2)"),
    ("a UNION b INTERSECT c == d", "a UNION b INTERSECT c == d"),
    ("a UNION (b INTERSECT c) == d", "a UNION (b INTERSECT c) == d"),
    ("some x.y beginswith[c] 'z'", #"SOME x.y BEGINSWITH[c] "z""#),
    ("@count > 0", "@count > 0"),
    // Functions as NSExpression names them: printed as written, the arithmetic ones as their operators.
    ("sum:({1,2,3}) == 6", "sum:({1, 2, 3}) == 6"),
    ("uppercase:(name) == 'HELLO'", #"uppercase:(name) == "HELLO""#),
    ("add:to:(a, b) < 11", "a + b < 11"),
    ("from:subtract:(a, b) == multiply:by:(c, d)", "a - b == c * d"),
    ("divide:by:(add:to:(a, 1), 2) == 3", "(a + 1) / 2 == 3"),
    ("raise:toPower:(2, 3) == 8", "2 ** 3 == 8"),
    (
      "modulus:by:(a, 2) == 0 AND bitwiseAnd:with:(a, 1) == 0",
      "modulus:by:(a, 2) == 0 && bitwiseAnd:with:(a, 1) == 0"
    ),
    ("now() > x AND random() < 1", "now() > x && random() < 1"),
    ("add:to:(1, 2, 3) == 6", "add:to:(1, 2, 3) == 6"),
    // FIRST, LAST and SIZE outside a subscript are keys, printed escaped.
    ("name == 'a' AND size == 2", #"name == "a" && #size == 2"#),
    ("first.last == x[FIRST]", "#first.#last == x[FIRST]"),
  ])
  func canonicalForm(input: String, expected: String) throws {
    let tree = try PredicateParser.parse(input)
    let printed = PredicatePrinter.canonical(tree)
    #expect(printed == expected)
    #expect(try PredicateParser.parse(printed) == tree)
  }

  @Test func wordSpellingOfLogicalOperators() throws {
    let tree = try PredicateParser.parse("a == 1 && (b == 2 || NOT c == 3)")
    #expect(
      PredicatePrinter(logicalOperators: .words).string(for: tree) == "a == 1 AND (b == 2 OR NOT c == 3)")
  }

  @Test(arguments: [
    // The smallest subnormal, the largest finite value, 2^53 (the last integer before doubles skip one)
    // and the double after it.
    0.1, 1.0 / 3.0, 123_456_789.123_456_79, Double.leastNonzeroMagnitude, Double.greatestFiniteMagnitude,
    1e16, 1e-7, 2.0, -0.0, Double.infinity, -Double.infinity, 9_007_199_254_740_992,
    9_007_199_254_740_992.nextUp,
  ])
  func doublesRoundTripExactly(value: Double) throws {
    let tree = PredicateNode(
      .comparison(
        Comparison(
          lhs: ExpressionNode(.keyPath(base: nil, components: [.key("x")])), op: .equalTo,
          rhs: ExpressionNode(.constant(.double(value))))))
    let reparsed = try PredicateParser.parse(PredicatePrinter.canonical(tree))
    guard case .comparison(let comparison) = reparsed.kind,
      case .constant(.double(let read)) = comparison.rhs.kind
    else {
      Issue.record("not a double: \(PredicatePrinter.canonical(tree))")
      return
    }
    #expect(read.bitPattern == value.bitPattern)
  }

  @Test func integerExtremesRoundTrip() throws {
    for value in [Int.min, Int.max, 0, -1] {
      let tree = PredicateNode(
        .comparison(
          Comparison(
            lhs: ExpressionNode(.constant(.integer(value))), op: .equalTo,
            rhs: ExpressionNode(.negate(ExpressionNode(.constant(.integer(value))))))))
      #expect(try PredicateParser.parse(PredicatePrinter.canonical(tree)) == tree)
    }
  }

  @Test func stringsAreReEscaped() throws {
    let value = "quote \" backslash \\ newline \n tab \t return \r bell \u{7} delete \u{7F} é 😀 “curly”"
    let tree = PredicateNode(
      .comparison(
        Comparison(
          lhs: ExpressionNode(.keyPath(base: nil, components: [.key("x")])), op: .equalTo,
          rhs: ExpressionNode(.constant(.string(value))))))
    let printed = PredicatePrinter.canonical(tree)
    #expect(!printed.contains("\n"))
    #expect(try PredicateParser.parse(printed) == tree)
  }

  @Test func formattingIsIdempotentOnEveryRule() throws {
    for (name, text) in try Fixtures.allRules() {
      for printer in [PredicatePrinter(), PredicatePrinter(layout: .pretty)] {
        let once = printer.string(for: try PredicateParser.parse(text))
        let twice = printer.string(for: try PredicateParser.parse(once))
        #expect(once == twice, "\(name)")
      }
    }
  }
}
