import Testing

@testable import PredicateSyntax

@Suite struct DepthLimitTests {
  private func reason(_ text: String, options: PredicateParser.Options = .init())
    -> PredicateSyntaxErrorReason?
  {
    do {
      _ = try PredicateParser.parse(text, options: options)
      return nil
    } catch {
      return error.reason
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
    Array(repeating: "a == 1", count: 100_000).joined(separator: " OR "),
    Array(repeating: "a == 1", count: 100_000).joined(separator: " AND "),
  ])
  func hundredThousandLevelsEndInACleanError(text: String) {
    // Some of these are over the 1 MiB size limit, which would refuse them before their depth is seen.
    #expect(reason(text, options: .init(maximumInputBytes: 4 << 20)) == .nestingTooDeep)
  }

  @Test func theLimitIsExact() throws {
    let limit = PredicateParser.Options.defaultMaximumDepth
    let chain = { (count: Int) in Array(repeating: "a == 1", count: count).joined(separator: " OR ") }
    // A chain of n comparisons is n levels deep: n - 1 ORs over comparisons of height 2.
    #expect(reason(chain(limit - 1)) == nil)
    #expect(reason(chain(limit)) == .nestingTooDeep)
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
}
