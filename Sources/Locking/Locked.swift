#if canImport(Darwin)
  import Darwin
#elseif canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#endif

/// A value that threads share, reached only while holding a POSIX mutex.
///
/// Why not the standard library's `Synchronization.Mutex`: on Linux it hands a contended lock from one
/// thread to the next inside the kernel (`FUTEX_LOCK_PI`/`FUTEX_UNLOCK_PI`), where ThreadSanitizer cannot
/// see the hand-over, so it reports every contended critical section as a race (CI's TSan run did, on the
/// compiled predicates' conformance memo). ThreadSanitizer intercepts `pthread_mutex_lock`, so with this
/// lock its reports are about RuleKit's code, not about the lock. The cost is one allocation per lock.
package final class Locked<Value> {
  private let mutex: UnsafeMutablePointer<pthread_mutex_t>
  private var value: Value

  /// Creates the lock around `value`.
  package init(_ value: Value) {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    // Default attributes cannot fail to initialize (POSIX lists only resource errors, which a default
    // mutex does not have on Linux or Darwin).
    let status = pthread_mutex_init(mutex, nil)
    precondition(status == 0, "pthread_mutex_init failed with \(status)")
    self.value = value
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  /// Runs `body` with the value while holding the lock; `body` must not call `withLock` on the same lock.
  package func withLock<Result, Failure: Error>(
    _ body: (inout Value) throws(Failure) -> Result
  ) throws(Failure) -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value)
  }
}

// The value is only reached under the lock, so sharing the box is as safe as sending the value.
extension Locked: @unchecked Sendable where Value: Sendable {}
