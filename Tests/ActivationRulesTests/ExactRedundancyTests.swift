import PredicateSyntax
import Testing
import UniformTypes

@testable import ActivationRules

/// The linter's redundant-clause note decided with the exact engine: a clause is reported when the rule
/// without it accepts exactly the same contexts, which no syntactic rule sees for counts.
@Suite struct ExactRedundancyTests {
  static func someItem(_ item: String) -> String { "SUBQUERY(extensionItems, $e, \(item)).@count > 0" }
  static func attachments(_ test: String) -> String { "SUBQUERY($e.attachments, $a, \(test)).@count" }
  static func any(_ type: String) -> String { "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"\(type)\"" }

  static func redundant(_ rule: String) throws -> [String] {
    let tree = try PredicateParser.parse(rule)
    return try ExactRedundancy.redundantClauses(in: tree, registry: .system).map {
      PredicatePrinter().string(for: $0)
    }
  }

  /// `clause` as the printer writes it, to compare with reported clauses.
  static func printed(_ clause: String) throws -> String {
    PredicatePrinter().string(for: try PredicateParser.parse(clause))
  }

  struct Case: Sendable, CustomTestStringConvertible {
    var name: String
    var rule: String
    var redundant: [String]
    var testDescription: String { name }
  }

  static let cases: [Case] = [
    Case(
      name: "a count bound implied by the attachment bound",
      rule: someItem("$e.attachments.@count <= 10 AND \(attachments(any("public.image"))) <= 10"),
      redundant: ["SUBQUERY($e.attachments, $a, \(any("public.image"))).@count <= 10"]),
    Case(
      name: "a narrower type beside a wider one, either order",
      rule: someItem(attachments(any("public.data") + " OR " + any("public.image")) + " > 0"),
      redundant: [any("public.image")]),
    Case(
      name: "a narrower type before the wider one",
      rule: someItem(attachments(any("public.jpeg") + " OR " + any("public.image")) + " > 0"),
      redundant: [any("public.jpeg")]),
    Case(
      name: "a duplicate: only one of the two goes",
      rule: "extensionItems.@count >= 1 AND extensionItems.@count >= 1",
      redundant: ["extensionItems.@count >= 1"]),
    Case(
      name: "a context always holds an item",
      rule: "extensionItems.@count > 0 AND " + someItem("$e.attachments.@count > 0"),
      redundant: ["extensionItems.@count > 0"]),
    Case(
      name: "a disjunct the other implies goes whole (real rule 29's shape)",
      rule: someItem(
        "(\(attachments(any("public.jpeg"))) == $e.attachments.@count AND $e.attachments.@count == 1) OR "
          + "\(attachments(any("public.url"))) <= 2"),
      redundant: [
        "\(attachments(any("public.jpeg"))) == $e.attachments.@count AND $e.attachments.@count == 1"
      ]),
    Case(
      name: "nothing to drop",
      rule: someItem(attachments(any("public.image")) + " BETWEEN {1, 4} AND $e.attachments.@count <= 4"),
      redundant: []),
    Case(
      name: "an Intune twin is not redundant beside its type",
      rule: someItem(
        attachments(any("public.image") + " OR " + any("com.microsoft.intune.mam.public.image")) + " > 0"),
      redundant: []),
  ]

  @Test(arguments: cases)
  func redundantClausesAreFoundExactly(_ example: Case) throws {
    #expect(try Self.redundant(example.rule) == example.redundant.map(Self.printed))
  }

  @Test func removingEveryReportedClauseTogetherKeepsTheMeaning() throws {
    for example in Self.cases {
      var tree = try PredicateParser.parse(example.rule)
      let original = tree
      for clause in try ExactRedundancy.redundantClauses(in: tree, registry: .system) {
        tree = try #require(ExactRedundancy.removing(clause.range, from: tree))
      }
      #expect(try ExactRuleAnalysis.compare(original, tree).rulesAgree, "\(example.name)")
    }
  }

  @Test func ruleOutsideTheFragmentIsNotDecided() throws {
    #expect(throws: ExactRuleAnalysis.Undecidable.self) {
      try ExactRedundancy.redundantClauses(
        in: PredicateParser.parse(
          #"ANY extensionItems.attributedContentText MATCHES "a.*" OR TRUEPREDICATE"#),
        registry: .system)
    }
  }

  /// A crash hunt's `||` chain of 200 type tests took 15 s in `lint`: a comparison of the whole rule per
  /// clause. Past `maximumClauses` the rule keeps the syntactic check, which still finds the narrower type.
  @Test func aRuleOfManyClausesKeepsTheSyntacticCheck() throws {
    let tests = (0...ExactRedundancy.maximumClauses).map { Self.any("com.example.type\($0)") }
    let rule = Self.someItem(
      Self.attachments(
        (tests + [Self.any("public.image"), Self.any("public.data")])
          .joined(separator: " || ")) + " > 0")
    #expect(throws: ExactRuleAnalysis.Undecidable.self) {
      try ExactRedundancy.redundantClauses(in: PredicateParser.parse(rule), registry: .system)
    }
    let findings = RuleLinter().lint(RuleFile(path: "rule.predicate", predicate: rule))
    let finding = try #require(findings.first { $0.id == "RK005" })
    #expect(
      finding.message == "public.image conforms to public.data, which the same condition already accepts")
  }

  @Test func theLinterReportsACountClauseTheSyntacticCheckMissed() throws {
    let rule = Self.someItem(
      "$e.attachments.@count <= 10 AND \(Self.attachments(Self.any("public.image"))) <= 10")
    let findings = RuleLinter().lint(RuleFile(path: "rule.predicate", predicate: rule))
    let finding = try #require(findings.first { $0.id == "RK005" })
    #expect(finding.message.hasSuffix("(decided exactly)"))
    let clause = try #require(rule.range(of: Self.attachments(Self.any("public.image")) + " <= 10"))
    #expect(finding.column == rule.distance(from: rule.startIndex, to: clause.lowerBound) + 1)
  }
}
