// The nesting limit, positions and the messages of syntax errors.

extension OpenStepReader {
  // MARK: Errors

  mutating func enterContainer(at start: Int) throws(PropertyListError) {
    depth += 1
    guard depth <= PropertyListLimits.maximumDepth else {
      throw PropertyListError(
        .limitExceeded,
        "arrays and dictionaries nested deeper than the limit of \(PropertyListLimits.maximumDepth) levels "
          + "(PropertyListLimits.maximumDepth)",
        position: position(start), hint: "flatten the structure; no property list Apple reads nests this deep"
      )
    }
  }

  func position(_ offset: Int) -> PropertyListPosition {
    lines.position(of: offset, in: bytes)
  }

  func error(at offset: Int, _ message: String, hint: String? = nil) -> PropertyListError {
    PropertyListError(
      .malformed, "OpenStep property list: " + message, position: position(offset), hint: hint)
  }

  /// The character at `index` for a message: `';'`, `'\u{…}'` spelled as U+XXXX for invisible ones.
  func describeHere() -> String {
    index < bytes.count ? describe(index) : "the end of the file"
  }

  func describe(_ offset: Int) -> String {
    let end = min(offset + utf8Length(of: bytes[offset]), bytes.count)
    guard let scalar = String(decoding: bytes[offset..<end], as: UTF8.self).unicodeScalars.first else {
      return "the end of the file"
    }
    if scalar.value < 0x21 || (0x7F...0xA0).contains(scalar.value)
      || scalar.properties.generalCategory == .format
    {
      let digits = String(scalar.value, radix: 16, uppercase: true)
      return "U+" + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
    return scalar == "'" ? "\"'\"" : "'\(scalar)'"
  }
}
