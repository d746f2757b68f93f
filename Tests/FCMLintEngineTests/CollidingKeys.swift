@testable import FCMLintJSON

/// `count` keys ("k0", "k1", ...) whose member-table probes in the root object all start at one
/// slot of a 128-slot table: enough of them make the document give its table up.
func collidingRootKeys(_ count: Int) -> [String] {
  var keys: [String] = []
  var i = 0
  while keys.count < count {
    let key = "k\(i)"
    let hash = Array(key.utf8).withUnsafeBufferPointer(JSONDocument.memberHash)
    if JSONDocument.MemberSlot.start(hash, JSONDocument.root) & 127 == 5 { keys.append(key) }
    i += 1
  }
  return keys
}
