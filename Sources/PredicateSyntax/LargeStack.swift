internal import CThreadStack

#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// Runs deeply recursive work on a thread with a large stack.
///
/// Recursion depth is already capped (`PredicateParser.Options.maximumDepth`), but a capped depth times the
/// frame size of an unoptimised build can still exceed the 512 KiB stacks of secondary threads on Darwin.
/// Work that may nest more than `inlineNestingLimit` levels therefore moves to a dedicated thread; the
/// parser first tries the caller's stack, checking `currentStackLimit()` at every level, and moves only when
/// the caller's stack runs short.
///
/// The thread is a POSIX thread that `run` joins: when `run` returns, the thread and everything it held
/// are gone. (A Foundation `Thread` releases its closure, and with it the result, some time after the work
/// signals completion; LeakSanitizer under libFuzzer reported that window as a leak.)
enum LargeStack {
  /// Nesting that runs on the caller's stack.
  static let inlineNestingLimit = 8
  /// Tree height that tree walkers (the printer) handle on the caller's stack; they recurse less per level.
  static let inlineTreeHeightLimit = 48
  /// The stack of the dedicated thread.
  static let stackSize = 256 << 20
  /// Stack kept free below a parse running on the caller's thread: more than the frames between two
  /// nesting levels, the leaf parsing and the error reporting below the deepest level need, even unoptimised.
  static let reserve: UInt = 256 << 10

  /// Whether work nesting `nesting` levels runs on the caller's stack without any check (shallow input).
  static func fitsOnCurrentStack(nesting: Int) -> Bool { nesting <= inlineNestingLimit }

  /// The lowest address recursion on the current thread may reach, leaving `reserve` free; `nil` when the
  /// thread's stack bounds are unknown. Deeper input first runs on the caller's stack, checking this limit
  /// at every nesting level, and moves to the dedicated thread only when it is reached: starting a thread
  /// costs more than parsing a typical rule.
  static func currentStackLimit() -> UInt? {
    guard let low = ThreadStack.lowestAddress() else { return nil }
    let limit = low + reserve
    return currentStackAddress() > limit ? limit : nil
  }

  /// An address just below the caller's frame, to compare against `currentStackLimit()` (stacks grow down).
  static func currentStackAddress() -> UInt { rulekit_current_stack_address() }

  static func run<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Value {
    let box = Box<Value>()
    let job = Job { box.value = body() }
    guard start(job) else { return body() }
    // `start` joined the thread, which ordered the write before this read.
    return box.value ?? body()
  }

  /// Runs `job` on a new thread with a `stackSize` stack and waits for it; false when no thread could start.
  private static func start(_ job: Job) -> Bool {
    var attributes = pthread_attr_t()
    guard pthread_attr_init(&attributes) == 0 else { return false }
    let context = Unmanaged.passRetained(job).toOpaque()
    var created = false
    var joined = false
    if pthread_attr_setstacksize(&attributes, stackSize) == 0 {
      #if canImport(Darwin)
        var thread: pthread_t?
        if pthread_create(&thread, &attributes, { largeStackThreadEntry($0) }, context) == 0, let thread {
          created = true
          joined = pthread_join(thread, nil) == 0
        }
      #else
        var thread = pthread_t()
        if pthread_create(&thread, &attributes, { largeStackThreadEntry($0) }, context) == 0 {
          created = true
          joined = pthread_join(thread, nil) == 0
        }
      #endif
    }
    pthread_attr_destroy(&attributes)
    // Once created, the thread owns the retain and releases it even if joining fails.
    if !created { Unmanaged<Job>.fromOpaque(context).release() }
    return joined
  }

  /// The work handed to the thread.
  fileprivate final class Job: @unchecked Sendable {
    let work: () -> Void
    init(_ work: @escaping () -> Void) { self.work = work }
  }

  private final class Box<Value>: @unchecked Sendable {
    var value: Value?
  }
}

/// The thread's entry point; takes the retain on the job that `LargeStack.start` passed. The parameter is
/// optional so one function fits both Darwin's and Glibc's start-routine signatures.
private func largeStackThreadEntry(_ context: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
  if let context {
    Unmanaged<LargeStack.Job>.fromOpaque(context).takeRetainedValue().work()
  }
  return nil
}

/// The bounds of the current thread's stack.
private enum ThreadStack {
  #if canImport(Darwin)
    static func lowestAddress() -> UInt? {
      var low: UInt = 0
      return rulekit_current_thread_stack_low(&low) == 0 ? low : nil
    }
  #else
    /// glibc finds the main thread's stack by reading /proc/self/maps, so each thread asks once and keeps
    /// the answer in thread-specific storage (the address itself is the stored value: nothing to free).
    private static let key: pthread_key_t? = {
      var key = pthread_key_t()
      return pthread_key_create(&key, nil) == 0 ? key : nil
    }()

    static func lowestAddress() -> UInt? {
      guard let key else { return nil }
      if let cached = pthread_getspecific(key) { return UInt(bitPattern: cached) }
      var low: UInt = 0
      guard rulekit_current_thread_stack_low(&low) == 0, let stored = UnsafeRawPointer(bitPattern: low) else {
        return nil
      }
      pthread_setspecific(key, stored)
      return low
    }
  #endif
}
