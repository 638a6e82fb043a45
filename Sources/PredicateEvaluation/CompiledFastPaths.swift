import PredicateSyntax

// Fast paths of the compiled evaluator for the shapes the peer workload and real rules use most. Each one
// gives the answer, the error and the step count the general path gives (`CompiledFastPathTests` checks
// them against the tree-walker on generated input), and falls back to the general path for every value it
// does not handle.

/// The elements `ANY`/`ALL`/`NONE`/`SOME` goes through. For `ALL children.age < 10` over an array of
/// dictionaries, each child's `age` is looked up as the loop reaches it instead of being collected into an
/// array first: that array was most of the comparison's cost.
struct QuantifiedElements: Sequence {
  let base: [PredicateValue]
  /// When set, the elements are `base`'s dictionaries' entries for this key (null for null elements).
  let key: String?

  var count: Int { base.count }

  struct Iterator: IteratorProtocol {
    var base: IndexingIterator<[PredicateValue]>
    let key: String?

    mutating func next() -> PredicateValue? {
      guard let element = base.next() else { return nil }
      guard let key else { return element }
      if case .dictionary(let dictionary) = element { return dictionary[key] ?? .null }
      return .null
    }
  }

  func makeIterator() -> Iterator { Iterator(base: base.makeIterator(), key: key) }
}

typealias ElementsCode = @Sendable (Frame) throws(EvaluationError) -> QuantifiedElements

extension PredicateCompiler {
  /// The elements of a quantified comparison's left side. A key path of plain keys on the evaluated object
  /// (`children.age`) reads its last key element by element when the rest yields an array of dictionaries;
  /// anything else is evaluated whole, as `lhsCode` does.
  mutating func quantifiedElementsCode(
    _ lhs: ExpressionNode, _ lhsCode: @escaping ValueCode, _ quantifier: Quantifier, at range: SourceRange
  ) -> ElementsCode {
    let whole: ElementsCode = { frame throws(EvaluationError) in
      QuantifiedElements(
        base: try ValueSemantics.quantifiedElements(lhsCode(frame), quantifier, at: range), key: nil)
    }
    guard case .keyPath(base: nil, let components) = lhs.kind, components.count >= 2,
      case .key(let last) = components[components.count - 1],
      components.allSatisfy({ if case .key = $0 { true } else { false } })
    else { return whole }
    // The same steps up to the last key, with the same range for their errors.
    let prefix = ExpressionNode(
      .keyPath(base: nil, components: Array(components.dropLast())), range: lhs.range)
    let prefixCode = compile(prefix)
    let keyPathRange = lhs.range
    return { frame throws(EvaluationError) in
      let container = try prefixCode(frame)
      if case .array(let elements) = container, elements.allSatisfy(\.isDictionaryOrNull) {
        return QuantifiedElements(base: elements, key: last)
      }
      let value = try KeyValueCoding.value(forKey: last, of: container, at: keyPathRange)
      return QuantifiedElements(
        base: try ValueSemantics.quantifiedElements(value, quantifier, at: range), key: nil)
    }
  }

  /// `key.@count` on the evaluated object without the general key-path machinery; nil for other shapes.
  static func countOfKey(_ steps: [KeyValueCoding.Step], range: SourceRange) -> ValueCode? {
    guard steps.count == 2, case .key(let key) = steps[0],
      case .collectionOperator(.count, let rest) = steps[1], rest.isEmpty
    else { return nil }
    return { frame throws(EvaluationError) in
      let value: PredicateValue
      if case .dictionary(let dictionary) = frame.object {
        value = dictionary[key] ?? .null
      } else {
        value = try KeyValueCoding.value(forKey: key, of: frame.object, at: range)
      }
      switch value {
      case .array(let elements): return .integer(elements.count)
      case .dictionary(let dictionary): return .integer(dictionary.count)
      case .null: return .integer(0)
      default: return try KeyValueCoding.apply(.count, rest: [], to: value, at: range)
      }
    }
  }
}

extension PredicateValue {
  fileprivate var isDictionaryOrNull: Bool {
    switch self {
    case .dictionary, .null: true
    default: false
    }
  }
}
