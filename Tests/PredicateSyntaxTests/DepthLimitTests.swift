import Testing

@testable import PredicateSyntax

@Suite struct DepthLimitTests {
  private func reason(_ text: String, options: PredicateParser.Options = .init())
    -> PredicateSyntaxError.Kind?
  {
    do {
      _ = try PredicateParser.parse(text, options: options)
      return nil
    } catch {
      return error.kind
    }
  }

  @Test(arguments: [
    String(repeating: "(", count: 100_000) + "a == 1" + String(repeating: ")", count: 100_000),
    String(repeating: "NOT ", count: 100_000) + "a == 1",
    String(repeating: "!", count: 100_000) + "a == 1",
    "x == " + String(repeating: "-", count: 100_000) + "y",
    "x == " + String(repeating: "{", count: 100_000) + String(repeating: "}", count: 100_000),
    "x == " + String(repeating: "f(", count: 100_000) + String(repeating: ")", count: 100_000),
    "x == " + String(repeating: "(", count: 100_000) + "1" + String(repeating: ")", count: 100_000),
    "x == " + Array(repeating: "1", count: 100_000).joined(separator: " + "),
    "x == " + Array(repeating: "2", count: 100_000).joined(separator: " ** "),
    "x == a" + String(repeating: "[0]", count: 100_000),
  ])
  func hundredThousandLevelsEndInACleanError(text: String) {
    // Some of these are over the 1 MiB size limit, which would refuse them before their depth is seen.
    #expect(reason(text, options: .init(maximumInputBytes: 4 << 20)) == .nestingTooDeep)
  }

  @Test func theLimitIsExact() throws {
    let limit = PredicateParser.Options.defaultMaximumDepth
    let nested = { (count: Int) in
      String(repeating: "(", count: count) + "a == 1" + String(repeating: ")", count: count)
    }
    #expect(reason(nested(limit)) == nil)
    #expect(reason(nested(limit + 1)) == .nestingTooDeep)
    #expect(reason(nested(limit + 1), options: .init(maximumDepth: limit + 1)) == nil)
  }

  @Test func deepestAcceptedTreeCanBeComparedHashedAndPrinted() throws {
    let limit = PredicateParser.Options.defaultMaximumDepth
    let text = String(repeating: "NOT ", count: limit - 3) + "a == -b"
    let tree = try PredicateParser.parse(text)
    let again = try PredicateParser.parse(PredicatePrinter.canonical(tree))
    #expect(tree == again)
    #expect(tree.hashValue == again.hashValue)
    #expect(PredicatePrinter.pretty(tree).hasPrefix("NOT NOT"))
  }

  /// Whether `node` is a chain of `link`s nested to the left: every right operand is a leaf.
  private func nestsToTheLeft(_ node: PredicateNode) -> Bool {
    var node = node
    while case .or(let left, let right) = node.kind {
      if case .or = right.kind { return false }
      node = left
    }
    return true
  }

  @Test func aChainNestsToTheLeftWhileItFitsAndIsBalancedBeyond() throws {
    let limit = PredicateParser.Options.defaultMaximumDepth
    let chain = { (count: Int) in (0..<count).map { "a == \($0)" }.joined(separator: " OR ") }
    // A chain of n comparisons nested to the left is n levels deep: n - 1 ORs over comparisons of height 2.
    let longestLeftNested = try PredicateParser.parse(chain(limit - 1))
    let leftNestedIsDeep = TreeHeight.height(of: longestLeftNested, exceeds: limit - 1)
    let leftNestedIsTooDeep = TreeHeight.height(of: longestLeftNested, exceeds: limit)
    #expect(nestsToTheLeft(longestLeftNested))
    #expect(leftNestedIsDeep && !leftNestedIsTooDeep)
    // One more clause used to be refused as nesting too deep; it is a balanced tree instead.
    let balanced = try PredicateParser.parse(chain(limit))
    let balancedIsDeep = TreeHeight.height(of: balanced, exceeds: 10)
    #expect(!nestsToTheLeft(balanced))
    #expect(!balancedIsDeep)
    let reparsed = try PredicateParser.parse(PredicatePrinter.canonical(balanced))
    let roundTrips = reparsed == balanced
    #expect(roundTrips)
    // The same clauses nested to the left, as code may build them: another grouping, the same meaning.
    let clauses = try (0..<limit).map { try PredicateParser.parse("a == \($0)") }
    let leftNested = clauses.dropFirst().reduce(clauses[0]) { PredicateNode(.or($0, $1)) }
    let sameTree = balanced == leftNested
    let sameMeaning = balanced.isEqualIgnoringGrouping(to: leftNested)
    #expect(!sameTree && sameMeaning)
    // 300 clauses, 3 KB, no parentheses: the example that used to be refused with advice about parentheses.
    #expect(reason(chain(300)) == nil)
  }

  /// With `OR` clauses before it, the chain starts after arguments that must not be consumed again.
  @Test(arguments: [0, 1, 3])
  func aBalancedChainTakesItsFormatArgumentsInOrder(clausesBefore: Int) throws {
    // The parser builds a chain as it reads it and reads a chain too long for that again from its start:
    // the format arguments the first reading consumed must be consumed again, in order.
    let count = PredicateParser.Options.defaultMaximumDepth + 1
    let before = String(repeating: "b == %d OR ", count: clausesBefore)
    let text = before + Array(repeating: "a == %d", count: count).joined(separator: " AND ")
    let tree = try PredicateParser.parse(text, arguments: (0..<(clausesBefore + count)).map { .integer($0) })
    let expectedText =
      (0..<clausesBefore).map { "b == \($0) OR " }.joined()
      + (clausesBefore..<(clausesBefore + count)).map { "a == \($0)" }.joined(separator: " AND ")
    #expect(tree == (try PredicateParser.parse(expectedText)))
  }

  @Test func aChainOfOperandsTooDeepThemselvesIsStillRefused() throws {
    let limit = PredicateParser.Options.defaultMaximumDepth
    // 253 NOTs over a comparison: each operand is 255 levels deep, so two of them fit and three do not,
    // however they are grouped.
    let operand = String(repeating: "NOT ", count: limit - 3) + "a == 1"
    #expect(reason([operand, operand].joined(separator: " OR ")) == nil)
    let error = try #require(throws: PredicateSyntaxError.self) {
      try PredicateParser.parse([operand, operand, operand].joined(separator: " OR "))
    }
    #expect(error.kind == .nestingTooDeep)
  }

  @Test(arguments: [" OR ", " && "])
  func aHundredThousandClauseChainParsesPrintsAndComparesWithoutDeepRecursion(separator: String) throws {
    let clauses = (0..<100_000).map { "a == \($0)" }
    let text = clauses.joined(separator: separator)
    // 1.3 MB: over the default size limit, which is not what this is about.
    let options = PredicateParser.Options(maximumInputBytes: 4 << 20)
    var tree: PredicateNode? = try PredicateParser.parse(text, options: options)
    let parsed = try #require(tree)
    // log2(100 000) < 17 levels of chain over comparisons of height 2.
    let isDeep = TreeHeight.height(of: parsed, exceeds: 19)
    #expect(!isDeep)
    let printed = PredicatePrinter(
      logicalOperators: separator.contains("|") || separator.contains("&") ? .symbols : .words
    )
    .string(for: parsed)
    let again = try PredicateParser.parse(printed, options: options)
    // Compared as Bools: a failure message would print both trees.
    let equal = again == parsed
    let sameHash = again.hashValue == parsed.hashValue
    #expect(equal && sameHash)
    #expect(PredicatePrinter.pretty(parsed).count > text.count)
    let sameMeaning = parsed.isEqualIgnoringGrouping(to: again)
    #expect(sameMeaning)
    // Releasing the tree is recursive too: a left-nested chain this long overflowed the stack.
    tree = nil
    #expect(tree == nil)
  }

  @Test func aLongChainIsWrittenAsJSON() throws {
    // Shorter than above: the JSON of 100 000 clauses is 60 MB; the depth, log2 of the length, is the point.
    let text = (0..<5_000).map { "a == \($0)" }.joined(separator: " OR ")
    let json = SyntaxTreeJSON.string(for: try PredicateParser.parse(text))
    #expect(json.hasPrefix("{"))
    #expect(json.contains(#""kind": "or""#))
  }

  @Test func groupingIsIgnoredOnlyForChainsOfOneConnective() throws {
    let leftNested = try PredicateParser.parse("(a == 1 OR b == 2) OR c == 3")
    let rightNested = try PredicateParser.parse("a == 1 OR (b == 2 OR c == 3)")
    #expect(leftNested != rightNested)
    #expect(leftNested.isEqualIgnoringGrouping(to: rightNested))
    #expect(
      try PredicateParser.parse("a == 1 AND (b == 2 AND c == 3)").isEqualIgnoringGrouping(
        to: PredicateParser.parse("a == 1 AND b == 2 AND c == 3")))
    // Mixing connectives or reordering operands changes the meaning.
    #expect(
      !(try PredicateParser.parse("(a == 1 OR b == 2) AND c == 3").isEqualIgnoringGrouping(
        to: PredicateParser.parse("a == 1 OR (b == 2 AND c == 3)"))))
    #expect(
      !(try PredicateParser.parse("a == 1 OR b == 2").isEqualIgnoringGrouping(
        to: PredicateParser.parse("b == 2 OR a == 1"))))
  }
}
