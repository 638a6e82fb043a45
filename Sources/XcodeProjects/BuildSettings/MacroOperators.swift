/// The `$(NAME:op)` and `$(NAME:op=value)` operators, as swift-build implements them
/// (SWBMacro/MacroEvaluationProgram.swift, `MacroEvaluationRetrievalOperator` and
/// `MacroEvaluationReplacementOperator`; identifier mangling in SWBUtil/String.swift).
enum MacroOperator {
  /// Applies a retrieval operator (`:lower`); `nil` when Xcode has no operator of that name.
  static func retrieve(_ name: String, _ value: String) -> String? {
    switch name {
    case "lower": return value.lowercased()
    case "upper": return value.uppercased()
    case "identifier": return mangled(value, keeping: "_", replacement: "_")
    case "rfc1034identifier": return mangled(value, keeping: "-", replacement: "-")
    case "c99extidentifier": return c99ExtendedIdentifier(value)
    case "quote": return quoted(value)
    // `dir` keeps a trailing slash and gives `./` for a bare file name.
    case "dir":
      let directory = XcodePath.dirname(value)
      if directory.isEmpty { return "./" }
      return directory.hasSuffix("/") ? directory : directory + "/"
    case "file": return XcodePath.basename(value)
    case "base": return XcodePath.basename(XcodePath.removingExtension(value))
    case "suffix":
      let suffix = XcodePath.fileExtension(value)
      return suffix.isEmpty ? "" : "." + suffix
    case "standardizepath": return XcodePath.normalize(value)
    case "not": return value != "YES" ? "YES" : "NO"
    case "__stripslash": return value.hasPrefix("/") ? String(value.dropFirst()) : value
    default: return nil
    }
  }

  /// Applies a replacement operator (`:default=x`); `nil` when Xcode has no operator of that name.
  static func replace(_ name: String, _ value: String, with operand: String) -> String? {
    switch name {
    case "default": return value.isEmpty ? operand : value
    case "dir": return XcodePath.join(operand, XcodePath.basename(value))
    case "file": return XcodePath.join(XcodePath.dirname(value), operand)
    // swift-build appends "." and the old extension even when there was none.
    case "base":
      return XcodePath.join(XcodePath.dirname(value), operand) + "." + XcodePath.fileExtension(value)
    case "suffix":
      let suffix = operand.contains(".") ? XcodePath.fileExtension(operand) : operand
      return XcodePath.removingExtension(value) + "." + suffix
    case "relativeto": return relative(value, to: operand)
    default: return nil
    }
  }

  /// Whether the operator applies to an empty result (swift-build: only `default`).
  static func appliesToEmpty(replacement name: String) -> Bool { name == "default" }

  /// ASCII letters kept, `extra` kept, digits kept except first; every other character (a whole grapheme,
  /// as swift-build walks the decomposed string by `Character`) becomes `replacement`.
  private static func mangled(_ value: String, keeping extra: Character, replacement: Character) -> String {
    var result = ""
    for (offset, character) in value.enumerated() {
      if character.isASCII && character.isLetter || character == extra {
        result.append(character)
      } else if character.isASCII && character.isNumber && offset > 0 {
        result.append(character)
      } else {
        result.append(replacement)
      }
    }
    return result
  }

  /// Scalars outside C99's extended identifier characters become `_`, then a leading digit does too.
  /// swift-build lists C99 Annex D's ranges; alphabetic scalars and combining marks approximate them here.
  private static func c99ExtendedIdentifier(_ value: String) -> String {
    var scalars: [Unicode.Scalar] = value.unicodeScalars.map { scalar in
      if scalar.isASCII {
        let byte = UInt8(scalar.value)
        return byte.isMacroNameByte ? scalar : "_"
      }
      let properties = scalar.properties
      return properties.isAlphabetic || properties.generalCategory == .decimalNumber
        || properties.generalCategory == .nonspacingMark ? scalar : "_"
    }
    if let first = scalars.first, first.properties.generalCategory == .decimalNumber { scalars[0] = "_" }
    return String(String.UnicodeScalarView(scalars))
  }

  /// Backslash before whitespace, backslashes and quotes; `""` for the empty string (swift-build's
  /// `quotedStringListRepresentation`).
  private static func quoted(_ value: String) -> String {
    if value.isEmpty { return "\"\"" }
    var result = ""
    for character in value {
      if " \t\r\n\\\"'".contains(character) { result.append("\\") }
      result.append(character)
    }
    return result
  }

  /// `operand` relative to `value` when both are absolute; `value` unchanged otherwise.
  private static func relative(_ value: String, to operand: String) -> String {
    guard XcodePath.isAbsolute(value), XcodePath.isAbsolute(operand) else { return value }
    let from = XcodePath.normalize(value).split(separator: "/")
    let to = XcodePath.normalize(operand).split(separator: "/")
    var common = 0
    while common < from.count, common < to.count, from[common] == to[common] { common += 1 }
    let ups = Array(repeating: "..", count: from.count - common)
    let rest = to[common...].map(String.init)
    let joined = (ups + rest).joined(separator: "/")
    return joined.isEmpty ? "." : joined
  }
}

/// Glob matching for conditions (`iphoneos*`, `arm64?`): `*` any run, `?` one character.
enum ConditionGlob {
  static func matches(_ pattern: String, _ value: String) -> Bool {
    let pattern = Array(pattern)
    let value = Array(value)
    var p = 0
    var v = 0
    var star = -1
    var mark = 0
    while v < value.count {
      if p < pattern.count, pattern[p] == "?" || pattern[p] == value[v] {
        p += 1
        v += 1
      } else if p < pattern.count, pattern[p] == "*" {
        star = p
        mark = v
        p += 1
      } else if star >= 0 {
        p = star + 1
        mark += 1
        v = mark
      } else {
        return false
      }
    }
    while p < pattern.count, pattern[p] == "*" { p += 1 }
    return p == pattern.count
  }
}
