#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

extension POSIX {
  /// How a program started by `run` ended, and what it wrote to its standard output.
  public struct ProgramResult: Sendable {
    /// Its exit status, or nil when a signal ended it.
    public var exitStatus: Int32?
    public var output: [UInt8]
  }

  /// Runs `program` (a path, or a name looked up on PATH) with `arguments`, writes `input` to its
  /// standard input and closes it, then reads its standard output to the end and waits for it;
  /// its standard error is this process's. The program must read all of its input before it
  /// writes much (the input is written whole first). A program that stops reading early is no
  /// SIGPIPE for this process: the rest of the input is dropped.
  public static func run(_ program: String, _ arguments: [String], input: [UInt8]) -> Result<ProgramResult, SystemError> {
    var toChild: [Int32] = [0, 0], fromChild: [Int32] = [0, 0]
    guard pipe(&toChild) == 0 else { return .failure(.last) }
    guard pipe(&fromChild) == 0 else {
      let error = SystemError.last
      for fd in toChild { close(fd) }
      return .failure(error)
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, toChild[0], 0)
    posix_spawn_file_actions_adddup2(&actions, fromChild[1], 1)
    for fd in toChild + fromChild { posix_spawn_file_actions_addclose(&actions, fd) }
    // Each word as the bytes it stands for (a path given as a file name may hold any byte).
    let argv: [UnsafeMutablePointer<CChar>?] = ([program] + arguments).map { word in
      (FileName.bytes(word) + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { strdup($0.baseAddress!) } }
    } + [nil]
    defer { for pointer in argv { free(pointer) } }
    var pid: pid_t = 0
    let spawned =
      program.contains("/")
      ? posix_spawn(&pid, argv[0]!, &actions, nil, argv, environ) : posix_spawnp(&pid, argv[0]!, &actions, nil, argv, environ)
    close(toChild[0])
    close(fromChild[1])
    guard spawned == 0 else {
      close(toChild[1])
      close(fromChild[0])
      return .failure(SystemError(code: spawned))
    }
    let previous = signal(SIGPIPE, SIG_IGN)
    _ = write(input, to: toChild[1])
    signal(SIGPIPE, previous)
    close(toChild[1])
    let output = readAll(fromChild[0])
    close(fromChild[0])
    var status: Int32 = 0
    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
    let exitStatus: Int32? = status & 0x7f == 0 ? (status >> 8) & 0xff : nil
    switch output {
    case .success(let bytes): return .success(ProgramResult(exitStatus: exitStatus, output: bytes))
    case .failure(.system(let error)): return .failure(error)
    case .failure: return .failure(SystemError(code: EIO))
    }
  }

  /// The path of the running executable, where the system says it (Linux); nil elsewhere.
  public static func executablePath() -> String? {
    #if os(Linux)
    var buffer = [UInt8](repeating: 0, count: 4096)
    let count = buffer.withUnsafeMutableBytes { readlink("/proc/self/exe", $0.baseAddress!.assumingMemoryBound(to: CChar.self), $0.count - 1) }
    guard count > 0 else { return nil }
    return FileName.decode(buffer[..<count])
    #else
    return nil
    #endif
  }

  /// Whether `path` names a file this process may execute.
  public static func isExecutable(_ path: String) -> Bool { FileName.withPath(path) { access($0, X_OK) } == 0 }
}
