// The errors of a damaged or unsupported file, naming the object and its offset.

extension BinaryPropertyListReader {
  // MARK: Errors

  static let damageHint =
    "restore it from version control, or re-create it; plutil -lint shows whether Apple's tools can read it"

  /// The error for a file that is not a well-formed `bplist00`.
  static func damaged(_ detail: String) -> PropertyListError {
    PropertyListError(
      .malformed, "the binary property list (bplist00) is damaged: \(detail)", hint: damageHint)
  }

  func damaged(_ object: Int, _ offset: Int, _ detail: String) -> PropertyListError {
    Self.damaged("object \(object) at byte offset \(offset) \(detail)")
  }

  func unsupported(_ object: Int, _ offset: Int, _ detail: String) -> PropertyListError {
    PropertyListError(
      .unsupportedValue,
      "the binary property list cannot be read: object \(object) at byte offset \(offset) \(detail)",
      hint: "this is an archive or data file, not a property list RuleKit can edit; check the path")
  }

  func invalidMarker(_ marker: UInt8, object: Int, offset: Int) -> PropertyListError {
    damaged(object, offset, "has the marker byte 0x\(hex(marker)), which starts no bplist00 object")
  }

  func tooDeep(object: Int, offset: Int) -> PropertyListError {
    PropertyListError(
      .limitExceeded,
      "the binary property list nests arrays and dictionaries deeper than the limit of "
        + "\(PropertyListLimits.maximumDepth) levels (PropertyListLimits.maximumDepth), at object \(object) "
        + "at byte offset \(offset)",
      hint: "flatten the structure; no property list Apple reads nests this deep")
  }

  /// What an object's marker says it is, for a message.
  func describe(_ marker: UInt8) -> String {
    switch marker >> 4 {
    case 0x0: marker == 0x08 || marker == 0x09 ? "a boolean" : "marker 0x\(hex(marker))"
    case 0x1: "an integer"
    case 0x2: "a real"
    case 0x3: "a date"
    case 0x4: "data"
    case 0x8: "a UID"
    case 0xA: "an array"
    case 0xD: "a dictionary"
    default: "marker 0x\(hex(marker))"
    }
  }

  func hex<T: FixedWidthInteger>(_ value: T) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    let width = T.bitWidth / 4
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
  }
}
