#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A POSIX mutex, for state that threads share; its owner keeps the state beside it.
///
/// Not `Synchronization.Mutex`: the standard library is not built for ThreadSanitizer, so the
/// sanitizer run in `.ci/run` cannot see that lock and reported every hand-over through it as a
/// race; it sees `pthread_mutex_lock`. Not a generic box holding the state either: a generic
/// class's layout is made at run time for each state type, with the metadata of every type in
/// the state, which a one-file run paid at its start. The mutex lives in its own allocation,
/// whose address never moves.
public struct POSIXLock: ~Copyable, @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>

  public init() {
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
  }

  @inlinable
  public borrowing func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body()
  }
}
