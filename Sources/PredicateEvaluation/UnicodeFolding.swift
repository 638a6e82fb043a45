// The stdlib's canonical decomposition (`_nfd`) is SPI; swift-foundation and the string-processing module use
// the same one. It keeps `[d]` free of Foundation's `folding(options:locale:)`, which on Linux brings in
// CoreFoundation and ICU.
@_spi(_Unicode) import Swift

/// Case and diacritic folding for the `[c]` and `[d]` options and `CANONICAL`, as Foundation's
/// `folding(options:locale: nil)` does them, without Foundation.
///
/// Case folding lower-cases, and where the lower case still folds further (ß, ﬁ, ς) takes Unicode's full
/// folding (ss, fi, σ); dotless ı stays itself, as in Foundation. Diacritic folding removes the
/// nonspacing and enclosing marks that follow a character, and decomposes a precomposed letter (or a
/// character over a Latin-1 base, like ≠) whose marks are all diacritics (é → e, Å → A, ≠ → =), but not
/// letters whose marks are part of the letter in their script (Arabic آ, kana が, Devanagari ऩ).
/// `FoldingTests` checks every scalar from U+0080 to U+052F, U+1E00 to U+2BFF, the Latin ligatures and the
/// fullwidth forms against Foundation, alone and after a letter.
enum UnicodeFolding {
  /// `text` with case and/or diacritics folded.
  static func fold(_ text: String, case foldsCase: Bool, diacritics foldsDiacritics: Bool) -> String {
    var result = text
    if foldsDiacritics { result = withoutDiacritics(result) }
    if foldsCase { result = caseFolded(result) }
    return result
  }

  static func caseFolded(_ text: String) -> String {
    var folded = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let properties = scalar.properties
      guard scalar != "\u{131}", properties.changesWhenLowercased || properties.changesWhenCaseFolded else {
        folded.append(scalar)
        continue
      }
      let lower = String(scalar).lowercased()
      if lower.unicodeScalars.contains(where: \.properties.changesWhenCaseFolded) {
        folded.append(contentsOf: lower.uppercased().lowercased().unicodeScalars)
      } else {
        folded.append(contentsOf: lower.unicodeScalars)
      }
    }
    return String(folded)
  }

  static func withoutDiacritics(_ text: String) -> String {
    var stripped = String.UnicodeScalarView()
    for scalar in text.unicodeScalars {
      let category = scalar.properties.generalCategory
      if category == .nonspacingMark || category == .enclosingMark {
        // A mark after a character is dropped; one that starts the text has nothing to belong to.
        if !stripped.isEmpty { continue }
        stripped.append(scalar)
        continue
      }
      guard scalar.value >= 0xC0 else {
        stripped.append(scalar)
        continue
      }
      let decomposed = Array(String(scalar)._nfd)
      if decomposed.count > 1, scalar.properties.isAlphabetic || decomposed[0].value < 0x100,
        decomposed.dropFirst().allSatisfy(isDiacritic)
      {
        stripped.append(decomposed[0])
      } else {
        stripped.append(scalar)
      }
    }
    return String(stripped)
  }

  /// The combining diacritical mark blocks (and the Cyrillic ones), the marks a precomposed letter sheds.
  private static func isDiacritic(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar.value {
    case 0x300...0x36F, 0x483...0x489, 0x1AB0...0x1AFF, 0x1DC0...0x1DFF, 0x20D0...0x20FF, 0xFE20...0xFE2F:
      true
    default: false
    }
  }
}
