import PredicateSyntax

/// The reference evaluator: walks the tree for every evaluation. Simple enough to read against Apple's
/// documentation; the compiled form is tested against it.
struct TreeWalker {
  let object: PredicateValue
  var variables: [String: PredicateValue]
  let oracle: TypeOracle
  let recorder: TraceRecorder?
  var budget: StepBudget

  mutating func evaluate(_ predicate: PredicateNode) throws(EvaluationError) -> Bool {
    recorder?.begin()
    let result: Bool
    do {
      result = try evaluateUntraced(predicate)
    } catch {
      recorder?.abandon()
      throw error
    }
    recorder?.end(range: predicate.range, step: .predicate, result: result)
    return result
  }

  private mutating func evaluateUntraced(_ predicate: PredicateNode) throws(EvaluationError) -> Bool {
    switch predicate.kind {
    case .truePredicate: return true
    case .falsePredicate: return false
    case .not(let operand): return !(try evaluate(operand))
    case .and(let lhs, let rhs):
      guard try evaluate(lhs) else { return false }
      return try evaluate(rhs)
    case .or(let lhs, let rhs):
      if try evaluate(lhs) { return true }
      return try evaluate(rhs)
    case .comparison(let comparison): return try evaluate(comparison, range: predicate.range)
    }
  }

  private mutating func evaluate(_ comparison: Comparison, range: SourceRange) throws(EvaluationError) -> Bool
  {
    let lhs = try value(comparison.lhs)
    let rhs = try value(comparison.rhs)
    let strings = StringComparison(comparison.options)
    let site = ValueSemantics.Site(
      lhs: comparison.lhs.range, rhs: comparison.rhs.range, op: comparison.operatorRange)
    guard let quantifier = comparison.quantifier else {
      try takeSearchSteps(comparison, lhs, rhs)
      return try ValueSemantics.compare(comparison.op, lhs, rhs, strings, site: site, oracle: oracle)
    }
    let elements = try ValueSemantics.quantifiedElements(lhs, quantifier, at: comparison.lhs.range)
    let wantsAll = quantifier == .all
    for (index, element) in elements.enumerated() {
      try budget.takeStep(.quantifier(quantifier), over: comparison.lhs, elements: elements.count)
      try takeSearchSteps(comparison, element, rhs)
      let holds = try ValueSemantics.compare(comparison.op, element, rhs, strings, site: site, oracle: oracle)
      if let recorder {
        recorder.begin()
        recorder.end(range: range, step: .quantifiedElement(index: index, value: element), result: holds)
      }
      if holds != wantsAll {
        // ANY/SOME found a match, NONE found a counterexample, ALL found a failure.
        return quantifier == .none ? false : holds
      }
    }
    return quantifier == .all || quantifier == .none
  }

  /// The steps of an `IN` or `CONTAINS` that searches a collection: one per element of it.
  private mutating func takeSearchSteps(
    _ comparison: Comparison, _ lhs: PredicateValue, _ rhs: PredicateValue
  )
    throws(EvaluationError)
  {
    guard let search = SearchSteps(comparison) else { return }
    try search.take(lhs, rhs, from: &budget)
  }

  mutating func value(_ expression: ExpressionNode) throws(EvaluationError) -> PredicateValue {
    let range = expression.range
    switch expression.kind {
    case .constant(let constant): return PredicateValue(constant)
    case .evaluatedObject: return object
    case .variable(let name):
      guard let bound = variables[name] else { throw Self.unbound(name, at: range) }
      return bound
    case .anyKey:
      throw EvaluationError(.unsupported, "ANYKEY is a Spotlight query key and has no value here", at: range)
    case .keyPath(let base, let components):
      let start = try base.map { node throws(EvaluationError) in try value(node) } ?? object
      return try KeyValueCoding.apply(KeyValueCoding.steps(components, at: range), to: start, at: range)
    case .index(let collection, let index):
      let container = try value(collection)
      return try KeyValueCoding.value(at: subscriptValue(index), of: container, at: range)
    case .aggregate(let elements):
      var values: [PredicateValue] = []
      values.reserveCapacity(elements.count)
      for element in elements { values.append(try value(element)) }
      return .array(values)
    case .subquery(let collection, let variable, let predicate):
      return try subquery(collection, variable, predicate, range: range)
    case .function(let name, let arguments):
      guard let function = PredicateFunctions.function(callFormName: name) else {
        throw EvaluationError(.unsupported, "unknown function '\(name)'", at: range)
      }
      return try PredicateFunctions.call(function, values(arguments), at: range)
    case .functionCall(let receiver, let selector, let arguments):
      guard let function = PredicateFunctions.Function(rawValue: selector) else {
        throw PredicateFunctions.refusal(selector: selector, at: range)
      }
      // A selector without a colon takes no arguments, so its receiver is not used; otherwise the receiver is
      // the first argument, as in FUNCTION(2, 'add:to:', 3).
      let all = function.arity == 0 ? arguments : [receiver] + arguments
      return try PredicateFunctions.call(function, values(all), at: range)
    case .cast(let operand, let type):
      let target = try Cast.target(value(type), at: type.range)
      return try Cast.apply(value(operand), to: target, at: range)
    case .arithmetic(let op, let lhs, let rhs):
      return try Arithmetic.apply(op, value(lhs), value(rhs), at: range)
    case .negate(let operand):
      return try Arithmetic.negate(value(operand), at: range)
    case .setOperation(let op, let lhs, let rhs):
      return try Aggregates.setOperation(op, value(lhs), value(rhs), at: range)
    case .assignment(let variable, _):
      throw EvaluationError(
        .unsupported, "assignment to $\(variable) is not evaluated: a predicate must not change its bindings",
        at: range)
    case .ternary(let condition, let whenTrue, let whenFalse):
      return try evaluate(condition) ? value(whenTrue) : value(whenFalse)
    }
  }

  private mutating func values(_ expressions: [ExpressionNode]) throws(EvaluationError) -> [PredicateValue] {
    var values: [PredicateValue] = []
    values.reserveCapacity(expressions.count)
    for expression in expressions { values.append(try value(expression)) }
    return values
  }

  private mutating func subscriptValue(_ index: IndexKind) throws(EvaluationError) -> KeyValueCoding.Subscript
  {
    switch index {
    case .first: .first
    case .last: .last
    case .size: .size
    case .expression(let expression): .value(try value(expression))
    }
  }

  /// Binds each element to `$variable` in turn (shadowing and then restoring any outer binding) and keeps the
  /// elements for which `predicate` holds.
  private mutating func subquery(
    _ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode, range: SourceRange
  ) throws(EvaluationError) -> PredicateValue {
    let elements = try Self.subqueryElements(value(collection), at: collection.range)
    let outer = variables[variable]
    defer { variables[variable] = outer }
    var kept: [PredicateValue] = []
    for (index, element) in elements.enumerated() {
      try budget.takeStep(.subquery, over: collection, elements: elements.count)
      variables[variable] = element
      recorder?.begin()
      let holds: Bool
      do {
        holds = try evaluate(predicate)
      } catch {
        recorder?.abandon()
        throw error
      }
      recorder?.end(
        range: range, step: .subqueryElement(variable: variable, index: index, value: element), result: holds)
      if holds { kept.append(element) }
    }
    return .array(kept)
  }

  static func subqueryElements(_ collection: PredicateValue, at range: SourceRange) throws(EvaluationError)
    -> [PredicateValue]
  {
    switch collection {
    case .null: return []
    case .array(let elements): return elements
    case .dictionary(let dictionary): return dictionary.values
    default:
      throw EvaluationError(
        .typeMismatch, "SUBQUERY needs a collection, found \(collection.typeNameWithArticle)", at: range)
    }
  }

  static func unbound(_ name: String, at range: SourceRange) -> EvaluationError {
    EvaluationError(.unboundVariable, "no value for variable $\(name)", at: range)
  }
}

extension PredicateValue {
  /// The value of a literal.
  init(_ constant: Constant) {
    switch constant {
    case .null: self = .null
    case .bool(let flag): self = .bool(flag)
    case .integer(let integer): self = .integer(integer)
    case .double(let double): self = .double(double)
    case .string(let text): self = .string(text)
    }
  }
}

extension Aggregates {
  /// `UNION`, `INTERSECT` and `MINUS`: set results (no repeats) in first-appearance order; null is empty.
  static func setOperation(
    _ op: SetOperator, _ lhs: PredicateValue, _ rhs: PredicateValue, at range: SourceRange
  ) throws(EvaluationError) -> PredicateValue {
    func elements(_ value: PredicateValue) throws(EvaluationError) -> [PredicateValue] {
      if value.isNull { return [] }
      guard let elements = value.collectionElements else {
        throw EvaluationError(
          .typeMismatch, "\(op.rawValue) needs collections on both sides, found \(value.typeNameWithArticle)",
          at: range)
      }
      return elements
    }
    let left = try elements(lhs)
    let right = try elements(rhs)
    let plain = StringComparison([])
    func inRight(_ value: PredicateValue) -> Bool {
      right.contains { ValueSemantics.isEqual($0, value, plain) }
    }
    switch op {
    case .union: return .array(distinct(left + right))
    case .intersect: return .array(distinct(left.filter(inRight)))
    case .minus: return .array(distinct(left.filter { !inRight($0) }))
    }
  }
}

extension ValueSemantics {
  /// One comparison of two values, UTI operators included.
  static func compare(
    _ op: ComparisonOperator, _ lhs: PredicateValue, _ rhs: PredicateValue, _ strings: StringComparison,
    site: Site, oracle: TypeOracle
  ) throws(EvaluationError) -> Bool {
    switch op {
    case .utiConformsTo, .utiEquals:
      guard case .string(let type) = lhs, case .string(let target) = rhs else {
        if lhs.isNull || rhs.isNull { return false }
        throw stringOperandError(op, lhs, rhs, site: site)
      }
      return op == .utiConformsTo ? oracle.conforms(type, target) : oracle.equals(type, target)
    default:
      return try compare(op, lhs, rhs, strings, site: site)
    }
  }
}
