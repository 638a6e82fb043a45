import PredicateSyntax

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Key-value-coding semantics over `PredicateValue`, as `valueForKeyPath:` has them for dictionaries and arrays.
enum KeyValueCoding {
  /// The collection operators Apple documents for key paths.
  enum CollectionOperator: String, Sendable, CaseIterable {
    case count, sum, avg, min, max
    case distinctUnionOfObjects, unionOfObjects
    case distinctUnionOfArrays, unionOfArrays, distinctUnionOfSets
  }

  /// One step of a key path, resolved once so the compiled form does no string work per evaluation.
  enum Step: Sendable {
    case key(String)
    /// The operator and the key path that follows it (its right-hand key path).
    case collectionOperator(CollectionOperator, rest: [String])
  }

  /// Splits key path components into steps; a collection operator takes the keys after it as its argument.
  static func steps(_ components: [KeyPathComponent], at range: SourceRange) throws(EvaluationError) -> [Step]
  {
    var steps: [Step] = []
    var index = 0
    while index < components.count {
      switch components[index] {
      case .key(let key):
        steps.append(.key(key))
        index += 1
      case .collectionOperator(let name):
        guard let op = CollectionOperator(rawValue: name) else {
          throw EvaluationError(.unsupported, "unknown collection operator '@\(name)'", at: range)
        }
        var rest: [String] = []
        for component in components[(index + 1)...] {
          guard case .key(let key) = component else {
            throw EvaluationError(
              .unsupported, "a collection operator cannot follow '@\(name)' in one key path", at: range)
          }
          rest.append(key)
        }
        steps.append(.collectionOperator(op, rest: rest))
        index = components.count
      }
    }
    return steps
  }

  static func apply(_ steps: [Step], to value: PredicateValue, at range: SourceRange) throws(EvaluationError)
    -> PredicateValue
  {
    var current = value
    for step in steps {
      switch step {
      case .key(let key): current = try Self.value(forKey: key, of: current, at: range)
      case .collectionOperator(let op, let rest):
        current = try apply(op, rest: rest, to: current, at: range)
      }
    }
    return current
  }

  /// The keys applied one after the other, as `valueForKeyPath:` applies a key path without operators.
  static func values(forKeys keys: [String], of value: PredicateValue, at range: SourceRange)
    throws(EvaluationError) -> PredicateValue
  {
    var current = value
    for key in keys { current = try self.value(forKey: key, of: current, at: range) }
    return current
  }

  /// `valueForKey:`: a dictionary's entry (null when missing); for an array, the array of each element's value.
  static func value(forKey key: String, of value: PredicateValue, at range: SourceRange)
    throws(EvaluationError) -> PredicateValue
  {
    switch value {
    case .dictionary(let dictionary): return dictionary[key] ?? .null
    case .null: return .null
    case .array(let elements):
      var mapped: [PredicateValue] = []
      mapped.reserveCapacity(elements.count)
      for element in elements { mapped.append(try self.value(forKey: key, of: element, at: range)) }
      return .array(mapped)
    default:
      if let answer = FoundationKeys.value(forKey: key, of: value) { return answer }
      let known = FoundationKeys.knownKeys(of: value)
      let hint = known.isEmpty ? "" : "; the keys it answers are " + known.joined(separator: ", ")
      throw EvaluationError(
        .typeMismatch, "\(value.typeNameWithArticle) has no key '\(key)'\(hint)", at: range)
    }
  }

  static func apply(
    _ op: CollectionOperator, rest: [String], to value: PredicateValue, at range: SourceRange
  ) throws(EvaluationError) -> PredicateValue {
    let elements: [PredicateValue]
    switch value {
    case .array(let array): elements = array
    case .dictionary(let dictionary): elements = dictionary.values
    case .null: return op == .count ? .integer(0) : .null
    default:
      throw EvaluationError(
        .typeMismatch, "@\(op.rawValue) needs a collection, found \(value.typeNameWithArticle)", at: range)
    }
    if op == .count { return .integer(elements.count) }
    switch op {
    case .count: return .integer(elements.count)
    case .sum, .avg, .min, .max:
      var operands: [PredicateValue] = []
      for element in elements {
        let operand = try values(forKeys: rest, of: element, at: range)
        if !operand.isNull { operands.append(operand) }
      }
      switch op {
      case .sum: return try Aggregates.sum(operands, at: range)
      case .avg: return operands.isEmpty ? .integer(0) : try Aggregates.average(operands, at: range)
      case .min: return try Aggregates.extreme(operands, wantMaximum: false, at: range)
      default: return try Aggregates.extreme(operands, wantMaximum: true, at: range)
      }
    case .unionOfObjects, .distinctUnionOfObjects:
      var results: [PredicateValue] = []
      for element in elements {
        let result = try values(forKeys: rest, of: element, at: range)
        if !result.isNull { results.append(result) }
      }
      return .array(op == .distinctUnionOfObjects ? Aggregates.distinct(results) : results)
    case .unionOfArrays, .distinctUnionOfArrays, .distinctUnionOfSets:
      var results: [PredicateValue] = []
      for element in elements {
        guard let inner = element.collectionElements else {
          if element.isNull { continue }
          throw EvaluationError(
            .typeMismatch,
            "@\(op.rawValue) needs a collection of collections, found \(element.typeNameWithArticle)",
            at: range)
        }
        for innerElement in inner {
          let result = try values(forKeys: rest, of: innerElement, at: range)
          if !result.isNull { results.append(result) }
        }
      }
      return .array(op == .unionOfArrays ? results : Aggregates.distinct(results))
    }
  }

  /// `collection[index]` with `[FIRST]`, `[LAST]`, `[SIZE]`, an integer for arrays or a key for dictionaries.
  enum Subscript: Sendable {
    case first, last, size
    case value(PredicateValue)
  }

  static func value(at index: Subscript, of value: PredicateValue, at range: SourceRange)
    throws(EvaluationError) -> PredicateValue
  {
    switch (value, index) {
    case (.null, _): return .null
    case (.array(let elements), .first): return elements.first ?? .null
    case (.array(let elements), .last): return elements.last ?? .null
    case (.array(let elements), .size): return .integer(elements.count)
    case (.dictionary(let dictionary), .size): return .integer(dictionary.count)
    case (.array(let elements), .value(let position)):
      guard let number = position.numericValue, number == number.rounded(), abs(number) < 1e15 else {
        throw EvaluationError(
          .typeMismatch, "an array index must be an integer, found \(position)", at: range)
      }
      let offset = Int(number)
      guard elements.indices.contains(offset) else {
        throw EvaluationError(
          .invalidArgument, "index \(offset) is beyond the bounds of an array of \(elements.count)", at: range
        )
      }
      return elements[offset]
    case (.dictionary(let dictionary), .value(.string(let key))): return dictionary[key] ?? .null
    case (.dictionary, .value(let key)):
      throw EvaluationError(.typeMismatch, "a dictionary key must be a string, found \(key)", at: range)
    case (.dictionary, .first), (.dictionary, .last):
      throw EvaluationError(.typeMismatch, "a dictionary has no first or last element", at: range)
    default:
      throw EvaluationError(.typeMismatch, "cannot index \(value.typeNameWithArticle)", at: range)
    }
  }
}
