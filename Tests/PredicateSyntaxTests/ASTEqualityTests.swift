import PredicateSyntax
import Testing

@Suite struct ASTEqualityTests {
  private func location(_ offset: Int) -> SourcePosition {
    SourcePosition(line: 1, column: offset + 1, offset: offset)
  }

  @Test func equalityIgnoresSourceRanges() {
    let here = SourceRange(start: location(0), end: location(4))
    let there = SourceRange(start: location(10), end: location(14))
    let a = ExpressionNode(.keyPath(base: nil, components: [.key("name")]), range: here)
    let b = ExpressionNode(.keyPath(base: nil, components: [.key("name")]), range: there)
    #expect(a == b)
    #expect(a.hashValue == b.hashValue)
    #expect(PredicateNode(.truePredicate, range: here) == PredicateNode(.truePredicate, range: there))
  }

  @Test func equalityComparesStructure() {
    let name = ExpressionNode(.keyPath(base: nil, components: [.key("name")]))
    let jane = ExpressionNode(.constant(.string("Jane")))
    let plain = Comparison(lhs: name, op: .equalTo, rhs: jane)
    var folded = plain
    folded.options = [.caseInsensitive]
    #expect(PredicateNode(.comparison(plain)) != PredicateNode(.comparison(folded)))
    #expect(
      PredicateNode(.and(.init(.truePredicate), .init(.falsePredicate)))
        != PredicateNode(.or(.init(.truePredicate), .init(.falsePredicate))))
  }

  @Test func unionCoversBothRanges() {
    let a = SourceRange(start: location(3), end: location(5))
    let b = SourceRange(start: location(1), end: location(4))
    #expect(a.union(b) == SourceRange(start: location(1), end: location(5)))
    #expect(a.union(b).byteRange == 1..<5)
  }
}
