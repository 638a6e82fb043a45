import PredicateSyntax
import Testing

/// `PredicateParser.parseSyntaxTree` is the same parse as `PredicateParser.parse` into another form: the same
/// outcome on every input, and its public node view says everything the node tree says.
@Suite struct SyntaxTreeTests {
  /// The outcome of one parse, for comparing the two forms: the tree's JSON (every node, field and range)
  /// and warnings, or the error's kind, diagnostic and warnings.
  static func outcome(_ parse: () throws(PredicateSyntaxError) -> (PredicateNode, [PredicateDiagnostic]))
    -> String
  {
    do {
      let (predicate, warnings) = try parse()
      return "ok \(SyntaxTreeJSON.string(for: predicate)) \(warnings.map(ParseSnapshotTests.describe))"
    } catch {
      return "error \(error.kind) \(ParseSnapshotTests.describe(error.diagnostic)) "
        + "\(error.warnings.map(ParseSnapshotTests.describe))"
    }
  }

  /// Every valid-UTF-8 input of the parse snapshot (corpus, edge cases, random trees and their mutations),
  /// strict and lenient: the same tree with the same ranges, or the same error.
  @Test func theSyntaxTreeIsTheSameParseOnEverySnapshotInput() throws {
    var compared = 0
    var trees = 0
    for input in try ParseSnapshotTests.inputs() {
      guard let text = String(validating: input, as: UTF8.self) else { continue }
      for lenient in [false, true] {
        let options = PredicateParser.Options(lenient: lenient)
        let nodes = Self.outcome { () throws(PredicateSyntaxError) in
          let result = try PredicateParser.parseReportingWarnings(text, options: options)
          return (result.predicate, result.warnings)
        }
        let flat = Self.outcome { () throws(PredicateSyntaxError) in
          let tree = try PredicateParser.parseSyntaxTree(text, options: options)
          return (tree.predicate, tree.warnings)
        }
        #expect(flat == nodes, "\(text)")
        compared += 1
        if nodes.hasPrefix("ok") { trees += 1 }
      }
    }
    #expect(compared > 10_000)
    #expect(trees > 2_000)
  }

  /// The public view (kind, children, ranges) rebuilt into nodes gives the parsed tree back, ranges included.
  @Test(arguments: Fixtures.corpusRuleNames)
  func theNodeViewHoldsTheWholeTree(_ name: String) throws {
    let text = try Fixtures.corpusRule(name)
    let tree = try PredicateParser.parseSyntaxTree(text)
    let rebuilt = try #require(Self.predicate(tree.root))
    let parsed = try PredicateParser.parse(text)
    #expect(SyntaxTreeJSON.string(for: rebuilt) == SyntaxTreeJSON.string(for: parsed))
    #expect(tree.text == text)
    #expect(tree.root.isPredicate)
  }

  /// Every form of expression, through the view and through `predicate`.
  @Test(arguments: [
    "TERNARY(a == 1, -b, {1, 2.5, 'x', TRUE, NULL}) == c[FIRST]",
    "FUNCTION(SELF, 'x:', $v := 2, ANYKEY) == sum:({1, 2}) UNION c[LAST] INTERSECT d[SIZE] MINUS e[0]",
    "CAST('1', 'NSNumber') + now() * 2 ** 3 - 4 / 5 == add:to:(1, 2)",
    "SUBQUERY(a.b, $x, NOT ($x.@count > 1 OR $x == \"q\\n\")).@count > 0 AND (c).d.#first == FALSE",
    "ALL a ==[cd] 'x' && NONE b !=[c] 'y' || SOME c BETWEEN {1, 2}",
  ])
  func everyFormThroughTheView(_ text: String) throws {
    let tree = try PredicateParser.parseSyntaxTree(text)
    let parsed = try PredicateParser.parse(text)
    let rebuilt = try #require(Self.predicate(tree.root))
    #expect(SyntaxTreeJSON.string(for: rebuilt) == SyntaxTreeJSON.string(for: parsed))
    #expect(SyntaxTreeJSON.string(for: tree.predicate) == SyntaxTreeJSON.string(for: parsed))
  }

  /// Format arguments arrive as nodes; a `%K` key path is extended by the keys written after it.
  @Test func formatArgumentsBecomeRecords() throws {
    let text = "%K.c.@count == %@ AND x IN %@ AND y == %@"
    let arguments: [FormatArgument] = [
      .keyPath("a.b"), .integer(3), .array([.string("p"), .array([.double(1.5), .null])]),
      .date(secondsSinceReferenceDate: 10),
    ]
    let tree = try PredicateParser.parseSyntaxTree(text, arguments: arguments)
    let parsed = try PredicateParser.parse(text, arguments: arguments)
    #expect(SyntaxTreeJSON.string(for: tree.predicate) == SyntaxTreeJSON.string(for: parsed))
    #expect(
      SyntaxTreeJSON.string(for: try #require(Self.predicate(tree.root)))
        == SyntaxTreeJSON.string(for: parsed))
  }

  /// A tree taller than tree walkers take on the caller's stack is built into nodes on the dedicated thread's.
  /// (200 levels: deep enough for that path, shallow enough for `==`, which recurses, on a test thread.)
  @Test func aDeepTreeBecomesNodes() throws {
    let depth = 200
    let text = String(repeating: "NOT ", count: depth) + "a == 1"
    let options = PredicateParser.Options(maximumDepth: depth + 10)
    let tree = try PredicateParser.parseSyntaxTree(text, options: options)
    let parsed = try PredicateParser.parse(text, options: options)
    #expect(tree.predicate == parsed)
    #expect(tree.nodeCount == depth + 3)
  }

  /// An expression taller than tree walkers take on the caller's stack is built on the dedicated thread's.
  @Test func aTallExpressionBecomesNodes() throws {
    let expression = try PredicateParser.parseExpression(String(repeating: "- ", count: 99) + "-1")
    var expected = ExpressionNode(.constant(.integer(-1)))
    for _ in 0..<99 { expected = ExpressionNode(.negate(expected)) }
    #expect(expression == expected)
    #expect(expression.range.byteRange == 0..<200)
  }

  /// The view's kinds and children, as the test reads them back into nodes.
  static func predicate(_ node: PredicateSyntaxTree.Node) -> PredicateNode? {
    let children = node.children
    let kind: PredicateNode.Kind
    switch node.kind {
    case .truePredicate: kind = .truePredicate
    case .falsePredicate: kind = .falsePredicate
    case .not:
      guard let operand = predicate(children[0]) else { return nil }
      kind = .not(operand)
    case .and, .or:
      guard let left = predicate(children[0]), let right = predicate(children[1]) else { return nil }
      kind = node.kind == .and ? .and(left, right) : .or(left, right)
    case .comparison(let quantifier, let op, let options):
      guard let lhs = expression(children[0]), let rhs = expression(children[1]),
        let operatorRange = node.operatorRange
      else { return nil }
      kind = .comparison(
        Comparison(
          quantifier: quantifier, lhs: lhs, op: op, options: options, rhs: rhs, operatorRange: operatorRange))
    default: return nil
    }
    return PredicateNode(kind, range: node.range)
  }

  static func expression(_ node: PredicateSyntaxTree.Node) -> ExpressionNode? {
    let children = node.children
    let operands = children.compactMap { expression($0) }
    let kind: ExpressionNode.Kind
    switch node.kind {
    case .constant(let value): kind = .constant(value)
    case .evaluatedObject: kind = .evaluatedObject
    case .anyKey: kind = .anyKey
    case .variable(let name): kind = .variable(name)
    case .keyPath(let components): kind = .keyPath(base: operands.first, components: components)
    case .index(let form):
      let index: IndexKind =
        switch form {
        case .first: .first
        case .last: .last
        case .size: .size
        case .expression: .expression(operands[1])
        }
      kind = .index(operands[0], index)
    case .aggregate: kind = .aggregate(operands)
    case .subquery(let variable):
      guard let condition = predicate(children[1]) else { return nil }
      kind = .subquery(collection: operands[0], variable: variable, predicate: condition)
    case .function(let name): kind = .function(name: name, arguments: operands)
    case .functionCall(let selector):
      kind = .functionCall(receiver: operands[0], selector: selector, arguments: Array(operands.dropFirst()))
    case .cast: kind = .cast(operands[0], type: operands[1])
    case .arithmetic(let op): kind = .arithmetic(op, operands[0], operands[1])
    case .negate: kind = .negate(operands[0])
    case .setOperation(let op): kind = .setOperation(op, operands[0], operands[1])
    case .assignment(let variable): kind = .assignment(variable: variable, value: operands[0])
    case .ternary:
      guard let condition = predicate(children[0]) else { return nil }
      kind = .ternary(condition, operands[0], operands[1])
    default: return nil
    }
    return ExpressionNode(kind, range: node.range)
  }
}
