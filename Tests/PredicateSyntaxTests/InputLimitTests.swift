import PredicateSyntax
import Testing

/// The size and SUBQUERY-nesting limits of `PredicateParser.Options`: accepted at the limit, refused one
/// past it with an error naming the limit. (The depth limit's own tests are `DepthLimitTests`.)
@Suite struct InputLimitTests {
  private func parse(_ bytes: [UInt8], options: PredicateParser.Options = .init()) -> PredicateSyntaxError? {
    do {
      _ = try PredicateParser.parse(utf8: bytes, options: options)
      return nil
    } catch {
      return error
    }
  }

  /// `a == 1` padded with spaces to exactly `count` bytes.
  private func padded(_ count: Int) -> [UInt8] {
    let text = Array("a == 1".utf8)
    return text + [UInt8](repeating: UInt8(ascii: " "), count: count - text.count)
  }

  @Test func inputSizeLimitIsExact() throws {
    let limit = PredicateParser.Options.defaultMaximumInputBytes
    #expect(limit == 1 << 20)
    #expect(parse(padded(limit)) == nil)
    let error = try #require(parse(padded(limit + 1)))
    #expect(error.kind == .inputTooLarge)
    #expect(error.diagnostic.message.contains("\(limit + 1) bytes, more than the limit of \(limit) bytes"))
    #expect(error.diagnostic.message.contains("PredicateParser.Options.maximumInputBytes"))
    // It points at the first byte past the limit.
    #expect(error.diagnostic.range.start == SourcePosition(line: 1, column: limit + 1, offset: limit))
  }

  @Test func inputSizeLimitCountsLinesAndScalars() throws {
    let options = PredicateParser.Options(maximumInputBytes: 12)
    let error = try #require(parse(Array("a == 1\nb == \"é\"".utf8), options: options))
    #expect(error.kind == .inputTooLarge)
    // Byte 12 is `é`'s second byte… the position is that of the scalar holding it: line 2, column 7.
    #expect(error.diagnostic.range.start.line == 2)
    #expect(error.diagnostic.range.start.offset == 12)
  }

  @Test func theLimitIsAnOption() {
    let text = padded(64)
    #expect(parse(text, options: .init(maximumInputBytes: 64)) == nil)
    #expect(parse(text, options: .init(maximumInputBytes: 63))?.kind == .inputTooLarge)
  }

  /// `levels` SUBQUERYs, each inside the predicate of the one before.
  private func nestedSubqueries(_ levels: Int) -> [UInt8] {
    var text = "TRUEPREDICATE"
    for level in 0..<levels { text = "SUBQUERY(items, $v\(level), \(text)).@count > 0" }
    return Array(text.utf8)
  }

  @Test func subqueryNestingLimitIsExact() throws {
    let limit = PredicateParser.Options.defaultMaximumSubqueryNesting
    #expect(limit == 8)
    #expect(parse(nestedSubqueries(limit)) == nil)
    let error = try #require(parse(nestedSubqueries(limit + 1)))
    #expect(error.kind == .subqueryNestingTooDeep)
    #expect(error.diagnostic.message.hasPrefix("SUBQUERY nested deeper than the limit of 8 levels"))
    #expect(error.diagnostic.message.contains("PredicateParser.Options.maximumSubqueryNesting"))
    // The innermost SUBQUERY keyword, the ninth level: after eight `SUBQUERY(items, $vN, ` openings.
    let text = String(decoding: nestedSubqueries(limit + 1), as: UTF8.self)
    let ninth = text.ranges(of: "SUBQUERY").dropFirst(limit).first
    let offset = try #require(ninth.map { text.utf8.distance(from: text.startIndex, to: $0.lowerBound) })
    #expect(error.diagnostic.range.start.offset == offset)
  }

  @Test func subqueryInTheCollectionCountsToo() throws {
    var text = "items"
    for level in 0..<9 { text = "SUBQUERY(\(text), $v\(level), TRUEPREDICATE)" }
    #expect(parse(Array((text + ".@count > 0").utf8))?.kind == .subqueryNestingTooDeep)
  }

  @Test func sideBySideSubqueriesAreNotNested() {
    let one = "SUBQUERY(items, $x, TRUEPREDICATE).@count > 0"
    let many = Array(repeating: one, count: 20).joined(separator: " AND ")
    #expect(parse(Array(many.utf8)) == nil)
  }

  @Test func depthErrorSaysHowToFix() throws {
    let text = String(repeating: "(", count: 257) + "a == 1" + String(repeating: ")", count: 257)
    let error = try #require(parse(Array(text.utf8)))
    #expect(error.kind == .nestingTooDeep)
    #expect(error.diagnostic.message.contains("PredicateParser.Options.maximumDepth"))
    #expect(error.diagnostic.message.hasSuffix("remove redundant parentheses or split the rule"))
  }

  @Test func aLongLineIsShownAsAWindowAroundTheColumn() throws {
    let text = String(repeating: "(", count: 257) + "a == 1" + String(repeating: ")", count: 257)
    let error = try #require(parse(Array(text.utf8)))
    let lines = error.diagnostic.rendered(source: text, fileName: "deep.predicate").split(separator: "\n")
    #expect(lines.count == 3)
    #expect(lines[1].hasPrefix("…(") && lines[1].hasSuffix(")…"))
    #expect(lines[1].unicodeScalars.count == 122)
    // The caret is under the 257th `(`, which the window shows at column 62.
    #expect(lines[2] == String(repeating: " ", count: 61) + "^")
    #expect(Array(lines[1].unicodeScalars)[61] == "(")
  }
}
