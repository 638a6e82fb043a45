// FoundationEssentials has no `trimmingCharacters(in:)`; these are the two character sets the package trims.

extension StringProtocol {
  /// The text without its leading and trailing characters for which `isTrimmed` holds.
  package func trimming(while isTrimmed: (Character) -> Bool) -> SubSequence {
    guard let first = firstIndex(where: { !isTrimmed($0) }), let last = lastIndex(where: { !isTrimmed($0) })
    else { return self[endIndex...] }
    return self[first...last]
  }
}

extension Character {
  /// A space or a tab: what `CharacterSet.whitespaces` holds (general category Zs and U+0009).
  package var isSpaceOrTab: Bool {
    self == "\t" || unicodeScalars.first?.properties.generalCategory == .spaceSeparator
  }
}
