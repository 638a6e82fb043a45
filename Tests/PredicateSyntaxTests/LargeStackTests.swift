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

  /// Input deeper than `inlineNestingLimit` first runs on the caller's stack, checking the stack's limit at
  /// every level; on a thread whose stack cannot hold it (Darwin's secondary threads have 512 KiB), the
  /// check must move it to the large stack in time, and the answer must not depend on where it ran.
  @Test(arguments: [10, 60, 240])
  func deepInputParsesOnASmallStack(depth: Int) throws {
    let inner = "NOT -a == -(-1) AND {1, {2, (3)}} CONTAINS 1"
    let nested = String(repeating: "(", count: depth) + inner + String(repeating: ")", count: depth)
    let expected = try PredicateParser.parse(inner)
    #expect(LargeStack.currentStackLimit() != nil, "this platform reports its stack bounds")
    for stackSize in [300 << 10, 512 << 10] {
      let result = Self.onThread(stackSize: stackSize) { Result { try PredicateParser.parse(nested) } }
      #expect(try result?.get() == expected, "stack of \(stackSize >> 10) KiB")
    }
  }

  /// Written by a test thread before it signals `done`, read after waiting on it.
  final class ThreadResult<Value>: @unchecked Sendable {
    var value: Value?
    let done = DispatchSemaphore(value: 0)
  }

  /// Runs `body` on a new thread with the given stack size and waits for its answer.
  static func onThread<Value: Sendable>(stackSize: Int, _ body: @escaping @Sendable () -> Value) -> Value? {
    let box = ThreadResult<Value>()
    let thread = Thread {
      box.value = body()
      box.done.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    box.done.wait()
    return box.value
  }
}
