#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A value shared by threads behind a POSIX mutex.
///
/// Not `Synchronization.Mutex`: the standard library is not built for ThreadSanitizer, so the
/// sanitizer run in `.ci/run` cannot see that lock and reported every hand-over through it as a
/// race; it sees `pthread_mutex_lock`. A struct holding two pointers, not a generic class: a
/// generic class's layout is made at run time for each value type, with the metadata of every
/// type in the value, which a one-file run paid at its start. The mutex and the value live in
/// allocations of their own, whose addresses never move.
public struct Locked<Value>: ~Copyable, @unchecked Sendable {
  @usableFromInline let mutex: UnsafeMutablePointer<pthread_mutex_t>
  @usableFromInline let value: UnsafeMutablePointer<Value>

  public init(_ value: sending Value) {
    self.value = .allocate(capacity: 1)
    self.value.initialize(to: value)
    mutex = .allocate(capacity: 1)
    mutex.initialize(to: pthread_mutex_t())
    pthread_mutex_init(mutex, nil)
  }

  deinit {
    pthread_mutex_destroy(mutex)
    mutex.deinitialize(count: 1)
    mutex.deallocate()
    value.deinitialize(count: 1)
    value.deallocate()
  }

  @inlinable
  public borrowing func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    pthread_mutex_lock(mutex)
    defer { pthread_mutex_unlock(mutex) }
    return try body(&value.pointee)
  }
}
