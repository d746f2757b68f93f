// A page saved as UTF-16 with a byte order mark, read as UTF-8 with each byte's place and written back.

import FCMLintEngine

/// A page saved as UTF-16 with a byte order mark (as Windows editors save one), read as UTF-8 so
/// that its samples are found and linted as in any page: each UTF-8 byte is mapped to the page's
/// byte it came from, so diagnostics and fixes land on the page's own bytes. The mark becomes
/// U+FEFF, which no column counts, as in a UTF-8 page; columns count UTF-16 units either way.
struct UTF16Page {
  let bigEndian: Bool
  /// The page as UTF-8 (a lone surrogate or a trailing odd byte as U+FFFD).
  let text: [UInt8]
  /// The page offset of each byte of `text`, and one more: the page's length.
  let origins: [Int]
  /// Whether `text` encodes back to exactly the page's bytes, so that a fixed page can be
  /// written in its own encoding.
  let exact: Bool

  /// nil when the page does not start with a UTF-16 byte order mark.
  init?(_ page: [UInt8]) {
    guard page.count >= 2 else { return nil }
    if page[0] == 0xFF, page[1] == 0xFE {
      bigEndian = false
    } else if page[0] == 0xFE, page[1] == 0xFF {
      bigEndian = true
    } else {
      return nil
    }
    let big = bigEndian
    func unit(_ i: Int) -> UInt32 { big ? UInt32(page[i]) << 8 | UInt32(page[i + 1]) : UInt32(page[i + 1]) << 8 | UInt32(page[i]) }
    var text: [UInt8] = []
    var origins: [Int] = []
    text.reserveCapacity(page.count)
    origins.reserveCapacity(page.count + 1)
    var exact = page.count % 2 == 0
    var i = 0
    while i + 1 < page.count {
      var value = unit(i)
      var width = 2
      if value >= 0xD800, value <= 0xDBFF, i + 3 < page.count, case let low = unit(i + 2), low >= 0xDC00, low <= 0xDFFF {
        value = 0x10000 + ((value - 0xD800) << 10) + (low - 0xDC00)
        width = 4
      } else if value >= 0xD800, value <= 0xDFFF {
        value = 0xFFFD
        exact = false
      }
      for byte in String(Character(Unicode.Scalar(value)!)).utf8 {
        text.append(byte)
        origins.append(i)
      }
      i += width
    }
    if i < page.count {
      text += [0xEF, 0xBF, 0xBD]
      origins += [i, i, i]
    }
    origins.append(page.count)
    self.text = text
    self.origins = origins
    self.exact = exact
  }

  /// `text` (UTF-8, from `self.text` edited) as the page writes it.
  func encode(_ text: [UInt8]) -> [UInt8] {
    var out: [UInt8] = []
    out.reserveCapacity(text.count * 2)
    for unit in String(decoding: text, as: UTF8.self).utf16 {
      if bigEndian {
        out += [UInt8(unit >> 8), UInt8(unit & 0xFF)]
      } else {
        out += [UInt8(unit & 0xFF), UInt8(unit >> 8)]
      }
    }
    return out
  }

  /// The page offset of `text` offset `offset`.
  func origin(_ offset: Int) -> Int { origins[max(0, min(offset, origins.count - 1))] }

  /// A diagnostic of `text` with the page's offsets (its lines and columns are the page's already).
  func placed(_ diagnostic: Diagnostic) -> Diagnostic {
    var d = diagnostic
    d.startOffset = origin(d.startOffset)
    d.endOffset = origin(d.endOffset)
    if let fix = d.fix {
      d.fix = Fix(description: fix.description, edits: fix.edits.map { edit in
        var edit = edit
        edit.start = origin(edit.start)
        edit.end = origin(edit.end)
        return edit
      })
    }
    return d
  }
}
