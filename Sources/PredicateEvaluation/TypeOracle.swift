import Locking
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How the evaluators ask about Uniform Type Identifiers: `UTI-CONFORMS-TO` and `UTI-EQUALS` go through
/// these closures, which a type registry fills in.
///
/// `conformanceTest(to:)` resolves a right-hand identifier once and returns a test for left-hand
/// identifiers, so the compiled form pays for resolving a literal UTI only when it compiles.
struct TypeOracle: Sendable {
  var conforms: @Sendable (_ type: String, _ target: String) -> Bool
  var equals: @Sendable (_ lhs: String, _ rhs: String) -> Bool
  var conformanceTest: @Sendable (_ target: String) -> @Sendable (_ type: String) -> Bool
}

extension TypeOracle {
  /// Asks `registry`; a right-hand literal is resolved once per compiled comparison.
  init(_ registry: TypeRegistry) {
    conforms = { registry.conforms($0, to: $1) }
    equals = { registry.isEqual($0, $1) }
    conformanceTest = { target in
      let resolvedTarget = registry.resolve(target)
      let memo = ConformanceMemo()
      return { type in
        memo.answer(for: type) { registry.conforms(registry.resolve(type), to: resolvedTarget) }
      }
    }
  }
}

/// Answers of one compiled `UTI-CONFORMS-TO` test, by left-hand identifier. Resolving an identifier
/// (lower-casing, hashing, decoding `dyn.` types) was most of the cost of `diff` and `lint`, which ask the
/// same few identifiers hundreds of thousands of times. Shared by every thread that evaluates the compiled
/// predicate, so it takes a lock; it holds at most `capacity` answers, so no input grows it without bound.
final class ConformanceMemo: Sendable {
  static let capacity = 512
  private let answers = Locked<[String: Bool]>([:])

  func answer(for type: String, compute: () -> Bool) -> Bool {
    if let known = answers.withLock({ $0[type] }) { return known }
    // Computed outside the lock: resolving may be slow, and another thread may ask meanwhile.
    let answer = compute()
    answers.withLock { answers in
      if answers.count >= Self.capacity { answers.removeAll(keepingCapacity: true) }
      answers[type] = answer
    }
    return answer
  }
}
