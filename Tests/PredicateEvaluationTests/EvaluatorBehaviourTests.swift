import Foundation
import PredicateSyntax
import Testing
import UniformTypes

@testable import PredicateEvaluation

/// An extension context: one array of attachments (each a list of registered types) per extension item.
func extensionContext(_ items: [[[String]]]) -> PredicateValue {
  let itemValues = items.map { attachments -> PredicateValue in
    let providers = attachments.map { identifiers -> PredicateValue in
      ["registeredTypeIdentifiers": .array(identifiers.map(PredicateValue.string))]
    }
    return ["attachments": .array(providers)]
  }
  return ["extensionItems": .array(itemValues)]
}

@Suite("Evaluator behaviour")
struct EvaluatorBehaviourTests {
  static let intuneText = "com.microsoft.intune.mam.public.text"
  static let intuneImage = "com.microsoft.intune.mam.public.image"
  /// Guide rule A: a single Intune-typed file.
  static let ruleA = activationRule(
    [intuneText, intuneImage], attachmentCount: .equalTo, 1, itemCount: .equalTo, 1)
  /// Guide rule B: the existing share extension before Intune types are added.
  static let ruleB = activationRule(["public.url", "public.plain-text", "public.image", "public.data"])
  /// Guide rule C: rule B with the Intune twins appended.
  static let ruleC = activationRule(
    ["public.url", "public.plain-text", "public.image", "public.data"]
      + ["public.url", "public.plain-text", "public.image", "public.data"].map {
        "com.microsoft.intune.mam." + $0
      })

  struct GuideVector: Sendable, CustomTestStringConvertible {
    var rule: String
    var items: [[[String]]]
    var expected: Bool
    var testDescription: String { "rule \(rule) on \(items)" }
  }

  @Test(
    "the Intune guide's evaluation vectors (§1.8)",
    arguments: [
      GuideVector(rule: "A", items: [[[intuneText]]], expected: true),
      GuideVector(rule: "A", items: [[["public.text"]]], expected: false),
      GuideVector(rule: "A", items: [[[intuneImage], [intuneImage]]], expected: false),
      GuideVector(rule: "A", items: [[[intuneImage]], [[intuneImage]]], expected: false),
      GuideVector(rule: "B", items: [[[intuneImage]]], expected: false),
      GuideVector(rule: "C", items: [[[intuneImage]]], expected: true),
      GuideVector(rule: "C", items: [[["public.url"]]], expected: true),
    ])
  func guideVectors(_ vector: GuideVector) throws {
    let rule = ["A": Self.ruleA, "B": Self.ruleB, "C": Self.ruleC][vector.rule]
    let predicate = try #require(rule)
    let object = extensionContext(vector.items)
    #expect(try PredicateEvaluator.evaluate(predicate, on: object) == vector.expected)
    #expect(try PredicateEvaluator.compile(predicate).evaluate(on: object) == vector.expected)
  }

  @Test("a trace shows which SUBQUERY element matched and which registered type conformed")
  func trace() throws {
    let rule = activationRule(["public.image"])
    let object = extensionContext([[["public.url"], ["public.heic", "public.jpeg"]]])
    let trace = try PredicateEvaluator.trace(rule, on: object)
    #expect(trace.result)
    #expect(trace.step == .predicate)
    // Root comparison → outer SUBQUERY element 0 → its predicate → two inner SUBQUERY elements.
    let outerElement = try #require(trace.children.first)
    guard case .subqueryElement(let variable, 0, _) = outerElement.step else {
      Issue.record("expected the outer SUBQUERY element, found \(outerElement.step)")
      return
    }
    #expect(variable == "extensionItem")
    let innerElements = try #require(outerElement.children.first?.children)
    #expect(innerElements.map(\.result) == [false, true])
    // The second attachment's ANY comparison looked at public.heic and found it an image.
    let anyClause = try #require(innerElements.last?.children.first)
    #expect(anyClause.children.first?.step == .quantifiedElement(index: 0, value: "public.heic"))
    #expect(anyClause.children.first?.result == true)
  }

  @Test("a trace leaves out what short-circuiting skipped")
  func traceShortCircuit() throws {
    let predicate = PredicateNode(.or(PredicateNode(.truePredicate), PredicateNode(.falsePredicate)))
    let trace = try PredicateEvaluator.trace(predicate, on: .null)
    #expect(trace.children.count == 1)
  }

  @Test("one compiled predicate evaluated from many tasks at once gives every task the same answers")
  func sharedAcrossThreads() async {
    let compiled = PredicateEvaluator.compile(Self.ruleB)
    let contexts = [
      extensionContext([[["public.jpeg"]]]), extensionContext([[["com.example.other"]]]),
      extensionContext([[]]), extensionContext([[["public.url"], ["public.plain-text"]]]),
    ]
    let expected = [true, false, false, true]
    let answers = await withTaskGroup(of: [Bool].self) { group in
      for _ in 0..<8 {
        group.addTask {
          var answers: [Bool] = []
          for _ in 0..<200 {
            for context in contexts { answers.append((try? compiled.evaluate(on: context)) ?? false) }
          }
          return answers
        }
      }
      var all: [[Bool]] = []
      for await answers in group { all.append(answers) }
      return all
    }
    let once = Array(repeating: expected, count: 200).flatMap { $0 }
    #expect(answers.count == 8)
    #expect(answers.allSatisfy { $0 == once })
  }

  @Test("MATCHES from many tasks shares the pattern cache safely")
  func concurrentMatches() async {
    let patterns = (0..<16).map { "item-\($0)[a-z]*" }
    let answers = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var matched = 0
          for round in 0..<100 {
            let pattern = patterns[(task + round) % patterns.count]
            let predicate = comparison(ExpressionNode(.evaluatedObject), .matches, string(pattern))
            let subject = PredicateValue.string(pattern.replacingOccurrences(of: "[a-z]*", with: "abc"))
            if (try? PredicateEvaluator.evaluate(
              predicate, on: subject, variables: [:], oracle: identityOracle)) == true
            {
              matched += 1
            }
          }
          return matched
        }
      }
      var total = 0
      for await matched in group { total += matched }
      return total
    }
    #expect(answers == 800)
  }

  @Test("errors carry the source range of the offending expression")
  func errorRanges() {
    let start = SourcePosition(line: 2, column: 5, offset: 12)
    let end = SourcePosition(line: 2, column: 8, offset: 15)
    let age = ExpressionNode(
      .keyPath(base: nil, components: [.key("age")]), range: SourceRange(start: start, end: end))
    let predicate = quantified(.any, age, .equalTo, integer(1))
    let result = evaluateBoth(predicate, on: ["age": 3])
    guard case .failure(let error) = result else {
      Issue.record("expected an error, got \(result)")
      return
    }
    #expect(error.kind == .typeMismatch)
    #expect(error.range == SourceRange(start: start, end: end))
    #expect(error.description.hasPrefix("2:5: error: "))
  }

  @Test("a caller's variable is visible and a SUBQUERY variable does not leak out")
  func variableScoping() {
    let inner = subquery(keyPath("nums"), "x", comparison(variable("x"), .greaterThan, integer(2)))
    let predicate = PredicateNode(
      .and(
        comparison(count(inner), .equalTo, integer(2)),
        comparison(variable("x"), .equalTo, string("outer"))))
    #expect(evaluateBoth(predicate, on: ["nums": [1, 2, 3, 4]], variables: ["x": "outer"]) == .success(true))
    let unbound = evaluateBoth(predicate, on: ["nums": [1, 2, 3, 4]])
    guard case .failure(let error) = unbound else {
      Issue.record("expected an unbound-variable error, got \(unbound)")
      return
    }
    #expect(error.kind == .unboundVariable)
  }

  @Test(
    "only calls of random, random:, randomn: and now make a predicate nondeterministic",
    arguments: [
      ("now() > CAST(0, 'NSDate')", true),
      ("NOW() > CAST(0, 'NSDate')", true),
      ("random() < 2", true),
      ("randomn(3) < 4", true),
      ("FUNCTION(1, 'now') > CAST(0, 'NSDate')", true),
      ("FUNCTION({1, 2}, 'random:') > 0", true),
      ("SUBQUERY(items, $i, $i.stamp < now()).@count > 0", true),
      ("known == 1", false),
      ("random == 1 AND nowhere == 2", false),
      ("name == 'now' OR name == \"random()\"", false),
      ("sum({1, 2}) == 3", false),
    ])
  func nondeterministicCalls(text: String, nondeterministic: Bool) throws {
    let predicate = try PredicateParser.parse(text)
    #expect(PredicateEvaluator.callsNondeterministicFunction(predicate) == nondeterministic)
  }
}
