extension SystemTypeTable {
  /// The bundled declarations, parsed from the generated records: the reference table, then the additions.
  static var declarations: [TypeDeclaration] {
    parse(reference) + parse(additions)
  }

  /// Parses `identifier|parents|extensions|MIME types|description` records, one per line.
  static func parse(_ records: String) -> [TypeDeclaration] {
    var result: [TypeDeclaration] = []
    for line in records.split(separator: "\n", omittingEmptySubsequences: true) {
      let fields = line.split(separator: fieldSeparator, maxSplits: 4, omittingEmptySubsequences: false)
      guard fields.count == 5 else { continue }
      func items(_ field: Substring) -> [String] {
        field.split(separator: itemSeparator).map(String.init)
      }
      var tags: [TypeTagClass: [String]] = [:]
      let extensions = items(fields[2])
      let mimeTypes = items(fields[3])
      if !extensions.isEmpty { tags[.filenameExtension] = extensions }
      if !mimeTypes.isEmpty { tags[.mimeType] = mimeTypes }
      result.append(
        TypeDeclaration(
          identifier: String(fields[0]),
          conformsTo: items(fields[1]),
          tags: tags,
          typeDescription: String(fields[4]),
          origin: .system
        ))
    }
    return result
  }
}
