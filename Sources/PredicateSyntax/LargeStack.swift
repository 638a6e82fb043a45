import Dispatch
import Foundation

/// Runs deeply recursive work on a thread with a large stack.
///
/// Recursion depth is already capped (`PredicateParser.Options.maximumDepth`), but a capped depth times the
/// frame size of an unoptimised build can still exceed the 512 KiB stacks of secondary threads on Darwin.
/// Work that may nest more than `inlineNestingLimit` levels therefore moves to a dedicated thread.
enum LargeStack {
  /// Nesting that runs on the caller's stack.
  static let inlineNestingLimit = 8
  /// Tree height that tree walkers (the printer) handle on the caller's stack; they recurse less per level.
  static let inlineTreeHeightLimit = 48
  /// The stack of the dedicated thread.
  static let stackSize = 256 << 20

  static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
    let box = Box<Value>()
    let finished = DispatchSemaphore(value: 0)
    let thread = Thread {
      box.value = body()
      finished.signal()
    }
    thread.stackSize = stackSize
    thread.start()
    finished.wait()
    // The semaphore orders the write before this read.
    return box.value ?? body()
  }

  private final class Box<Value>: @unchecked Sendable {
    var value: Value?
  }
}
