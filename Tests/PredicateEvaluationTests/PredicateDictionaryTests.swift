import PredicateSyntax
import TestSupport
import Testing

@testable import PredicateEvaluation

/// `PredicateDictionary` behaves as the `[String: PredicateValue]` it replaced: the same look-ups (canonically
/// equivalent keys are one key), equality and hashing that ignore order, and both evaluators finding keys in
/// small dictionaries (searched entry by entry) and large ones (indexed).
@Suite("PredicateDictionary")
struct PredicateDictionaryTests {
  /// Sizes on both sides of `linearSearchLimit`.
  static let sizes = [
    0, 1, 7, PredicateDictionary.linearSearchLimit, PredicateDictionary.linearSearchLimit + 1, 200,
  ]

  /// Keys of one length that differ in one byte, in the first or last eight, or that contain others.
  static func keys(_ count: Int) -> [String] {
    (0..<count).map { index in
      switch index % 4 {
      case 0: "key\(index)"
      case 1: "NSExtensionActivationSupports\(index)WithMaxCount"
      case 2: String(repeating: "a", count: index)
      default: "k\u{e9}\(index)"
      }
    }
  }

  static func dictionary(_ keys: [String]) -> PredicateDictionary {
    var dictionary = PredicateDictionary()
    for (index, key) in keys.enumerated() { dictionary[key] = .integer(index) }
    return dictionary
  }

  @Test("every key is found, in insertion order; a missing key is not", arguments: sizes)
  func lookUp(size: Int) {
    let keys = Self.keys(size)
    let dictionary = Self.dictionary(keys)
    #expect(dictionary.count == size)
    #expect(dictionary.keys == keys)
    #expect(dictionary.values == (0..<size).map { .integer($0) })
    for (index, key) in keys.enumerated() {
      #expect(dictionary[key] == .integer(index))
      #expect(dictionary.value(for: PredicateDictionary.HashedKey(key)) == .integer(index))
      #expect(dictionary.index(forKey: key) == index)
      #expect(dictionary[index] == (key, .integer(index)))
    }
    for missing in ["", "key", "aa\u{0}", "NSExtensionActivationSupportsWithMaxCount", "k\u{e9}"] {
      #expect(dictionary[missing] == nil || keys.contains(missing))
    }
  }

  @Test("setting replaces in place, nil removes, and look-ups hold as the size crosses the limit")
  func mutation() {
    let limit = PredicateDictionary.linearSearchLimit
    var keys = Self.keys(limit + 3)
    var dictionary = Self.dictionary(keys)
    dictionary[keys[5]] = "replaced"
    #expect(dictionary.count == limit + 3)
    #expect(dictionary[5].value == "replaced")
    while let key = keys.first {
      dictionary[key] = nil
      keys.removeFirst()
      #expect(dictionary.keys == keys)
      for key in keys { #expect(dictionary.index(forKey: key) == keys.firstIndex(of: key)) }
      #expect(dictionary[key] == nil)
    }
    #expect(dictionary.isEmpty)
    dictionary["absent"] = nil
    #expect(dictionary.isEmpty)
  }

  @Test(
    "canonically equivalent keys are one key, as in a Swift dictionary",
    arguments: [("\u{e9}", "e\u{301}"), ("\u{212a}", "K"), ("caf\u{e9}", "cafe\u{301}")])
  func canonicalEquivalence(written: String, lookedUp: String) {
    for filler in [0, PredicateDictionary.linearSearchLimit] {
      var dictionary = Self.dictionary(Self.keys(filler).map { "x" + $0 })
      dictionary[written] = 1
      #expect(dictionary[lookedUp] == 1)
      #expect(dictionary.value(for: PredicateDictionary.HashedKey(lookedUp)) == 1)
      dictionary[lookedUp] = 2
      #expect(dictionary.count == filler + 1)
      #expect(dictionary[written] == 2)
      #expect([String: PredicateValue](dictionary)[lookedUp] == 2)
    }
  }

  @Test("equality and hashing ignore the order, as a Swift dictionary's do", arguments: sizes)
  func equality(size: Int) {
    let keys = Self.keys(size)
    let forward = Self.dictionary(keys)
    var backward = PredicateDictionary()
    for (index, key) in keys.enumerated().reversed() { backward[key] = .integer(index) }
    #expect(forward == backward)
    #expect(forward.hashValue == backward.hashValue)
    #expect(PredicateValue.dictionary(forward) == .dictionary(backward))
    if let key = keys.first {
      var changed = backward
      changed[key] = .double(0)
      #expect(forward != changed)
      changed[key] = nil
      #expect(forward != changed)
      changed["another key"] = .integer(0)
      #expect(forward != changed)
    }
  }

  @Test("equality agrees with [String: PredicateValue]'s on random pairs")
  func equalityAgreesWithDictionary() {
    var generator = SeededGenerator(seed: 18)
    // Few keys and values, so that about one pair in thirty is equal.
    let keys = ["a", "b", "\u{e9}", "e\u{301}"]
    let values: [PredicateValue] = [.integer(1), .double(1), ["y": 1]]
    func random() -> [String: PredicateValue] {
      var members: [String: PredicateValue] = [:]
      for key in keys where Bool.random(using: &generator) {
        members[key] = values[Int.random(in: 0..<values.count, using: &generator)]
      }
      return members
    }
    var equalPairs = 0
    for _ in 0..<2_000 {
      let (left, right) = (random(), random())
      #expect((PredicateDictionary(left) == PredicateDictionary(right)) == (left == right))
      if left == right {
        equalPairs += 1
        #expect(PredicateDictionary(left).hashValue == PredicateDictionary(right).hashValue)
      }
    }
    #expect(equalPairs > 20)
  }

  @Test("conversions to and from [String: PredicateValue]; literals keep their order and last value")
  func conversions() {
    let members: [String: PredicateValue] = ["b": 1, "a": "x", "c": [true], "d": ["e": nil]]
    let dictionary = PredicateDictionary(members)
    #expect(dictionary.keys == ["a", "b", "c", "d"])
    #expect([String: PredicateValue](dictionary) == members)
    let literal: PredicateDictionary = ["z": 1, "y": 2, "z": 3]
    #expect(literal.keys == ["z", "y"])
    #expect(literal["z"] == 3)
    let value: PredicateValue = ["z": 1, "y": 2, "z": 3]
    #expect(value == .dictionary(literal))
  }

  @Test("printing sorts the keys, JSON keeps the text's order and a repeated key's last value")
  func printingAndJSON() throws {
    let value: PredicateValue = ["b": 1, "a": "x", "c": [:]]
    #expect(value.description == #"{"a": "x", "b": 1, "c": {}}"#)
    guard case .dictionary(let dictionary) = value else { return }
    #expect(dictionary.description == value.description)
    let parsed = try PredicateValue(json: #"{"b": 1, "a": null, "b": 3}"#)
    guard case .dictionary(let members) = parsed else {
      Issue.record("expected a dictionary, got \(parsed)")
      return
    }
    #expect(members.keys == ["b", "a"])
    #expect(members["b"] == 3)
    #expect(members["a"] == .null)
  }

  @Test(
    "both evaluators find keys in small and large dictionaries",
    arguments: [1, PredicateDictionary.linearSearchLimit, PredicateDictionary.linearSearchLimit + 1, 200])
  func evaluation(size: Int) throws {
    let keys = (0..<size).map { "k\($0)" }
    var object = PredicateDictionary()
    for (index, key) in keys.enumerated() {
      object[key] = .dictionary(["inner": .integer(index), "list": [["n": .integer(index)]]])
    }
    for (index, key) in keys.enumerated() where index % 7 == 0 || index == size - 1 {
      for text in [
        "\(key).inner == \(index)", "ANY \(key).list.n == \(index)", "\(key).list.@count == 1",
        "\(key) != nil", "missing == nil",
      ] {
        let predicate = try PredicateParser.parse(text)
        #expect(try PredicateEvaluator.evaluate(predicate, on: .dictionary(object)), "\(text)")
        #expect(try PredicateEvaluator.compile(predicate).evaluate(on: .dictionary(object)), "\(text)")
      }
    }
  }

  @Test("a compiled predicate finds its keys when objects order them differently, on many threads at once")
  func keysMovingBetweenObjects() async throws {
    let objects: [(PredicateValue, Bool)] = [
      (["a": 1, "b": 2], true), (["b": 2, "a": 1], true), (["b": 2], true), ([:], false),
      (["x": 0, "y": 0, "b": 3, "a": 1], false), (["b\u{e9}": 2, "b": 2], true),
    ]
    let compiled = PredicateEvaluator.compile(try PredicateParser.parse("b == 2"))
    let key = PredicateDictionary.HashedKey("b")
    for _ in 0..<3 {
      for (object, expected) in objects {
        #expect(try compiled.evaluate(on: object) == expected)
        guard case .dictionary(let dictionary) = object else { continue }
        #expect(dictionary.value(for: key) == dictionary["b"])
      }
    }
    let mismatches = await withTaskGroup(of: Int.self) { group in
      for task in 0..<8 {
        group.addTask {
          var mismatches = 0
          for round in 0..<2_000 {
            let (object, expected) = objects[(task + round) % objects.count]
            if (try? compiled.evaluate(on: object)) != expected { mismatches += 1 }
          }
          return mismatches
        }
      }
      return await group.reduce(0, +)
    }
    #expect(mismatches == 0)
  }

  /// Code written for the `[String: PredicateValue]` payload still builds a dictionary value: the same
  /// value as the dictionary converted, its entries in sorted key order.
  @Test func dictionaryValuesFromSwiftDictionaries() {
    let entries: [String: PredicateValue] = ["b": .integer(2), "a": .string("x"), "c": .null]
    let value = PredicateValue.dictionary(entries)
    #expect(value == .dictionary(PredicateDictionary(entries)))
    guard case .dictionary(let dictionary) = value else {
      Issue.record("not a dictionary: \(value)")
      return
    }
    #expect(dictionary.map(\.key) == ["a", "b", "c"])
    #expect(Dictionary(dictionary) == entries)
  }
}
