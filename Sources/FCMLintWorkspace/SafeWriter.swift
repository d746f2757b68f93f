import FCMLintSystem

/// Replaces a file's contents without ever leaving a half-written or mixed file: the new text goes
/// to a temporary file in the same folder (same file system, so the rename is atomic), is synced,
/// gets the original's permission bits, owner and group, and extended attributes (POSIX ACLs
/// among them on Linux), and is renamed over the original only if the original still holds
/// exactly what was read. A process killed at any moment leaves the original or the new text,
/// never a mix; at worst a hidden temporary file (`.fcmlint-XXXXXX`) stays beside it.
///
/// Refused, with the file left untouched: a read-only file (no write permission bit, or not
/// writable by this user), a file with other hard links (the rename would leave them with the old
/// text), a file whose owner, group or extended attributes this user cannot give the new one
/// (another user's file, writable through its group), a file that changed since it was read,
/// and any failed write or sync (a full disk). A symbolic link is fixed through: its target is
/// replaced and the link kept.
public enum SafeWriter {
  public struct Failure: Error, Sendable {
    public var path: String
    public var message: String
  }

  /// The system calls that write the temporary file, replaceable so tests can simulate a full disk.
  public typealias IO = POSIX.WriteCalls

  public static func replace(_ path: String, expecting original: [UInt8], with bytes: [UInt8], io: IO = .system) -> Failure? {
    // Through a symbolic link to the file it names: replacing the link itself would turn it into
    // a plain file.
    let target = resolvedPath(path) ?? path
    let info: POSIX.FileStatus
    switch POSIX.status(target) {
    case .success(let status): info = status
    case .failure(let error): return Failure(path: path, message: "cannot stat: \(error)")
    }
    guard info.kind == .file else { return Failure(path: path, message: "is not a regular file; left untouched") }
    let mode = info.permissions
    // Read-only means read-only, for root too (whom access(2) lets write anything).
    if mode & 0o222 == 0 || !POSIX.isWritable(target) {
      return Failure(path: path, message: "is read-only; not fixed, left untouched")
    }
    if info.links > 1 {
      return Failure(
        path: path,
        message: "has \(info.links) hard links, which replacing it would split (the other names would keep the old text); not fixed, left untouched")
    }
    let directory = target.contains("/") ? String(target[..<target.lastIndex(of: "/")!]) : "."
    let temporary: POSIX.TemporaryFile
    switch POSIX.TemporaryFile.create(in: directory.isEmpty ? "/" : directory) {
    case .success(let created): temporary = created
    case .failure(let error): return Failure(path: path, message: "cannot create a temporary file beside it (\(error)); the file is unchanged")
    }
    func abandon(_ message: String) -> Failure {
      temporary.discard()
      return Failure(path: path, message: message)
    }
    switch temporary.write(bytes, calls: io) {
    case nil: break
    case .system(let error)?: return abandon("cannot write (\(error)); the file is unchanged")
    case .noProgress?: return abandon("cannot write (no progress); the file is unchanged")
    }
    if let error = temporary.setPermissions(mode) { return abandon("cannot keep the file's permissions (\(error)); the file is unchanged") }
    // The owner and group stay: a fix must not hand someone's file over to whoever ran it.
    let me = POSIX.effectiveOwner
    if info.owner != me.user || info.group != me.group {
      guard temporary.setOwner(info.owner, group: info.group) == nil else {
        return abandon("belongs to user \(info.owner), group \(info.group), which a fixed copy made by this user cannot keep; not fixed, left untouched")
      }
      // chown clears the set-user and set-group bits: set the mode again.
      if let error = temporary.setPermissions(mode) { return abandon("cannot keep the file's permissions (\(error)); the file is unchanged") }
    }
    if let problem = temporary.copyExtendedAttributes(from: target) {
      return abandon("cannot keep its extended attributes or ACL (\(problem)); not fixed, left untouched")
    }
    if let error = temporary.sync(calls: io) { return abandon("cannot sync (\(error)); the file is unchanged") }
    temporary.close()
    // The file must still be what was linted: another writer may have changed it meanwhile.
    guard case .success(let current) = POSIX.readFile(target), current == original else {
      POSIX.remove(temporary.path)
      return Failure(path: path, message: "changed on disk while it was being fixed; left untouched")
    }
    if let error = temporary.rename(over: target) { return Failure(path: path, message: "cannot replace (\(error)); the file is unchanged") }
    // The rename is atomic; syncing the folder makes it durable too (after a power loss).
    POSIX.syncDirectory(directory.isEmpty ? "/" : directory)
    return nil
  }

  /// The path a symbolic link leads to (nil when `path` is no link, or the link is broken).
  static func resolvedPath(_ path: String) -> String? {
    guard case .success(let status) = POSIX.status(path, followingLinks: false), status.kind == .symbolicLink else { return nil }
    return POSIX.realPath(path)
  }
}
