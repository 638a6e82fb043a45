import Foundation
import Testing

@testable import PredicateSyntax

/// Regression for a libFuzzer finding (`scripts/fuzz parser`): a deeply nested predicate such as
/// `((((((((((((a == 1))))))))))))` is parsed on `LargeStack`'s thread, and the parsed tree stayed referenced
/// by that thread after `parse` returned, which LeakSanitizer reported as a leak.
@Suite struct LargeStackTests {
  /// Counts deinitialized `Tracked` values; touched from the worker thread and the test.
  final class ReleaseCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var released = 0
    var count: Int { lock.withLock { released } }
    func recordRelease() { lock.withLock { released += 1 } }
  }

  final class Tracked: Sendable {
    let counter: ReleaseCounter
    init(_ counter: ReleaseCounter) { self.counter = counter }
    deinit { counter.recordRelease() }
  }

  @Test func nothingOutlivesTheCallOnTheWorkerThread() {
    let counter = ReleaseCounter()
    for round in 1...20 {
      _ = LargeStack.run { Tracked(counter) }
      #expect(counter.count == round)
    }
  }

  @Test func deepInputIsParsedOnTheWorkerThread() throws {
    // Far deeper than `LargeStack.inlineNestingLimit`, so the parser moves to the worker thread.
    let nested = String(repeating: "(", count: 40) + "a == 1" + String(repeating: ")", count: 40)
    #expect(try PredicateParser.parse(nested) == PredicateParser.parse("a == 1"))
  }
}
