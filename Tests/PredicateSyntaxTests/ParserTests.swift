import PredicateSyntax
import Testing

private func keyPath(_ names: String...) -> ExpressionNode {
  ExpressionNode(.keyPath(base: nil, components: names.map { .key($0) }))
}

private func constant(_ value: Constant) -> ExpressionNode { ExpressionNode(.constant(value)) }

private func parse(_ text: String) throws -> PredicateNode { try PredicateParser.parse(text) }

@Suite struct ParserTests {
  /// Each input must mean the same as its explicitly parenthesised twin.
  @Test(arguments: [
    ("a == 1 OR b == 2 AND c == 3", "a == 1 OR (b == 2 AND c == 3)"),
    ("a == 1 AND b == 2 OR c == 3", "(a == 1 AND b == 2) OR c == 3"),
    ("NOT a == 1 AND b == 2", "(NOT a == 1) AND b == 2"),
    ("NOT a == 1 OR b == 2", "(NOT a == 1) OR b == 2"),
    ("a == 1 || b == 2 || c == 3", "(a == 1 || b == 2) || c == 3"),
    ("a == 1 && b == 2 && c == 3", "(a == 1 && b == 2) && c == 3"),
    ("! a == 1 && ! b == 2", "(NOT a == 1) && (NOT b == 2)"),
    ("x == 1 + 2 * 3", "x == 1 + (2 * 3)"),
    ("x == 1 - 2 - 3", "x == (1 - 2) - 3"),
    ("x == 2 ** 3 ** 2", "x == 2 ** (3 ** 2)"),
    ("x == -y ** 2", "x == -(y ** 2)"),
    ("x == -y * 2", "x == (-y) * 2"),
    ("x == a UNION b + 1", "x == a UNION (b + 1)"),
    ("(a + b) * 2 > 3", "((a + b) * 2) > 3"),
    ("((a)) == 1", "a == 1"),
    ("(a == 1)", "a == 1"),
    ("$x := 1 + 2 == 3", "($x := (1 + 2)) == 3"),
    // A postfix operand followed by an operator (read first, then handed to the operator levels).
    ("a.b[0] + c.d * e ** 2 - 1 == 3", "((a.b[0] + (c.d * (e ** 2))) - 1) == 3"),
    ("$v.k ** 2 ** 3 > 1", "($v.k ** (2 ** 3)) > 1"),
    ("a[FIRST].b * -2 < 0", "((a[FIRST].b) * (-2)) < 0"),
    ("x UNION y.z INTERSECT w == {}", "((x UNION y.z) INTERSECT w) == {}"),
    ("x == a.b union c", "x == (a.b UNION c)"),
    ("{1, 2} + \"s\" BETWEEN {sum(1, 2) - 3, 4}", "({1, 2} + \"s\") BETWEEN {(sum(1, 2) - 3), 4}"),
  ])
  func precedence(input: String, parenthesised: String) throws {
    #expect(try parse(input) == (try parse(parenthesised)))
  }

  /// An operand read before its operator is known keeps its own range, and the operation covers both.
  @Test func operandRangesAroundOperators() throws {
    let text = "a.b[0] + c ** 2 == d.e"
    let bytes = Array(text.utf8)
    func slice(_ range: SourceRange) -> String { String(decoding: bytes[range.byteRange], as: UTF8.self) }
    guard case .comparison(let comparison) = try parse(text).kind,
      case .arithmetic(.add, let left, let right) = comparison.lhs.kind
    else {
      Issue.record("expected a comparison of a sum")
      return
    }
    #expect(slice(comparison.lhs.range) == "a.b[0] + c ** 2")
    #expect(slice(left.range) == "a.b[0]")
    #expect(slice(right.range) == "c ** 2")
    #expect(slice(comparison.rhs.range) == "d.e")
  }

  @Test func precedenceIsNotFlat() throws {
    #expect(try parse("a == 1 OR b == 2 AND c == 3") != (try parse("(a == 1 OR b == 2) AND c == 3")))
    #expect(try parse("x == -2 ** 2") != (try parse("x == (-2) ** 2")))
  }

  @Test(arguments: [
    ("=", ComparisonOperator.equalTo), ("==", .equalTo), ("!=", .notEqualTo), ("<>", .notEqualTo),
    ("<", .lessThan), ("<=", .lessThanOrEqualTo), ("=<", .lessThanOrEqualTo), (">", .greaterThan),
    (">=", .greaterThanOrEqualTo), ("=>", .greaterThanOrEqualTo), ("BETWEEN", .between), ("IN", .in),
    ("CONTAINS", .contains), ("BEGINSWITH", .beginsWith), ("ENDSWITH", .endsWith), ("LIKE", .like),
    ("MATCHES", .matches), ("UTI-CONFORMS-TO", .utiConformsTo), ("UTI-EQUALS", .utiEquals),
    ("uti-conforms-to", .utiConformsTo), ("Uti-Equals", .utiEquals), ("between", .between),
  ])
  func comparisonOperatorSpellings(spelling: String, expected: ComparisonOperator) throws {
    let tree = try parse("a \(spelling) b")
    #expect(
      tree == PredicateNode(.comparison(Comparison(lhs: keyPath("a"), op: expected, rhs: keyPath("b")))))
  }

  @Test(
    arguments: [
      ("[c]", ComparisonOptions.caseInsensitive), ("[d]", .diacriticInsensitive), ("[n]", .normalized),
      ("[cd]", [.caseInsensitive, .diacriticInsensitive]),
      ("[dc]", [.caseInsensitive, .diacriticInsensitive]),
      ("[CD]", [.caseInsensitive, .diacriticInsensitive]),
      ("[ncd]", [.caseInsensitive, .diacriticInsensitive, .normalized]),
      ("[l]", .localeSensitive), ("[ c ]", .caseInsensitive),
    ] as [(String, ComparisonOptions)])
  func comparisonOptions(options: String, expected: ComparisonOptions) throws {
    let tree = try parse("name LIKE\(options) 'x*'")
    guard case .comparison(let comparison) = tree.kind else {
      Issue.record("not a comparison")
      return
    }
    #expect(comparison.options == expected)
    #expect(comparison.op == .like)
  }

  @Test(arguments: [
    ("ANY", Quantifier.any), ("SOME", .some), ("ALL", .all), ("NONE", .none), ("any", .any), ("All", .all),
  ])
  func quantifiers(spelling: String, expected: Quantifier) throws {
    guard case .comparison(let comparison) = try parse("\(spelling) children.age < 18").kind else {
      Issue.record("not a comparison")
      return
    }
    #expect(comparison.quantifier == expected)
    #expect(comparison.lhs == keyPath("children", "age"))
  }

  @Test(arguments: [
    ("x == NULL", Constant.null), ("x == nil", .null), ("x == TRUE", .bool(true)), ("x == yes", .bool(true)),
    ("x == FALSE", .bool(false)), ("x == No", .bool(false)), ("x == 27", .integer(27)),
    ("x == 2.71828", .double(2.71828)), ("x == 9.2e-5", .double(9.2e-5)), ("x == 1E+3", .double(1000)),
    ("x == 0x1F", .integer(31)), ("x == 0o17", .integer(15)), ("x == 0b101", .integer(5)),
    ("x == 0XfF", .integer(255)),
    ("x == -5", .integer(-5)), ("x == -9223372036854775808", .integer(Int.min)),
    ("x == 9223372036854775808", .double(9_223_372_036_854_775_808)), ("x == -0.5", .double(-0.5)),
    ("x == 0xFFFFFFFFFFFFFFFFFF", .double(0x1p72)),
    (#"x == "a\"b""#, .string("a\"b")), (#"x == 'a\'b'"#, .string("a'b")), (#"x == "a\\b""#, .string("a\\b")),
    (#"x == "a\nb\tc""#, .string("a\nb\tc")), (#"x == "\101\102""#, .string("AB")),
    (#"x == "\x41\X42""#, .string("AB")),
    (#"x == "\u00e9\U00E9""#, .string("éé")), (#"x == "\uD83D\uDE00""#, .string("😀")),
    (#"x == 'it''s'"#, .string("it")),
    (#"x == "a'b""#, .string("a'b")), (#"x == 'say "hi"'"#, .string("say \"hi\"")),
    (#"x == "naïve”""#, .string("naïve”")),
  ])
  func literals(text: String, expected: Constant) throws {
    if text == #"x == 'it''s'"# {
      // Adjacent literals are not concatenated: the second one is trailing input.
      #expect(throws: PredicateSyntaxError.self) { try parse(text) }
      return
    }
    guard case .comparison(let comparison) = try parse(text).kind else {
      Issue.record("not a comparison")
      return
    }
    #expect(comparison.rhs == constant(expected))
  }

  @Test func keyPathsVariablesAndIndexes() throws {
    let subquery = try PredicateParser.parseExpression("SUBQUERY(items, $x, $x.a == 1).@count")
    guard case .keyPath(let base?, let components) = subquery.kind,
      case .subquery(_, let variable, _) = base.kind
    else {
      Issue.record("expected a key path on a SUBQUERY")
      return
    }
    #expect(variable == "x")
    #expect(components == [.collectionOperator("count")])
    #expect(
      try PredicateParser.parseExpression("$x.a.@count")
        == ExpressionNode(
          .keyPath(
            base: ExpressionNode(.variable("x")), components: [.key("a"), .collectionOperator("count")])))
    #expect(try PredicateParser.parseExpression("a.b.c") == keyPath("a", "b", "c"))
    #expect(try PredicateParser.parseExpression("#size.#first") == keyPath("size", "first"))
    #expect(
      try PredicateParser.parseExpression("dogs[SIZE]") == ExpressionNode(.index(keyPath("dogs"), .size)))
    #expect(
      try PredicateParser.parseExpression("dogs[first]") == ExpressionNode(.index(keyPath("dogs"), .first)))
    #expect(
      try PredicateParser.parseExpression("dogs[LAST]") == ExpressionNode(.index(keyPath("dogs"), .last)))
    #expect(
      try PredicateParser.parseExpression("dogs[0].age")
        == ExpressionNode(
          .keyPath(
            base: ExpressionNode(.index(keyPath("dogs"), .expression(constant(.integer(0))))),
            components: [.key("age")])))
    #expect(
      try PredicateParser.parseExpression("(a).b")
        == ExpressionNode(.keyPath(base: keyPath("a"), components: [.key("b")])))
    #expect(try PredicateParser.parseExpression("SELF") == ExpressionNode(.evaluatedObject))
    #expect(
      try PredicateParser.parseExpression("self.name")
        == ExpressionNode(.keyPath(base: ExpressionNode(.evaluatedObject), components: [.key("name")])))
    #expect(try PredicateParser.parseExpression("ANYKEY") == ExpressionNode(.anyKey))
    #expect(
      try PredicateParser.parseExpression("@count")
        == ExpressionNode(.keyPath(base: nil, components: [.collectionOperator("count")])))
  }

  @Test func functionsCastsAggregatesAndSetOperations() throws {
    #expect(
      try PredicateParser.parseExpression("{1, 'a', {}}")
        == ExpressionNode(
          .aggregate([constant(.integer(1)), constant(.string("a")), ExpressionNode(.aggregate([]))])))
    #expect(
      try PredicateParser.parseExpression("sum(1, 2)")
        == ExpressionNode(.function(name: "sum", arguments: [constant(.integer(1)), constant(.integer(2))])))
    #expect(
      try PredicateParser.parseExpression("now()") == ExpressionNode(.function(name: "now", arguments: [])))
    #expect(
      try PredicateParser.parseExpression("FUNCTION(name, 'uppercase:')")
        == ExpressionNode(.functionCall(receiver: keyPath("name"), selector: "uppercase:", arguments: [])))
    #expect(
      try PredicateParser.parseExpression("function(SELF, 'add:to:', 1, 2)")
        == ExpressionNode(
          .functionCall(
            receiver: ExpressionNode(.evaluatedObject), selector: "add:to:",
            arguments: [constant(.integer(1)), constant(.integer(2))])))
    #expect(
      try PredicateParser.parseExpression("CAST(0, 'NSDate')")
        == ExpressionNode(.cast(constant(.integer(0)), type: constant(.string("NSDate")))))
    #expect(
      try PredicateParser.parseExpression("a union b")
        == ExpressionNode(.setOperation(.union, keyPath("a"), keyPath("b"))))
    #expect(
      try PredicateParser.parseExpression("TERNARY(a == 1, 'one', 'other')")
        == ExpressionNode(
          .ternary(
            PredicateNode(
              .comparison(Comparison(lhs: keyPath("a"), op: .equalTo, rhs: constant(.integer(1))))),
            constant(.string("one")), constant(.string("other")))))
    #expect(try parse("TRUEPREDICATE") == PredicateNode(.truePredicate))
    #expect(try parse("falsepredicate") == PredicateNode(.falsePredicate))
  }

  @Test func rangesPointAtTheText() throws {
    let text = "name ==[c] 'x'\n  AND\tage > 3"
    let tree = try parse(text)
    guard case .and(let left, let right) = tree.kind, case .comparison(let comparison) = left.kind else {
      Issue.record("expected AND of comparisons")
      return
    }
    let bytes = Array(text.utf8)
    func slice(_ range: SourceRange) -> String { String(decoding: bytes[range.byteRange], as: UTF8.self) }
    #expect(slice(tree.range) == text)
    #expect(slice(comparison.operatorRange) == "==[c]")
    #expect(slice(comparison.rhs.range) == "'x'")
    #expect(slice(right.range) == "age > 3")
    #expect(right.range.start == SourcePosition(line: 2, column: 7, offset: 21))
  }

  @Test func columnsCountUnicodeScalars() throws {
    let tree = try parse("\"é😀\" == x")
    guard case .comparison(let comparison) = tree.kind else {
      Issue.record("not a comparison")
      return
    }
    #expect(comparison.rhs.range.start.column == 9)
    #expect(comparison.rhs.range.start.offset == 12)
  }

  @Test func formatArguments() throws {
    let tree = try PredicateParser.parse(
      "%K == %@ AND n > %d AND f < %f AND s == %s AND d == %@ AND list IN %@ AND z == %@ AND b == %@ AND c == %c",
      arguments: [
        .keyPath("a.@count"), .string("x"), .integer(3), .double(1.5), .string("s"),
        .date(secondsSinceReferenceDate: 100), .array([.integer(1), .string("two")]), .null, .bool(true),
        .integer(65),
      ])
    let expected = try parse(
      "a.@count == 'x' AND n > 3 AND f < 1.5 AND s == 's' AND d == CAST(100.0, 'NSDate') AND list IN {1, 'two'}"
        + " AND z == NULL AND b == TRUE AND c == 'A'")
    #expect(tree == expected)
    #expect(try PredicateParser.parse("%K == 1", arguments: [.string("size")]) == (try parse("#size == 1")))
  }
}
