extension SystemTypeTable {
  /// The bundled declarations, parsed on first use: the reference table, then the additions. Interned id
  /// `i` of the system graph is `declarations[i]`.
  static let declarations: [TypeDeclaration] = parse(reference) + parse(additions)

  /// The identifiers of the records in order, read without parsing the other fields.
  static var recordIdentifiers: [String] {
    var identifiers: [String] = []
    identifiers.reserveCapacity(declaredCount)
    for records in [reference, additions] {
      var text = records
      text.withUTF8 { bytes in
        var lineStart = 0
        var index = 0
        while index < bytes.count {
          if bytes[index] == fieldSeparator {
            identifiers.append(string(bytes[lineStart..<index]))
            // Skip to the next line; a multi-line literal has no newline after its last line.
            while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { index += 1 }
            lineStart = index + 1
          }
          index += 1
        }
      }
    }
    return identifiers
  }

  /// The ids of the records declaring `key` (already lowercased) as a tag of `tagClass`, in record order: a
  /// binary search over the generated, sorted ``tags`` lines, so a tag look-up builds no index (building one
  /// from the records cost 4.9 M instructions, once per process, in every `lint` and `diff` that resolves a
  /// `dyn.` type).
  static func ids(forTag key: String, tagClass: TypeTagClass) -> [Int32] {
    let code: UInt8
    switch tagClass {
    case .filenameExtension: code = UInt8(ascii: "e")
    case .mimeType: code = UInt8(ascii: "m")
    default: return []
    }
    var key = key
    var text = tags
    return key.withUTF8 { key in
      text.withUTF8 { lines in
        guard let line = line(in: lines, code: code, tag: key) else { return [] }
        // The ids follow the tag and its separator.
        var ids: [Int32] = []
        var value: Int32 = 0
        for byte in lines[(line.tagEnd + 1)..<line.end] {
          if byte == itemSeparator {
            ids.append(value)
            value = 0
          } else {
            value = value * 10 + Int32(byte &- UInt8(ascii: "0"))
          }
        }
        ids.append(value)
        return ids
      }
    }
  }

  /// The line of `lines` whose class is `code` and whose tag is `tag`: where its tag ends (at the separator
  /// before the ids) and where the line ends.
  private static func line(
    in lines: UnsafeBufferPointer<UInt8>, code: UInt8, tag: UnsafeBufferPointer<UInt8>
  ) -> (tagEnd: Int, end: Int)? {
    let newline = UInt8(ascii: "\n")
    // Invariant: the line sought, if any, starts in low..<high, and low is a line start.
    var low = 0
    var high = lines.count
    while low < high {
      var start = low + (high - low) / 2
      while start > low && lines[start - 1] != newline { start -= 1 }
      var end = start
      while end < lines.count && lines[end] != newline { end += 1 }
      // `c|tag|ids`: compare the class, then the tag as bytes, a prefix first.
      let tagStart = start + 2
      var tagEnd = tagStart
      while tagEnd < end && lines[tagEnd] != fieldSeparator { tagEnd += 1 }
      let order: Int
      if lines[start] != code {
        order = lines[start] < code ? -1 : 1
      } else {
        order = compare(lines[tagStart..<tagEnd], tag)
      }
      if order == 0 { return (tagEnd, end) }
      if order < 0 { low = end + 1 } else { high = start }
    }
    return nil
  }

  /// -1, 0 or 1 as `a` sorts before, with or after `b`, byte by byte with a prefix first.
  private static func compare(
    _ a: Slice<UnsafeBufferPointer<UInt8>>, _ b: UnsafeBufferPointer<UInt8>
  ) -> Int {
    for (x, y) in zip(a, b) where x != y { return x < y ? -1 : 1 }
    return a.count == b.count ? 0 : (a.count < b.count ? -1 : 1)
  }

  /// Parses `identifier|parents|extensions|MIME types|description` records, one per line.
  ///
  /// Works on UTF-8 bytes rather than `Character`s: grapheme breaking would make loading several times
  /// slower, and every separator is ASCII.
  static func parse(_ records: String) -> [TypeDeclaration] {
    var text = records
    return text.withUTF8 { bytes in
      var result: [TypeDeclaration] = []
      result.reserveCapacity(bytes.count / 64)
      for line in bytes.split(separator: UInt8(ascii: "\n")) {
        let fields = line.split(separator: fieldSeparator, maxSplits: 4, omittingEmptySubsequences: false)
        guard fields.count == 5 else { continue }
        var tags: [TypeTagClass: [String]] = [:]
        let extensions = items(fields[2])
        let mimeTypes = items(fields[3])
        if !extensions.isEmpty { tags[.filenameExtension] = extensions }
        if !mimeTypes.isEmpty { tags[.mimeType] = mimeTypes }
        result.append(
          TypeDeclaration(
            identifier: string(fields[0]), conformsTo: items(fields[1]), tags: tags,
            typeDescription: string(fields[4]), origin: .system))
      }
      return result
    }
  }

  private static func items(_ field: Slice<UnsafeBufferPointer<UInt8>>) -> [String] {
    field.isEmpty ? [] : field.split(separator: itemSeparator).map(string)
  }

  private static func string(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
    String(decoding: UnsafeBufferPointer(rebasing: bytes), as: UTF8.self)
  }
}
