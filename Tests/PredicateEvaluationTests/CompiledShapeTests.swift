import PredicateSyntax
import Testing
import UniformTypes

@testable import PredicateEvaluation

/// The shapes issue 18, part 11 gave fast paths of their own (literal comparisons folded, `10 < age`,
/// `"swift" IN tags`, `name IN {…}`, `tags CONTAINS "rust"`, `SELF.key`, `== nil`, `== YES`, literal arithmetic
/// operands, quantifiers over one or two keys) give what the tree-walker gives: the same answer, or the same
/// error at the same range, and the same step at which a small step limit stops. The objects make each fast
/// path fall back: missing keys, null, values of other types, NaN, non-ASCII text, nested dictionaries and an
/// evaluated object that is not a dictionary.
@Suite("Compiled shapes agree with the tree-walker")
struct CompiledShapeTests {
  static let objects: [PredicateValue] = {
    let decomposed = "cafe\u{301}"
    let tagLists: [PredicateValue] = [
      ["swift", "objc", "rust"], [], ["Swift", "RUST", .integer(1), .null], ["café", .string(decomposed)],
      [["swift": 1], ["swift"]], .null, "swift and rust", .integer(3), ["x": "swift"],
    ]
    let ages: [PredicateValue] = [
      .integer(5), .integer(10), .double(2.5), .double(.nan), .double(-.infinity), "5", .null, .bool(true),
      .integer(Int.max),
    ]
    let children: [PredicateValue] = [
      [["age": 5], ["age": 9]], [["age": 5], .null, [:]], [["age": 5], .integer(3)], [], .null,
      ["age": 5], [["age": "old"], ["age": .double(.nan)]], [[["age": 5]]],
    ]
    var objects: [PredicateValue] = [.null, .integer(5), "swift", ["swift", "rust"]]
    for index in 0..<max(tagLists.count, ages.count, children.count) {
      var object: PredicateDictionary = [:]
      object["age"] = ages[index % ages.count]
      object["tags"] = tagLists[index % tagLists.count]
      object["children"] = children[index % children.count]
      if index % 3 != 0 {
        object["name"] = ["abc", "Ben", "Straße", .string(decomposed), .integer(1)][index % 5]
      }
      if index % 2 == 0 { object["nickname"] = index % 4 == 0 ? .null : "Benny" }
      if index % 4 != 1 { object["active"] = [.bool(true), .bool(false), .integer(1)][index % 3] }
      object["a"] = [["b": 1], ["b": ["c": 1]], [["b": 1], ["b": 2]], .null, "b"][index % 5]
      objects.append(.dictionary(object))
    }
    return objects
  }()

  static let predicates = [
    // Literals on both sides, folded when they cannot fail.
    "2 ** 3 == 8", "2 + 2 > 5", "-(2) == -2", "1 / 0 == 1", "\"a\" < 1", "{1, 2} == {1, 2}",
    "2 BETWEEN {1, 3}",
    "\"bc\" IN \"abc\"", "\"abc\" BEGINSWITH[c] \"AB\"", "1 IN {1, 2}",
    // A literal on the left of a key.
    "10 < age", "10 >= age", "2.5 == age", "-1 != age", "1e1 <= SELF.age", "5 > name", "10 < SELF",
    "\"swift\" IN tags", "\"swift\" IN SELF.tags", "\"swift\" IN[c] tags", "\"café\" IN tags",
    "\"x\" IN tags",
    "1 IN tags",
    // Searches against string literals.
    "name IN {\"abc\", \"Ben\"}", "name IN[c] {\"ABC\"}", "name IN {\"abc\", 1}", "name IN {\"café\"}",
    "age IN {1, 5}",
    "tags CONTAINS \"rust\"", "tags CONTAINS[c] \"RUST\"", "tags CONTAINS[d] \"cafe\"",
    "tags CONTAINS \"café\"",
    "name CONTAINS \"b\"", "tags CONTAINS \"\"",
    // Key paths written with SELF, and nested dictionaries.
    "SELF.age > 3", "SELF.a.b == 1", "a.b == 1", "a.b.c == 1", "SELF.tags.@count > 1", "tags.@count == 3",
    "SELF == nil",
    // Null and Boolean literals.
    "nickname == nil", "nickname != nil", "missing == nil", "active == YES", "active != NO", "age == YES",
    "active == nil",
    // Arithmetic with a literal operand.
    "age + 1 == 6", "age * 2 > 3", "age / 0 == 1", "age - 1 < 2.5", "1 + age == 6", "age ** 2 >= 25",
    // Quantifiers over one or two keys.
    "ANY tags == \"swift\"", "ALL tags BEGINSWITH \"s\"", "NONE tags CONTAINS[c] \"RU\"", "SOME tags > 0",
    "ANY children.age > 8", "ALL children.age < 10", "NONE children.age == 5", "ALL SELF.children.age > 6",
    "ANY a.b == 1", "ANY children.age == nil", "ALL children.age != YES", "ANY tags LIKE \"s*\"",
  ]

  @Test("the shape agrees on every object and step limit", arguments: predicates)
  func shape(_ text: String) throws {
    let oracle = TypeOracle(TypeRegistry.system)
    let predicate = try PredicateParser.parse(text)
    let compiled = CompiledPredicate(predicate, oracle: oracle)
    var agreement = EvaluatorAgreement()
    for object in Self.objects {
      for limit in [0, 1, 2, PredicateEvaluator.Options.defaultMaximumSteps] {
        agreement.compare(
          predicate, compiled, on: object, oracle: oracle, options: .init(maximumSteps: limit))
      }
    }
    #expect(agreement.disagreements == 0)
  }

  @Test("the literal comparisons that cannot fail are decided once, when compiled")
  func folded() throws {
    let oracle = TypeOracle(TypeRegistry.system)
    for (text, answer) in [("2 ** 3 == 8", true), ("2 + 2 > 5", false), ("-(2) == -2", true)] {
      let compiled = CompiledPredicate(try PredicateParser.parse(text), oracle: oracle)
      // An object no key path could read: the answer cannot depend on it.
      #expect(try compiled.evaluate(on: .integer(0)) == answer)
    }
    let failing = CompiledPredicate(try PredicateParser.parse("1 / 0 == 1"), oracle: oracle)
    #expect(throws: EvaluationError.self) { try failing.evaluate(on: .null) }
  }
}
