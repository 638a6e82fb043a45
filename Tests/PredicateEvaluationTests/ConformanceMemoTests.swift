import Testing

@testable import PredicateEvaluation

@Suite("Compiled UTI tests remember their answers")
struct ConformanceMemoTests {
  final class Counter: @unchecked Sendable {
    var calls = 0
  }

  @Test func eachIdentifierIsComputedOnce() {
    let memo = ConformanceMemo()
    let counter = Counter()
    for _ in 0..<3 {
      #expect(
        memo.answer(for: "public.jpeg") {
          counter.calls += 1
          return true
        })
      #expect(
        !memo.answer(for: "com.adobe.pdf") {
          counter.calls += 1
          return false
        })
    }
    #expect(counter.calls == 2)
  }

  @Test func itNeverHoldsMoreThanItsCapacity() {
    let memo = ConformanceMemo()
    let counter = Counter()
    for index in 0...ConformanceMemo.capacity {
      _ = memo.answer(for: "com.example.\(index)") {
        counter.calls += 1
        return false
      }
    }
    // The table was full at the last identifier, so it started over: the first is computed again.
    _ = memo.answer(for: "com.example.0") {
      counter.calls += 1
      return false
    }
    #expect(counter.calls == ConformanceMemo.capacity + 2)
  }
}
