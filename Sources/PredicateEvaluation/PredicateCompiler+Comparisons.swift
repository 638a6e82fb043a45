import PredicateSyntax
import UniformTypes

// Comparisons: quantifiers, searches that take steps, and the tests prepared once for a literal right side
// (numbers, strings, UTIs).

extension PredicateCompiler {
  mutating func compile(_ comparison: Comparison) -> TestCode {
    let lhsCode = compile(comparison.lhs)
    let strings = StringComparison(comparison.options)
    let site = ValueSemantics.Site(
      lhs: comparison.lhs.range, rhs: comparison.rhs.range, op: comparison.operatorRange)
    let op = comparison.op
    let oracle = self.oracle
    let test: ElementTest?
    let rhsCode: ValueCode
    let constant = Self.constantValue(of: comparison.rhs)
    if let constant {
      test = Self.elementTest(op, constant, strings, site: site, oracle: oracle)
      rhsCode = { _ throws(EvaluationError) in constant }
    } else {
      test = nil
      rhsCode = compile(comparison.rhs)
    }
    let search = SearchSteps(comparison)
    guard let quantifier = comparison.quantifier else {
      if let search, op == .contains, let test, case .string? = constant {
        // `text CONTAINS "literal"` searches a string, which takes no steps: the prepared test answers it.
        return { frame throws(EvaluationError) in
          let lhs = try lhsCode(frame)
          if case .string = lhs { return try test(lhs) }
          let rhs = try rhsCode(frame)
          try search.take(lhs, rhs, from: &frame.budget.pointee)
          return try ValueSemantics.compare(op, lhs, rhs, strings, site: site, oracle: oracle)
        }
      }
      if let search {
        return { frame throws(EvaluationError) in
          let lhs = try lhsCode(frame)
          let rhs = try rhsCode(frame)
          try search.take(lhs, rhs, from: &frame.budget.pointee)
          return try ValueSemantics.compare(op, lhs, rhs, strings, site: site, oracle: oracle)
        }
      }
      if let test, let key = Self.objectKey(comparison.lhs) {
        // `age > 30`: the key is looked up here rather than in a closure of its own, one call fewer on the
        // commonest comparison; the same look-up as `compileKeyPath` makes for it.
        let range = comparison.lhs.range
        let hashed = PredicateDictionary.HashedKey(key)
        return { frame throws(EvaluationError) in
          if case .dictionary(let dictionary) = frame.object {
            return try test(dictionary.value(for: hashed) ?? .null)
          }
          return try test(KeyValueCoding.value(forKey: key, of: frame.object, at: range))
        }
      }
      if let test {
        return { frame throws(EvaluationError) in try test(lhsCode(frame)) }
      }
      return { frame throws(EvaluationError) in
        let lhs = try lhsCode(frame)
        let rhs = try rhsCode(frame)
        return try ValueSemantics.compare(op, lhs, rhs, strings, site: site, oracle: oracle)
      }
    }
    let wantsAll = quantifier == .all
    let resultWhenExhausted = quantifier == .all || quantifier == .none
    let collection = comparison.lhs
    let elementsCode = quantifiedElementsCode(collection, lhsCode, quantifier, at: site.lhs)
    // The activation-rule hot path, `ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "literal"`,
    // tests each identifier against the pre-resolved literal without further indirection.
    if op == .utiConformsTo, case .constant(.string(let target)) = comparison.rhs.kind, let test {
      let conforms = oracle.conformanceTest(target)
      return { frame throws(EvaluationError) in
        let elements = try elementsCode(frame)
        for element in elements {
          try frame.budget.pointee.takeStep(
            .quantifier(quantifier), over: collection, elements: elements.count)
          let holds: Bool
          if case .string(let type) = element {
            holds = conforms(type)
          } else {
            holds = try test(element)
          }
          if holds != wantsAll { return quantifier == .none ? false : holds }
        }
        return resultWhenExhausted
      }
    }
    // A pre-resolved test means a constant right side: nothing to evaluate, and the search (if any) goes
    // through the constant.
    if let test, let constant {
      guard let search else {
        // No search: the loop does not copy and destroy an optional `SearchSteps` for every element.
        return { frame throws(EvaluationError) in
          let elements = try elementsCode(frame)
          for element in elements {
            try frame.budget.pointee.takeStep(
              .quantifier(quantifier), over: collection, elements: elements.count)
            let holds = try test(element)
            if holds != wantsAll { return quantifier == .none ? false : holds }
          }
          return resultWhenExhausted
        }
      }
      return { frame throws(EvaluationError) in
        let elements = try elementsCode(frame)
        for element in elements {
          try frame.budget.pointee.takeStep(
            .quantifier(quantifier), over: collection, elements: elements.count)
          try search.take(element, constant, from: &frame.budget.pointee)
          let holds = try test(element)
          if holds != wantsAll { return quantifier == .none ? false : holds }
        }
        return resultWhenExhausted
      }
    }
    return { frame throws(EvaluationError) in
      // Both sides first, then the collection check: errors come in the tree-walker's order.
      let lhs = try lhsCode(frame)
      let rhs = try rhsCode(frame)
      let elements = try ValueSemantics.quantifiedElements(lhs, quantifier, at: site.lhs)
      for element in elements {
        try frame.budget.pointee.takeStep(.quantifier(quantifier), over: collection, elements: elements.count)
        if let search { try search.take(element, rhs, from: &frame.budget.pointee) }
        let holds = try ValueSemantics.compare(op, element, rhs, strings, site: site, oracle: oracle)
        if holds != wantsAll { return quantifier == .none ? false : holds }
      }
      return resultWhenExhausted
    }
  }

  /// The value of a literal or of an aggregate of literals (`{30, 34, 40}`), which no evaluation can change
  /// and none can fail, so it is built once rather than on every evaluation.
  static func constantValue(of expression: ExpressionNode) -> PredicateValue? {
    switch expression.kind {
    case .constant(let constant): return PredicateValue(constant)
    case .aggregate(let elements):
      var values: [PredicateValue] = []
      values.reserveCapacity(elements.count)
      for element in elements {
        guard let value = constantValue(of: element) else { return nil }
        values.append(value)
      }
      return .array(values)
    default: return nil
    }
  }

  /// `==`, `!=`, `<`, `<=`, `>`, `>=` against a number, answered without `ValueSemantics` when the left side
  /// is a number too, exactly as `ValueSemantics.compare` answers: integers compare as integers, any double
  /// makes both doubles, and NaN is unordered and unequal. Other left sides take `otherwise`.
  private static func numericTest(
    _ op: ComparisonOperator, _ rhs: PredicateValue, otherwise: @escaping ElementTest
  )
    -> ElementTest?
  {
    switch op {
    case .equalTo, .notEqualTo, .lessThan, .lessThanOrEqualTo, .greaterThan, .greaterThanOrEqualTo: break
    default: return nil
    }
    let integer: Int?
    let double: Double
    switch rhs {
    case .integer(let value): (integer, double) = (value, Double(value))
    case .double(let value): (integer, double) = (nil, value)
    default: return nil
    }
    return { lhs throws(EvaluationError) in
      switch lhs {
      case .integer(let left):
        if let integer { return holds(op, left, integer) }
        return holds(op, Double(left), double)
      case .double(let left): return holds(op, left, double)
      default: return try otherwise(lhs)
      }
    }
  }

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

  /// A comparison against a literal right-hand side, with the literal prepared once.
  private static func elementTest(
    _ op: ComparisonOperator, _ rhs: PredicateValue, _ strings: StringComparison, site: ValueSemantics.Site,
    oracle: TypeOracle
  ) -> ElementTest {
    let generic: ElementTest = { lhs throws(EvaluationError) in
      try ValueSemantics.compare(op, lhs, rhs, strings, site: site, oracle: oracle)
    }
    if let numeric = numericTest(op, rhs, otherwise: generic) { return numeric }
    guard case .string(let literal) = rhs else { return generic }
    if op == .equalTo || op == .notEqualTo, !strings.foldsCase, !strings.foldsDiacritics,
      !strings.comparesScalars
    {
      // `given == "Anna"`: nothing to fold, so `String` equality answers, without the closures below.
      let negated = op == .notEqualTo
      return { lhs throws(EvaluationError) in
        if case .string(let text) = lhs { return (text == literal) != negated }
        return try generic(lhs)
      }
    }
    let folded = strings.fold(literal)
    let stringTest: (@Sendable (String) throws(EvaluationError) -> Bool)?
    switch op {
    case .utiConformsTo:
      let conforms = oracle.conformanceTest(literal)
      stringTest = { type throws(EvaluationError) in conforms(type) }
    case .utiEquals:
      let equals = oracle.equals
      stringTest = { type throws(EvaluationError) in equals(type, literal) }
    case .equalTo: stringTest = { text throws(EvaluationError) in strings.equal(strings.fold(text), folded) }
    case .notEqualTo:
      stringTest = { text throws(EvaluationError) in !strings.equal(strings.fold(text), folded) }
    case .contains:
      stringTest = { text throws(EvaluationError) in strings.contains(strings.fold(text), folded) }
    case .beginsWith:
      stringTest = { text throws(EvaluationError) in strings.hasPrefix(strings.fold(text), folded) }
    case .endsWith:
      stringTest = { text throws(EvaluationError) in strings.hasSuffix(strings.fold(text), folded) }
    case .like:
      let pattern = LikePattern(folded)
      stringTest = { text throws(EvaluationError) in
        // ASCII text needs no folded copy: its letters are lowered as they are compared.
        if let answer = pattern.matchesSingleByte(text, foldingCase: strings.foldsCase) { return answer }
        return pattern.matches(strings.fold(text))
      }
    case .matches:
      let regex: Result<PCRE2Pattern, EvaluationError>
      do {
        regex = .success(try ValueSemantics.regularExpression(literal, strings, at: site.rhs))
      } catch {
        regex = .failure(error)
      }
      stringTest = { text throws(EvaluationError) in
        try ValueSemantics.matches(
          regex.get(), strings.foldsDiacritics ? strings.fold(text) : text, at: site.op)
      }
    default: stringTest = nil
    }
    guard let stringTest else { return generic }
    // Plain `==` on strings is already a comparison of their bytes; folding and searching are not.
    if op != .equalTo || strings.foldsCase || strings.foldsDiacritics,
      let bytes = SingleByteLiteralTest(op, folded: folded, strings)
    {
      return { lhs throws(EvaluationError) in
        guard case .string(let text) = lhs else { return try generic(lhs) }
        if let answer = bytes(text) { return answer }
        return try stringTest(text)
      }
    }
    return { lhs throws(EvaluationError) in
      if case .string(let text) = lhs { return try stringTest(text) }
      return try generic(lhs)
    }
  }
}
