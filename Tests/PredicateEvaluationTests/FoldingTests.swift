import Foundation
import Testing

@testable import PredicateEvaluation

/// `UnicodeFolding` against Foundation's `folding(options:locale:)`, which RuleKit no longer links.
@Suite("Unicode folding")
struct FoldingTests {
  /// The blocks predicates meet in type identifiers, file names and titles: Latin, Greek, Cyrillic,
  /// punctuation, symbols, ligatures, fullwidth forms.
  static let scalars: [Unicode.Scalar] =
    (Array(0x80...0x52F) + Array(0x1E00...0x2BFF) + Array(0xFB00...0xFB06) + Array(0xFF01...0xFF5E))
    .compactMap(Unicode.Scalar.init).filter {
      $0.properties.generalCategory != .unassigned && $0.properties.generalCategory != .surrogate
    }

  /// Where Foundation's tables are older or odd: U+0344 alone (a mark decomposing to two marks) and the
  /// zero-width non-joiner, which Foundation drops after a letter.
  static let knownDifferences: Set<String> = ["\u{344}", "a\u{200C}"]

  @Test(
    "[c], [d] and [cd] fold every scalar of the common blocks as Foundation does, alone and after a letter",
    arguments: [(true, false), (false, true), (true, true)])
  func matchesFoundation(foldsCase: Bool, foldsDiacritics: Bool) {
    var options: String.CompareOptions = []
    if foldsCase { options.insert(.caseInsensitive) }
    if foldsDiacritics { options.insert(.diacriticInsensitive) }
    var differences: [String] = []
    for scalar in Self.scalars {
      for text in [String(Character(scalar)), "a" + String(Character(scalar))]
      where !Self.knownDifferences.contains(text) {
        let ours = UnicodeFolding.fold(text, case: foldsCase, diacritics: foldsDiacritics)
        if ours != text.folding(options: options, locale: nil) {
          differences.append("U+" + String(scalar.value, radix: 16, uppercase: true))
        }
      }
    }
    #expect(differences.isEmpty, "\(differences.count) differ: \(differences.prefix(20))")
  }

  @Test(
    "folding examples",
    arguments: [
      ("Straße", true, false, "strasse"), ("ẞ", true, false, "ss"), ("ﬁle", true, false, "file"),
      ("ΣΊΣΥΦΟΣ", true, true, "σισυφοσ"), ("ı", true, false, "ı"), ("Ꭰ", true, false, "ꭰ"),
      ("Crème Brûlée", false, true, "Creme Brulee"), ("آ", false, true, "آ"), ("が", false, true, "が"),
      ("≠", false, true, "="), ("e\u{301}", false, true, "e"), ("\u{301}e", false, true, "\u{301}e"),
    ])
  func examples(text: String, foldsCase: Bool, foldsDiacritics: Bool, expected: String) {
    #expect(UnicodeFolding.fold(text, case: foldsCase, diacritics: foldsDiacritics) == expected)
  }
}
