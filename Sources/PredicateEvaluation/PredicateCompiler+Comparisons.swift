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
      if let search, op == .contains, let test, let constant, case .string(let literal) = constant {
        // `text CONTAINS "literal"` searches a string, which takes no steps: the prepared test answers it.
        // `tags CONTAINS "rust"` with no option compares the strings of the array directly.
        let plain = strings.isPlain
        return { frame throws(EvaluationError) in
          let lhs = try lhsCode(frame)
          if case .string = lhs { return try test(lhs) }
          try search.take(lhs, constant, from: &frame.budget.pointee)
          if plain, case .array(let elements) = lhs { return Self.plainStrings(elements, contain: literal) }
          return try ValueSemantics.compare(op, lhs, constant, strings, site: site, oracle: oracle)
        }
      }
      if let search, op == .in, strings.isPlain,
        case .string(let literal)? = Self.constantValue(of: comparison.lhs)
      {
        // `"swift" IN tags`: the same search from the other side.
        let element = PredicateValue.string(literal)
        return { frame throws(EvaluationError) in
          let rhs = try rhsCode(frame)
          try search.take(element, rhs, from: &frame.budget.pointee)
          if case .array(let elements) = rhs { return Self.plainStrings(elements, contain: literal) }
          return try ValueSemantics.compare(op, element, rhs, strings, site: site, oracle: oracle)
        }
      }
      if let search, op == .in, strings.isPlain, let constant, let literals = Self.strings(constant) {
        // `given IN {"Ben", "Cleo"}`: a string subject is compared with the literals directly.
        return { frame throws(EvaluationError) in
          let lhs = try lhsCode(frame)
          try search.take(lhs, constant, from: &frame.budget.pointee)
          if case .string(let text) = lhs { return literals.contains(text) }
          return try ValueSemantics.compare(op, lhs, constant, strings, site: site, oracle: oracle)
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
      if let test, let lhsConstant = Self.constantValue(of: comparison.lhs),
        let answer = try? test(lhsConstant)
      {
        // `2 ** 3 == 8`: literals on both sides, so every evaluation gives this answer. A comparison that
        // fails is left to fail when evaluated, where the tree-walker fails.
        return { _ throws(EvaluationError) in answer }
      }
      if let test, let key = Self.objectKey(comparison.lhs) {
        // `age > 30`: the key is looked up here rather than in a closure of its own, one call fewer on the
        // commonest comparison.
        let numeric = constant.flatMap { NumericLiteralTest(op, $0) }
        return Self.objectKeyTest(key, at: comparison.lhs.range, test, numeric: numeric)
      }
      if let lhsConstant = Self.constantValue(of: comparison.lhs), let key = Self.objectKey(comparison.rhs),
        let mirrored = Self.mirrored(op), let numeric = NumericLiteralTest(mirrored, lhsConstant)
      {
        // `10 < age` is `age > 10` when `age` is a number; anything else is compared as written.
        let asWritten: ElementTest = { rhs throws(EvaluationError) in
          try ValueSemantics.compare(op, lhsConstant, rhs, strings, site: site, oracle: oracle)
        }
        return Self.objectKeyTest(key, at: comparison.rhs.range, asWritten, numeric: numeric)
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
        let loop: TestCode = { frame throws(EvaluationError) in
          let elements = try elementsCode(frame)
          for element in elements {
            try frame.budget.pointee.takeStep(
              .quantifier(quantifier), over: collection, elements: elements.count)
            let holds = try test(element)
            if holds != wantsAll { return quantifier == .none ? false : holds }
          }
          return resultWhenExhausted
        }
        guard let keys = Self.objectKeys(collection) else { return loop }
        let numeric = NumericLiteralTest(op, constant)
        return Self.objectQuantifierCode(
          collection, keys: keys, quantifier, test, numeric: numeric, otherwise: loop)
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

  /// `key op test`: the test of the evaluated object's `key`, looked up in place when the object is a
  /// dictionary; the same look-up as `compileKeyPath` makes for it. A number found for a `numeric` test is
  /// compared here, without calling `test`.
  private static func objectKeyTest(
    _ key: String, at range: SourceRange, _ test: @escaping ElementTest, numeric: NumericLiteralTest?
  ) -> TestCode {
    let hashed = PredicateDictionary.HashedKey(key)
    guard let numeric else {
      return { frame throws(EvaluationError) in
        if let value = frame.object.member(hashed) { return try test(value) }
        return try test(KeyValueCoding.value(forKey: key, of: frame.object, at: range))
      }
    }
    return { frame throws(EvaluationError) in
      if let value = frame.object.member(hashed) {
        if let answer = numeric(value) { return answer }
        return try test(value)
      }
      return try test(KeyValueCoding.value(forKey: key, of: frame.object, at: range))
    }
  }

  /// Whether `elements` has a string equal to `literal` with no option: `ValueSemantics.isEqual` finds no
  /// other value (null, number, collection) equal to a string.
  private static func plainStrings(_ elements: [PredicateValue], contain literal: String) -> Bool {
    elements.contains { element in
      if case .string(let text) = element { return text == literal }
      return false
    }
  }

  /// The strings of an array whose elements are all strings; nil for any other value.
  private static func strings(_ value: PredicateValue) -> [String]? {
    guard case .array(let elements) = value else { return nil }
    var strings: [String] = []
    for element in elements {
      guard case .string(let text) = element else { return nil }
      strings.append(text)
    }
    return strings
  }

  /// The operator with its operands swapped (`a < b` is `b > a`), for the six that compare numbers.
  private static func mirrored(_ op: ComparisonOperator) -> ComparisonOperator? {
    switch op {
    case .equalTo, .notEqualTo: op
    case .lessThan: .greaterThan
    case .lessThanOrEqualTo: .greaterThanOrEqualTo
    case .greaterThan: .lessThan
    case .greaterThanOrEqualTo: .lessThanOrEqualTo
    default: nil
    }
  }

  /// The value of a literal, of an aggregate of literals (`{30, 34, 40}`) or of arithmetic on literals
  /// (`2 ** 3`), which no evaluation can change, so it is computed once rather than on every evaluation.
  /// Arithmetic that fails (`1 / 0`) has none: evaluation reports the error, where the tree-walker does.
  static func constantValue(of expression: ExpressionNode) -> PredicateValue? {
    switch expression.kind {
    case .constant(let constant): return PredicateValue(constant)
    case .arithmetic(let op, let lhs, let rhs):
      guard let left = constantValue(of: lhs), let right = constantValue(of: rhs) else { return nil }
      return try? Arithmetic.apply(op, left, right, at: expression.range)
    case .negate(let operand):
      guard let value = constantValue(of: operand) else { return nil }
      return try? Arithmetic.negate(value, at: expression.range)
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

  /// A comparison against a literal right-hand side, with the literal prepared once.
  private static func elementTest(
    _ op: ComparisonOperator, _ rhs: PredicateValue, _ strings: StringComparison, site: ValueSemantics.Site,
    oracle: TypeOracle
  ) -> ElementTest {
    let generic: ElementTest = { lhs throws(EvaluationError) in
      try ValueSemantics.compare(op, lhs, rhs, strings, site: site, oracle: oracle)
    }
    if let numeric = NumericLiteralTest(op, rhs) {
      return { lhs throws(EvaluationError) in
        if let answer = numeric(lhs) { return answer }
        return try generic(lhs)
      }
    }
    if op == .equalTo || op == .notEqualTo {
      // `nickname == nil`, `active == YES`: `isEqual` finds only null equal to null, and compares a
      // Boolean with a Boolean as `==` does.
      let negated = op == .notEqualTo
      switch rhs {
      case .null: return { lhs throws(EvaluationError) in lhs.isNull != negated }
      case .bool(let literal):
        return { lhs throws(EvaluationError) in
          if case .bool(let value) = lhs { return (value == literal) != negated }
          return try generic(lhs)
        }
      default: break
      }
    }
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
