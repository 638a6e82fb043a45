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
    guard slotCount + memoCount == 0 else {
      return try evaluateWithStorage(on: object, variables: variables, options: options)
    }
    // No variables and no memos, the commonest case: no storage to set up and tear down, which was most
    // of the cost of evaluating a simple comparison. The frame's pointers go to a local nothing reads (a
    // shared static allocation cost more to reach). The error passes through as it is, without a `Result`.
    var budget = StepBudget(options)
    var unused: PredicateValue? = nil
    return try withUnsafeMutablePointer(to: &budget) { budget throws(EvaluationError) in
      try withUnsafeMutablePointer(to: &unused) { unused throws(EvaluationError) in
        try code(Frame(object: object, slots: unused, memos: unused, budget: budget))
      }
    }
  }

  /// Evaluates a predicate with variables or memos, in storage on the stack.
  @inline(never)
  private func evaluateWithStorage(
    on object: PredicateValue, variables: [String: PredicateValue], options: PredicateEvaluator.Options
  ) throws(EvaluationError) -> Bool {
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
  var scopes: [(name: String, slot: Int)] = []
  /// Variables the caller supplies, by name.
  private(set) var freeVariables: [String: Int] = [:]
  var slotCount = 0
  /// One memo per distinct (`$variable` slot, key) pair.
  private var memoIndexes: [MemoKey: Int] = [:]
  /// The memos to forget when a slot is bound to a new element, by slot.
  var memosBySlot: [Int: [Int]] = [:]
  var memoCount: Int { memoIndexes.count }

  private struct MemoKey: Hashable {
    var slot: Int
    var key: String
  }

  init(oracle: TypeOracle) {
    self.oracle = oracle
  }

  mutating func slot(for name: String) -> Int {
    if let scoped = scopes.last(where: { $0.name == name }) { return scoped.slot }
    if let free = freeVariables[name] { return free }
    let slot = slotCount
    slotCount += 1
    freeVariables[name] = slot
    return slot
  }

  mutating func memo(slot: Int, key: String) -> Int {
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
}
