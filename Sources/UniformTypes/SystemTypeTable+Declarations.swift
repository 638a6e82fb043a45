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

  /// The records' filename extensions and MIME types, lowercased, each with the ids of the records that
  /// declare it in record order: what `TypeGraph`'s tag look-ups need, read off the records' bytes without
  /// building every declaration (a tenth of the instructions of ``declarations``, which `lint` and `diff` would
  /// otherwise pay on their first tag look-up, a dynamic type's).
  static let tagIndex: [TypeTagClass: [String: [Int32]]] = {
    var extensions: [String: [Int32]] = [:]
    var mimeTypes: [String: [Int32]] = [:]
    extensions.reserveCapacity(2 * declaredCount)
    mimeTypes.reserveCapacity(declaredCount)
    var id: Int32 = 0
    for records in [reference, additions] {
      var text = records
      text.withUTF8 { bytes in
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
          let fields = line.split(separator: fieldSeparator, maxSplits: 4, omittingEmptySubsequences: false)
          guard fields.count == 5 else { continue }
          index(fields[2], of: id, into: &extensions)
          index(fields[3], of: id, into: &mimeTypes)
          id += 1
        }
      }
    }
    return [.filenameExtension: extensions, .mimeType: mimeTypes]
  }()

  /// Adds the items of a tag field, lowercased, to `index` as tags of `id` (once each).
  private static func index(
    _ field: Slice<UnsafeBufferPointer<UInt8>>, of id: Int32, into index: inout [String: [Int32]]
  ) {
    guard !field.isEmpty else { return }
    for item in field.split(separator: itemSeparator) {
      // Tags are ASCII but for a few; those go through `lowercased()` as `TypeGraph.index` does.
      let key =
        item.allSatisfy { $0 < 0x80 }
        ? String(decoding: item.map { (0x41...0x5A).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
        : string(item).lowercased()
      if index[key, default: []].last != id { index[key, default: []].append(id) }
    }
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
