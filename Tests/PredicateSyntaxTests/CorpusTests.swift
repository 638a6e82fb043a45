import Foundation
import PredicateSyntax
import Testing

@Suite struct CorpusTests {
  @Test func corpusHasFifteenPredicateRules() throws {
    let files = try FileManagerListing.predicateFiles(in: Fixtures.corpusDirectory)
    #expect(files == Fixtures.corpusRuleNames)
  }

  @Test(arguments: Fixtures.allRuleNames)
  func ruleParsesAndRoundTrips(name: String) throws {
    let text = try Fixtures.rule(named: name)
    let tree = try PredicateParser.parse(text)
    for printer in [
      PredicatePrinter(), PredicatePrinter(layout: .pretty), PredicatePrinter(logicalOperators: .words),
    ] {
      let printed = printer.string(for: tree)
      let reparsed = try PredicateParser.parse(printed)
      #expect(reparsed == tree, "\(name) through \(printer.layout)")
      #expect(printer.string(for: reparsed) == printed, "formatting \(name) is idempotent")
    }
  }

  @Test(arguments: Fixtures.allRuleNames)
  func everyNodeRangeLiesInsideItsParent(name: String) throws {
    let text = try Fixtures.rule(named: name)
    let tree = try PredicateParser.parse(text)
    let bytes = Array(text.utf8)
    var failures: [String] = []
    RangeChecker.check(tree, within: SourceRange(start: tree.range.start, end: tree.range.end), bytes: bytes)
    {
      failures.append($0)
    }
    #expect(failures.isEmpty, "\(failures)")
    #expect(
      String(decoding: bytes[tree.range.byteRange], as: UTF8.self).hasPrefix("SUBQUERY")
        || name.hasPrefix("34"))
  }
}

enum FileManagerListing {
  static func predicateFiles(in directory: URL) throws -> [String] {
    try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".predicate") }
      .sorted()
  }
}

/// Walks a tree checking that each node's range is non-empty and nested in its parent's.
enum RangeChecker {
  static func check(
    _ node: PredicateNode, within parent: SourceRange, bytes: [UInt8], report: (String) -> Void
  ) {
    verify(node.range, within: parent, what: "\(node.kind)", report: report)
    switch node.kind {
    case .truePredicate, .falsePredicate: break
    case .not(let operand): check(operand, within: node.range, bytes: bytes, report: report)
    case .and(let left, let right), .or(let left, let right):
      check(left, within: node.range, bytes: bytes, report: report)
      check(right, within: node.range, bytes: bytes, report: report)
    case .comparison(let comparison):
      check(comparison.lhs, within: node.range, bytes: bytes, report: report)
      check(comparison.rhs, within: node.range, bytes: bytes, report: report)
      verify(comparison.operatorRange, within: node.range, what: "operator", report: report)
    }
  }

  static func check(
    _ node: ExpressionNode, within parent: SourceRange, bytes: [UInt8], report: (String) -> Void
  ) {
    verify(node.range, within: parent, what: "\(node.kind)", report: report)
    switch node.kind {
    case .keyPath(let base?, _): check(base, within: node.range, bytes: bytes, report: report)
    case .subquery(let collection, _, let predicate):
      check(collection, within: node.range, bytes: bytes, report: report)
      check(predicate, within: node.range, bytes: bytes, report: report)
    default: break
    }
  }

  private static func verify(
    _ range: SourceRange, within parent: SourceRange, what: String, report: (String) -> Void
  ) {
    if range.start.offset >= range.end.offset { report("empty range for \(what)") }
    if range.start.offset < parent.start.offset || range.end.offset > parent.end.offset {
      report("\(what) at \(range) escapes its parent \(parent)")
    }
    if range.start.line < 1 || range.start.column < 1 { report("unset position for \(what)") }
  }
}
