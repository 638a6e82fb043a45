#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Writes values as an old-style (OpenStep) property list (Foundation reads the format but cannot write it);
/// ``OpenStepReader`` reads back everything it writes.
///
/// The format only has strings, data, arrays and dictionaries: integers and reals are written as their
/// text and booleans as `YES`/`NO` (so they read back as strings, as with Xcode's old files); dates are
/// refused.
enum OpenStepWriter {
  static func document(_ value: PropertyListValue) throws(PropertyListError) -> String {
    var output = ""
    try append(value, indent: "", to: &output)
    return output + "\n"
  }

  static func append(_ value: PropertyListValue, indent: String, to output: inout String)
    throws(PropertyListError)
  {
    let inner = indent + "    "
    switch value {
    case .string(let text): output += quoted(text)
    case .integer(let number): output += "\(number)"
    case .real(let number): output += quoted(PropertyListScalars.text(of: number))
    case .bool(let flag): output += flag ? "YES" : "NO"
    case .date:
      throw PropertyListError(
        .unsupportedValue, "an OpenStep property list cannot hold a date",
        hint: "store it as a string, or use XML")
    case .data(let data):
      output += "<" + data.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined() + ">"
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "()"
        return
      }
      output += "(\n"
      for (offset, element) in elements.enumerated() {
        output += inner
        try append(element, indent: inner, to: &output)
        output += offset == elements.count - 1 ? "\n" : ",\n"
      }
      output += indent + ")"
    case .dictionary(let dictionary):
      guard !dictionary.isEmpty else {
        output += "{}"
        return
      }
      output += "{\n"
      for entry in dictionary.entries {
        output += inner + quoted(entry.key) + " = "
        try append(entry.value, indent: inner, to: &output)
        output += ";\n"
      }
      output += indent + "}"
    }
  }

  static func quoted(_ text: String) -> String {
    // CoreFoundation's unquoted characters (no `+`: `+infinity` must be quoted); a leading `//` or `/*`
    // would read as a comment.
    let bare =
      !text.isEmpty && !text.hasPrefix("//") && !text.hasPrefix("/*")
      && text.utf8.allSatisfy { $0.isUnquotedStringByte }
    return bare ? text : OpenStepText.doubleQuoted(text)
  }
}

/// Writing OpenStep text (old-style plists, `project.pbxproj`) that any OpenStep reader reads back.
public enum OpenStepText {
  /// `text` in double quotes with `"`, `\`, newline, tab and carriage return escaped as `\"`, `\\`, `\n`,
  /// `\t`, `\r`, and other control characters as `\Uxxxx` (a raw NUL makes CoreFoundation take the file for
  /// UTF-16). Which strings may stay unquoted is the writer's choice (CoreFoundation's and Xcode's differ).
  public static func doubleQuoted(_ text: String) -> String {
    var output = "\""
    for scalar in text.unicodeScalars {
      switch scalar {
      case "\"": output += "\\\""
      case "\\": output += "\\\\"
      case "\n": output += "\\n"
      case "\t": output += "\\t"
      case "\r": output += "\\r"
      case "\u{0}"..."\u{1F}":
        let digits = String(scalar.value, radix: 16)
        output += "\\U" + String(repeating: "0", count: 4 - digits.count) + digits
      default: output.unicodeScalars.append(scalar)
      }
    }
    return output + "\""
  }
}
