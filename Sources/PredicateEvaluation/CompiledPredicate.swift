import PredicateSyntax
import UniformTypes

/// A predicate turned into a tree of closures once, for evaluating it many times.
///
/// Compiling resolves what the tree-walker redoes on every evaluation: literal UTIs are resolved in the
/// registry, regular expressions compiled, `LIKE` patterns and folded string literals prepared, key paths
/// split, `SUBQUERY` variables given fixed slots, and `SUBQUERY(…).@count` counts without building the
/// filtered array. Problems are reported when evaluation reaches them, exactly as the tree-walker does, so
/// both forms agree on every input. The value is immutable and `Sendable`: share it across threads.
public struct CompiledPredicate: Sendable {
  fileprivate let code: TestCode
  fileprivate let freeVariables: [(name: String, slot: Int)]
  fileprivate let slotCount: Int
  fileprivate let memoCount: Int

  /// Compiles `predicate`; `registry` answers `UTI-CONFORMS-TO` and `UTI-EQUALS`.
  public init(_ predicate: PredicateNode, registry: TypeRegistry = .system) {
    self.init(predicate, oracle: TypeOracle(registry))
  }

  init(_ predicate: PredicateNode, oracle: TypeOracle) {
    var compiler = PredicateCompiler(oracle: oracle)
    code = compiler.compile(predicate)
    freeVariables = compiler.freeVariables.map { (name: $0.key, slot: $0.value) }.sorted { $0.slot < $1.slot }
    slotCount = compiler.slotCount
    memoCount = compiler.memoCount
  }

  /// Evaluates the predicate against `object`, with `variables` bound to the `$names` it uses.
  ///
  /// - Throws: ``EvaluationError``, exactly as ``PredicateEvaluator/evaluate(_:on:variables:registry:options:)``
  ///   throws it for the same input and `options`.
  public func evaluate(
    on object: PredicateValue, variables: [String: PredicateValue] = [:],
    options: PredicateEvaluator.Options = PredicateEvaluator.Options()
  ) throws(EvaluationError) -> Bool {
    // The slots, memos and step budget live on the stack for the duration of one evaluation: allocating
    // them on the heap cost more than evaluating a simple comparison.
    let count = slotCount + memoCount
    var budget = StepBudget(options)
    let outcome = withUnsafeMutablePointer(to: &budget) { budget in
      withUnsafeTemporaryAllocation(of: PredicateValue?.self, capacity: Swift.max(count, 1)) {
        storage -> Result<Bool, EvaluationError> in
        guard let base = storage.baseAddress else {
          // A temporary allocation of at least one element always has an address; stay correct regardless.
          let heap = UnsafeMutablePointer<PredicateValue?>.allocate(capacity: Swift.max(count, 1))
          defer { heap.deallocate() }
          return evaluate(on: object, variables: variables, storage: heap, budget: budget)
        }
        return evaluate(on: object, variables: variables, storage: base, budget: budget)
      }
    }
    return try outcome.get()
  }

  /// Evaluates with `storage` (room for `slotCount + memoCount` values) as the slots and memos.
  private func evaluate(
    on object: PredicateValue, variables: [String: PredicateValue],
    storage: UnsafeMutablePointer<PredicateValue?>, budget: UnsafeMutablePointer<StepBudget>
  ) -> Result<Bool, EvaluationError> {
    let count = slotCount + memoCount
    storage.initialize(repeating: nil, count: count)
    defer { storage.deinitialize(count: count) }
    for (name, slot) in freeVariables {
      storage[slot] = variables[name]
    }
    return Self.run(code, Frame(object: object, slots: storage, memos: storage + slotCount, budget: budget))
  }

  private static func run(_ code: TestCode, _ frame: Frame) -> Result<Bool, EvaluationError> {
    do throws(EvaluationError) {
      return .success(try code(frame))
    } catch {
      return .failure(error)
    }
  }
}

/// The state of one compiled evaluation: the object, the variable slots, and remembered `$variable.key`
/// values. The slots and memos are buffers `CompiledPredicate.evaluate` owns for the length of one call;
/// the frame is never shared.
///
/// They are buffers behind pointers rather than arrays: the closures write them for every element, and an
/// array inside a frame that closures receive by value would be copied on each write.
struct Frame {
  let object: PredicateValue
  let slots: UnsafeMutablePointer<PredicateValue?>
  /// `$variable.key` values already looked up since the variable was last bound; a rule's
  /// `$attachment.registeredTypeIdentifiers` is written once per clause but looked up once per attachment.
  let memos: UnsafeMutablePointer<PredicateValue?>
  /// The steps left; loops take one per element, as the tree-walker does.
  let budget: UnsafeMutablePointer<StepBudget>
}

typealias TestCode = @Sendable (Frame) throws(EvaluationError) -> Bool
typealias ValueCode = @Sendable (Frame) throws(EvaluationError) -> PredicateValue
typealias ElementTest = @Sendable (PredicateValue) throws(EvaluationError) -> Bool

/// Builds closures from the tree, keeping track of which slot each `$variable` lives in.
struct PredicateCompiler {
  let oracle: TypeOracle
  /// SUBQUERY variables in scope, innermost last.
  private var scopes: [(name: String, slot: Int)] = []
  /// Variables the caller supplies, by name.
  private(set) var freeVariables: [String: Int] = [:]
  private(set) var slotCount = 0
  /// One memo per distinct (`$variable` slot, key) pair.
  private var memoIndexes: [MemoKey: Int] = [:]
  /// The memos to forget when a slot is bound to a new element, by slot.
  private var memosBySlot: [Int: [Int]] = [:]
  var memoCount: Int { memoIndexes.count }

  private struct MemoKey: Hashable {
    var slot: Int
    var key: String
  }

  init(oracle: TypeOracle) {
    self.oracle = oracle
  }

  private mutating func slot(for name: String) -> Int {
    if let scoped = scopes.last(where: { $0.name == name }) { return scoped.slot }
    if let free = freeVariables[name] { return free }
    let slot = slotCount
    slotCount += 1
    freeVariables[name] = slot
    return slot
  }

  private mutating func memo(slot: Int, key: String) -> Int {
    let memoKey = MemoKey(slot: slot, key: key)
    if let index = memoIndexes[memoKey] { return index }
    let index = memoIndexes.count
    memoIndexes[memoKey] = index
    memosBySlot[slot, default: []].append(index)
    return index
  }

  mutating func compile(_ predicate: PredicateNode) -> TestCode {
    switch predicate.kind {
    case .truePredicate: return { _ throws(EvaluationError) in true }
    case .falsePredicate: return { _ throws(EvaluationError) in false }
    case .not(let operand):
      let operandCode = compile(operand)
      return { frame throws(EvaluationError) in try !operandCode(frame) }
    case .and(let lhs, let rhs):
      let lhsCode = compile(lhs)
      let rhsCode = compile(rhs)
      return { frame throws(EvaluationError) in
        guard try lhsCode(frame) else { return false }
        return try rhsCode(frame)
      }
    case .or(let lhs, let rhs):
      let lhsCode = compile(lhs)
      let rhsCode = compile(rhs)
      return { frame throws(EvaluationError) in
        if try lhsCode(frame) { return true }
        return try rhsCode(frame)
      }
    case .comparison(let comparison): return compile(comparison)
    }
  }

  private mutating func compile(_ comparison: Comparison) -> TestCode {
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
      return { frame throws(EvaluationError) in
        let elements = try elementsCode(frame)
        for element in elements {
          try frame.budget.pointee.takeStep(
            .quantifier(quantifier), over: collection, elements: elements.count)
          if let search { try search.take(element, constant, from: &frame.budget.pointee) }
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
      stringTest = { text throws(EvaluationError) in pattern.matches(strings.fold(text)) }
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
    return { lhs throws(EvaluationError) in
      if case .string(let text) = lhs { return try stringTest(text) }
      return try generic(lhs)
    }
  }

  mutating func compile(_ expression: ExpressionNode) -> ValueCode {
    let range = expression.range
    switch expression.kind {
    case .constant(let constant):
      let value = PredicateValue(constant)
      return { _ throws(EvaluationError) in value }
    case .evaluatedObject:
      return { frame throws(EvaluationError) in frame.object }
    case .variable(let name):
      let slot = slot(for: name)
      return { frame throws(EvaluationError) in
        guard let value = frame.slots[slot] else { throw TreeWalker.unbound(name, at: range) }
        return value
      }
    case .anyKey:
      return { _ throws(EvaluationError) in
        throw EvaluationError(
          .unsupported, "ANYKEY is a Spotlight query key and has no value here", at: range)
      }
    case .keyPath(let base, let components):
      return compileKeyPath(base: base, components: components, range: range)
    case .index(let collection, let index):
      let collectionCode = compile(collection)
      let subscriptCode: @Sendable (Frame) throws(EvaluationError) -> KeyValueCoding.Subscript
      switch index {
      case .first: subscriptCode = { _ throws(EvaluationError) in .first }
      case .last: subscriptCode = { _ throws(EvaluationError) in .last }
      case .size: subscriptCode = { _ throws(EvaluationError) in .size }
      case .expression(let expression):
        let indexCode = compile(expression)
        subscriptCode = { frame throws(EvaluationError) in .value(try indexCode(frame)) }
      }
      return { frame throws(EvaluationError) in
        let container = try collectionCode(frame)
        return try KeyValueCoding.value(at: subscriptCode(frame), of: container, at: range)
      }
    case .aggregate(let elements):
      if let value = Self.constantValue(of: expression) {
        return { _ throws(EvaluationError) in value }
      }
      let codes = compileAll(elements)
      return { frame throws(EvaluationError) in .array(try Self.run(codes, frame)) }
    case .subquery(let collection, let variable, let predicate):
      let filter = compileSubquery(collection, variable, predicate)
      return { frame throws(EvaluationError) in .array(try filter(frame, false).kept) }
    case .function(let name, let arguments):
      let codes = compileAll(arguments)
      guard let function = PredicateFunctions.function(callFormName: name) else {
        return { _ throws(EvaluationError) in
          throw EvaluationError(.unsupported, "unknown function '\(name)'", at: range)
        }
      }
      return { frame throws(EvaluationError) in
        try PredicateFunctions.call(function, Self.run(codes, frame), at: range)
      }
    case .functionCall(let receiver, let selector, let arguments):
      guard let function = PredicateFunctions.Function(rawValue: selector) else {
        return { _ throws(EvaluationError) in throw PredicateFunctions.refusal(selector: selector, at: range)
        }
      }
      let codes = compileAll(function.arity == 0 ? arguments : [receiver] + arguments)
      return { frame throws(EvaluationError) in
        try PredicateFunctions.call(function, Self.run(codes, frame), at: range)
      }
    case .cast(let operand, let type):
      let operandCode = compile(operand)
      let typeCode = compile(type)
      let typeRange = type.range
      return { frame throws(EvaluationError) in
        let target = try Cast.target(typeCode(frame), at: typeRange)
        return try Cast.apply(operandCode(frame), to: target, at: range)
      }
    case .arithmetic(let op, let lhs, let rhs):
      let lhsCode = compile(lhs)
      let rhsCode = compile(rhs)
      return { frame throws(EvaluationError) in
        let left = try lhsCode(frame)
        return try Arithmetic.apply(op, left, rhsCode(frame), at: range)
      }
    case .negate(let operand):
      let operandCode = compile(operand)
      return { frame throws(EvaluationError) in try Arithmetic.negate(operandCode(frame), at: range) }
    case .setOperation(let op, let lhs, let rhs):
      let lhsCode = compile(lhs)
      let rhsCode = compile(rhs)
      return { frame throws(EvaluationError) in
        let left = try lhsCode(frame)
        return try Aggregates.setOperation(op, left, rhsCode(frame), at: range)
      }
    case .assignment(let variable, _):
      return { _ throws(EvaluationError) in
        throw EvaluationError(
          .unsupported,
          "assignment to $\(variable) is not evaluated: a predicate must not change its bindings",
          at: range)
      }
    case .ternary(let condition, let whenTrue, let whenFalse):
      let conditionCode = compile(condition)
      let trueCode = compile(whenTrue)
      let falseCode = compile(whenFalse)
      return { frame throws(EvaluationError) in
        try conditionCode(frame) ? trueCode(frame) : falseCode(frame)
      }
    }
  }

  private mutating func compileAll(_ expressions: [ExpressionNode]) -> [ValueCode] {
    var codes: [ValueCode] = []
    for expression in expressions { codes.append(compile(expression)) }
    return codes
  }

  private static func run(_ codes: [ValueCode], _ frame: Frame) throws(EvaluationError) -> [PredicateValue] {
    var values: [PredicateValue] = []
    values.reserveCapacity(codes.count)
    for code in codes { values.append(try code(frame)) }
    return values
  }

  private mutating func compileKeyPath(
    base: ExpressionNode?, components: [KeyPathComponent], range: SourceRange
  )
    -> ValueCode
  {
    // SUBQUERY(…).@count counts matches without collecting them.
    if let base, case .subquery(let collection, let variable, let predicate) = base.kind,
      components == [.collectionOperator("count")]
    {
      let filter = compileSubquery(collection, variable, predicate)
      return { frame throws(EvaluationError) in .integer(try filter(frame, true).count) }
    }
    if let base, case .variable(let name) = base.kind, components.count == 1,
      case .key(let key) = components[0]
    {
      let slot = slot(for: name)
      let memo = memo(slot: slot, key: key)
      let baseRange = base.range
      return { frame throws(EvaluationError) in
        if let remembered = frame.memos[memo] { return remembered }
        guard let value = frame.slots[slot] else { throw TreeWalker.unbound(name, at: baseRange) }
        let result: PredicateValue
        if case .dictionary(let dictionary) = value {
          result = dictionary[key] ?? .null
        } else {
          result = try KeyValueCoding.value(forKey: key, of: value, at: range)
        }
        frame.memos[memo] = result
        return result
      }
    }
    let baseCode: ValueCode
    if let base {
      baseCode = compile(base)
    } else {
      baseCode = { frame throws(EvaluationError) in frame.object }
    }
    let steps: [KeyValueCoding.Step]
    do {
      steps = try KeyValueCoding.steps(components, at: range)
    } catch {
      return { frame throws(EvaluationError) in
        _ = try baseCode(frame)
        throw error
      }
    }
    if base == nil, let count = Self.countOfKey(steps, range: range) { return count }
    if steps.count == 1, case .key(let key) = steps[0], base == nil {
      // `age`: a key of the evaluated object, the commonest left-hand side.
      return { frame throws(EvaluationError) in
        if case .dictionary(let dictionary) = frame.object { return dictionary[key] ?? .null }
        return try KeyValueCoding.value(forKey: key, of: frame.object, at: range)
      }
    }
    if steps.count == 1, case .key(let key) = steps[0] {
      return { frame throws(EvaluationError) in
        let value = try baseCode(frame)
        if case .dictionary(let dictionary) = value { return dictionary[key] ?? .null }
        return try KeyValueCoding.value(forKey: key, of: value, at: range)
      }
    }
    return { frame throws(EvaluationError) in try KeyValueCoding.apply(steps, to: baseCode(frame), at: range)
    }
  }

  /// The filtering loop of a SUBQUERY; `countOnly` skips collecting the kept elements.
  private mutating func compileSubquery(
    _ collection: ExpressionNode, _ variable: String, _ predicate: PredicateNode
  )
    -> @Sendable (Frame, Bool) throws(EvaluationError) -> (kept: [PredicateValue], count: Int)
  {
    let collectionCode = compile(collection)
    let collectionRange = collection.range
    let slot = slotCount
    slotCount += 1
    scopes.append((name: variable, slot: slot))
    let predicateCode = compile(predicate)
    scopes.removeLast()
    let memos = memosBySlot[slot] ?? []
    return { frame, countOnly throws(EvaluationError) in
      let elements = try TreeWalker.subqueryElements(collectionCode(frame), at: collectionRange)
      var kept: [PredicateValue] = []
      var count = 0
      for element in elements {
        try frame.budget.pointee.takeStep(.subquery, over: collection, elements: elements.count)
        frame.slots[slot] = element
        for memo in memos { frame.memos[memo] = nil }
        if try predicateCode(frame) {
          count += 1
          if !countOnly { kept.append(element) }
        }
      }
      return (kept, count)
    }
  }
}
