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
  let key: PredicateDictionary.HashedKey?

  var count: Int { base.count }

  struct Iterator: IteratorProtocol {
    let base: [PredicateValue]
    let key: PredicateDictionary.HashedKey?
    var index = 0

    mutating func next() -> PredicateValue? {
      guard index < base.count else { return nil }
      defer { index += 1 }
      guard let key else { return base[index] }
      // Switching on the element in place reads the dictionary without copying the element first.
      switch base[index] {
      case .dictionary(let dictionary): return dictionary.value(for: key) ?? .null
      default: return .null
      }
    }
  }

  func makeIterator() -> Iterator { Iterator(base: base, key: key) }
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
    let hashed = PredicateDictionary.HashedKey(last)
    return { frame throws(EvaluationError) in
      let container = try prefixCode(frame)
      if case .array(let elements) = container, elements.allSatisfy({ $0.isDictionaryOrNull }) {
        return QuantifiedElements(base: elements, key: hashed)
      }
      let value = try KeyValueCoding.value(forKey: last, of: container, at: keyPathRange)
      return QuantifiedElements(
        base: try ValueSemantics.quantifiedElements(value, quantifier, at: range), key: nil)
    }
  }

  /// `ANY tags BEGINSWITH "ru"`, `ALL children.age < 10`: a quantified test whose collection is an array
  /// under one key of the evaluated object, or a key of each dictionary in such an array. The array is
  /// read where it is, in the object, instead of through a key-path closure, an element sequence and its
  /// iterator, each of which copied it. Any other object or collection takes `otherwise`, before any step.
  ///
  /// `keys` are the collection's one or two keys (`objectKeys`). The closure is not returned as an optional:
  /// an optional closure is stored in its most general form, and calling it went through two thunks.
  static func objectQuantifierCode(
    _ collection: ExpressionNode, keys: [String], _ quantifier: Quantifier, _ test: @escaping ElementTest,
    numeric: NumericLiteralTest?, otherwise: @escaping TestCode
  ) -> TestCode {
    let arrayKey = PredicateDictionary.HashedKey(keys[0])
    let wantsAll = quantifier == .all
    let resultWhenExhausted = quantifier == .all || quantifier == .none
    // Two closures rather than one with an optional element key: binding the key in the loop retained it
    // for every element.
    guard keys.count == 2 else {
      return { frame throws(EvaluationError) in
        guard case .array(let elements)? = frame.object.member(arrayKey) else { return try otherwise(frame) }
        for element in elements {
          try frame.budget.pointee.takeStep(
            .quantifier(quantifier), over: collection, elements: elements.count)
          let holds: Bool
          if let numeric, let answer = numeric(element) { holds = answer } else { holds = try test(element) }
          if holds != wantsAll { return quantifier == .none ? false : holds }
        }
        return resultWhenExhausted
      }
    }
    let elementKey = PredicateDictionary.HashedKey(keys[1])
    return { frame throws(EvaluationError) in
      guard case .array(let elements)? = frame.object.member(arrayKey),
        elements.allSatisfy({ $0.isDictionaryOrNull })
      else { return try otherwise(frame) }
      for element in elements {
        try frame.budget.pointee.takeStep(.quantifier(quantifier), over: collection, elements: elements.count)
        let value = element.member(elementKey) ?? .null
        let holds: Bool
        if let numeric, let answer = numeric(value) { holds = answer } else { holds = try test(value) }
        if holds != wantsAll { return quantifier == .none ? false : holds }
      }
      return resultWhenExhausted
    }
  }

  /// The keys when `expression` is one or two plain keys of the evaluated object (`tags`,
  /// `children.age`); nil otherwise.
  static func objectKeys(_ expression: ExpressionNode) -> [String]? {
    guard let components = objectComponents(expression), (1...2).contains(components.count) else {
      return nil
    }
    var keys: [String] = []
    for component in components {
      guard case .key(let key) = component else { return nil }
      keys.append(key)
    }
    return keys
  }

  /// The key when `expression` is one plain key of the evaluated object (`age`); nil otherwise.
  static func objectKey(_ expression: ExpressionNode) -> String? {
    guard let components = objectComponents(expression), components.count == 1,
      case .key(let key) = components[0]
    else { return nil }
    return key
  }

  /// The components of a key path on the evaluated object, written with `SELF.` or without.
  static func objectComponents(_ expression: ExpressionNode) -> [KeyPathComponent]? {
    guard case .keyPath(let base, let components) = expression.kind else { return nil }
    if let base, !base.isEvaluatedObject { return nil }
    return components
  }

  /// The key of `key.@count` on the evaluated object; nil for other steps.
  static func countedKey(_ steps: [KeyValueCoding.Step]) -> String? {
    guard steps.count == 2, case .key(let key) = steps[0],
      case .collectionOperator(.count, let rest) = steps[1], rest.isEmpty
    else { return nil }
    return key
  }

  /// `key.@count` on the evaluated object without the general key-path machinery. Not an optional
  /// closure: calling one went through two thunks.
  static func countOfKey(_ key: String, range: SourceRange) -> ValueCode {
    let hashed = PredicateDictionary.HashedKey(key)
    return { frame throws(EvaluationError) in
      let value: PredicateValue
      if let member = frame.object.member(hashed) {
        value = member
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

extension ExpressionNode {
  /// Whether this is `SELF`.
  var isEvaluatedObject: Bool {
    if case .evaluatedObject = kind { return true }
    return false
  }
}

extension PredicateValue {
  /// The value for `key` when this is a dictionary (null when it has no such key), nil for any other value.
  /// A method, so that the dictionary is read where it is: binding it out of a value in a closure copied it.
  func member(_ key: PredicateDictionary.HashedKey) -> PredicateValue? {
    guard case .dictionary(let dictionary) = self else { return nil }
    return dictionary.value(for: key) ?? .null
  }

  fileprivate var isDictionaryOrNull: Bool {
    switch self {
    case .dictionary, .null: true
    default: false
    }
  }
}

/// `==`, `!=`, `BEGINSWITH`, `ENDSWITH` or `CONTAINS` against a literal whose characters are single bytes
/// (ASCII other than CR), answered on the subject's UTF-8 bytes with ASCII letters folded as they are read.
/// Over text of such characters, `[c]` folding lowers ASCII letters, `[d]` changes nothing and characters
/// are bytes, so this is the general answer without a folded copy of the text or a Unicode comparison.
/// Text with any other character gets `nil`: folding it may change its length (ß → ss), so the general
/// path answers.
struct SingleByteLiteralTest: Sendable {
  private enum Kind {
    case equal, prefix, suffix, contains
  }

  private let kind: Kind
  private let negated: Bool
  /// The folded literal's bytes.
  private let literal: [UInt8]
  private let foldsCase: Bool

  /// The test for `op` against `folded` (the literal already folded by `strings`); nil when the literal has
  /// other characters, the comparison is `[n]`, or the operator is not one of the five.
  init?(_ op: ComparisonOperator, folded: String, _ strings: StringComparison) {
    guard !strings.comparesScalars, StringComparison.isSingleByteCharacters(folded) else { return nil }
    switch op {
    case .equalTo: (kind, negated) = (.equal, false)
    case .notEqualTo: (kind, negated) = (.equal, true)
    case .beginsWith: (kind, negated) = (.prefix, false)
    case .endsWith: (kind, negated) = (.suffix, false)
    case .contains: (kind, negated) = (.contains, false)
    default: return nil
    }
    literal = Array(folded.utf8)
    foldsCase = strings.foldsCase
  }

  func callAsFunction(_ text: String) -> Bool? {
    var text = text
    return text.withUTF8 { bytes -> Bool? in
      guard StringComparison.isSingleByteCharacters(bytes) else { return nil }
      return literal.withUnsafeBufferPointer { literal in
        let answer: Bool
        switch kind {
        case .equal: answer = bytes.count == literal.count && matches(bytes, at: 0, literal)
        // An empty literal is never found, as NSString's hasPrefix:, hasSuffix: and rangeOfString: say.
        case .prefix:
          answer = !literal.isEmpty && bytes.count >= literal.count && matches(bytes, at: 0, literal)
        case .suffix:
          answer =
            !literal.isEmpty && bytes.count >= literal.count
            && matches(bytes, at: bytes.count - literal.count, literal)
        case .contains:
          answer =
            !literal.isEmpty && bytes.count >= literal.count
            && (0...(bytes.count - literal.count)).contains { matches(bytes, at: $0, literal) }
        }
        return answer != negated
      }
    }
  }

  /// Whether `literal` is in `bytes` at `offset` once `bytes` is folded; the caller checked the lengths.
  private func matches(
    _ bytes: UnsafeBufferPointer<UInt8>, at offset: Int, _ literal: UnsafeBufferPointer<UInt8>
  )
    -> Bool
  {
    for index in 0..<literal.count {
      var byte = bytes[offset + index]
      if foldsCase, byte &- UInt8(ascii: "A") < 26 { byte |= 0x20 }
      if byte != literal[index] { return false }
    }
    return true
  }
}

/// `==`, `!=`, `<`, `<=`, `>`, `>=` against a number literal, answered without `ValueSemantics` when the
/// subject is a number too, exactly as `ValueSemantics.compare` answers: integers compare as integers, any
/// double makes both doubles, and NaN is unordered and unequal. A subject of another type gets `nil`.
struct NumericLiteralTest: Sendable {
  private let op: ComparisonOperator
  private let integer: Int?
  private let double: Double

  /// The test for `op` against `literal`; nil when the literal is not a number or `op` does not order.
  init?(_ op: ComparisonOperator, _ literal: PredicateValue) {
    switch op {
    case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: break
    default: return nil
    }
    switch literal {
    case .integer(let value): (integer, double) = (value, Double(value))
    case .double(let value): (integer, double) = (nil, value)
    default: return nil
    }
    self.op = op
  }

  // Inlined: as a call of its own it cost as much as the comparison.
  @inline(__always)
  func callAsFunction(_ subject: PredicateValue) -> Bool? {
    switch subject {
    case .integer(let left):
      if let integer { return Self.holds(op, left, integer) }
      return Self.holds(op, Double(left), double)
    case .double(let left): return Self.holds(op, left, double)
    default: return nil
    }
  }

  @inline(__always)
  private static func holds<Number: Comparable>(_ op: ComparisonOperator, _ left: Number, _ right: Number)
    -> Bool
  {
    switch op {
    case .equalTo: left == right
    case .notEqualTo: left != right
    case .lessThan: left < right
    case .lessThanOrEqualTo: left <= right
    case .greaterThan: left > right
    case .greaterThanOrEqualTo: left >= right
    default: false
    }
  }
}
