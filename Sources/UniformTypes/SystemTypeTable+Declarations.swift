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
