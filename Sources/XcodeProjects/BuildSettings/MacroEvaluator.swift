/// One assignment that can supply a setting's value, with the level it came from.
struct SettingCandidate: Sendable, Hashable {
  var assignment: BuildSettingAssignment
  /// Index into the levels, lowest first.
  var level: Int
}

/// Expands `$(…)` references the way swift-build's macro evaluation does
/// (SWBMacro/MacroExpressionParsing.swift, string form, and MacroEvaluationScope.swift):
///
/// - `$(NAME)` and `${NAME}` (deprecated, still accepted), `$NAME` for a bare `[A-Za-z_][A-Za-z0-9_]*`;
///   `$$` is a literal `$`, a `$` before anything else is literal.
/// - The name may itself hold references: `$(BUNDLE_ID_$(CONFIGURATION))`.
/// - `$(inherited)` is the next lower assignment of the setting being evaluated. `$(NAME)` inside NAME's own
///   value is the same thing, and so is a reference back to any setting being evaluated further out: Xcode
///   takes that setting's next lower value (`nextValueForMacro`), so a cycle `A = $(B)`, `B = $(A)` ends in
///   A's inherited value (often empty) instead of looping. Such a loop is reported, as it is rarely meant.
/// - A name nothing defines expands to the empty string.
/// - Operators apply left to right: `$(NAME:lower:rfc1034identifier)`, `$(NAME:default=x)`.
struct MacroEvaluator: Sendable {
  /// Nesting past this is cut off (each level is a setting being evaluated).
  static let maximumDepth = 200
  /// Lookups per top-level evaluation; stops `A = $(B)$(B)`, `B = $(C)$(C)`, … from running for ever.
  static let maximumLookups = 100_000

  /// Matching assignments per setting name, highest precedence first.
  let chains: [String: [SettingCandidate]]

  private struct Frame {
    var name: String
    var index: Int
  }

  /// What an evaluation ran into.
  struct Findings {
    var undefined: [String] = []
    var cycles: [[SettingCandidate]] = []
    var unknownOperators: [String] = []
    var hitLimit = false
    var lookups = 0
  }

  /// The expanded value of `name`, or `nil` when nothing assigns it.
  func value(of name: String, findings: inout Findings) -> String? {
    guard chains[name]?.isEmpty == false else { return nil }
    return lookup(name, frames: [], findings: &findings)
  }

  /// `text` expanded with no setting being evaluated.
  func expand(_ text: String, findings: inout Findings) -> String {
    let bytes = Array(text.utf8)
    var index = 0
    return expression(bytes, &index, stops: [], frames: [], findings: &findings)
  }

  private func lookup(_ name: String, frames: [Frame], findings: inout Findings) -> String {
    findings.lookups += 1
    guard findings.lookups <= Self.maximumLookups, frames.count < Self.maximumDepth else {
      findings.hitLimit = true
      return ""
    }
    var target = name
    var index = 0
    if name == "inherited" || name == "value" {
      guard let current = frames.last else { return "" }
      target = current.name
      index = current.index + 1
    } else if let outer = frames.lastIndex(where: { $0.name == name }) {
      index = frames[outer].index + 1
      if outer != frames.count - 1 {
        let loop = frames[outer...].compactMap { chains[$0.name]?[$0.index] }
        findings.cycles.append(loop)
      }
    }
    guard let chain = chains[target], index < chain.count else {
      if chains[target] == nil && name != "inherited" && name != "value" { findings.undefined.append(name) }
      return ""
    }
    let bytes = Array(chain[index].assignment.value.utf8)
    var position = 0
    return expression(
      bytes, &position, stops: [], frames: frames + [Frame(name: target, index: index)], findings: &findings)
  }

  /// Literal text and substitutions up to the end or one of `stops` (left at `index`).
  private func expression(
    _ bytes: [UInt8], _ index: inout Int, stops: [UInt8], frames: [Frame], findings: inout Findings
  ) -> String {
    var result: [UInt8] = []
    while index < bytes.count, !stops.contains(bytes[index]) {
      if bytes[index] == UInt8(ascii: "$") {
        result += substitution(bytes, &index, frames: frames, findings: &findings).utf8
      } else {
        result.append(bytes[index])
        index += 1
      }
    }
    return String(decoding: result, as: UTF8.self)
  }

  /// A substitution starting at the `$` at `index`.
  private func substitution(_ bytes: [UInt8], _ index: inout Int, frames: [Frame], findings: inout Findings)
    -> String
  {
    index += 1
    guard index < bytes.count else { return "$" }
    let opener = bytes[index]
    if opener == UInt8(ascii: "(") || opener == UInt8(ascii: "{") {
      let closer = opener == UInt8(ascii: "(") ? UInt8(ascii: ")") : UInt8(ascii: "}")
      index += 1
      let name = expression(
        bytes, &index, stops: [UInt8(ascii: ":"), closer], frames: frames, findings: &findings)
      var operators: [(name: String, operand: String?)] = []
      while index < bytes.count, bytes[index] == UInt8(ascii: ":") {
        index += 1
        let start = index
        while index < bytes.count, bytes[index].isMacroNameByte { index += 1 }
        let operatorName = String(decoding: bytes[start..<index], as: UTF8.self)
        if index < bytes.count, bytes[index] == UInt8(ascii: "=") {
          index += 1
          let operand = expression(
            bytes, &index, stops: [UInt8(ascii: ":"), closer], frames: frames, findings: &findings)
          operators.append((operatorName, operand))
        } else if index < bytes.count, bytes[index] == UInt8(ascii: ":") || bytes[index] == closer {
          operators.append((operatorName, nil))
        } else {
          // A character that cannot be in an operator name: swift-build skips to the next ':' or closer.
          while index < bytes.count, bytes[index] != UInt8(ascii: ":"), bytes[index] != closer { index += 1 }
          findings.unknownOperators.append(operatorName + "…")
        }
      }
      if index < bytes.count, bytes[index] == closer { index += 1 }
      guard !name.isEmpty else { return "" }
      var value = lookup(name, frames: frames, findings: &findings)
      for (operatorName, operand) in operators {
        if let operand {
          guard !value.isEmpty || MacroOperator.appliesToEmpty(replacement: operatorName) else { continue }
          if let replaced = MacroOperator.replace(operatorName, value, with: operand) {
            value = replaced
          } else {
            findings.unknownOperators.append(operatorName + "=")
          }
        } else if let retrieved = MacroOperator.retrieve(operatorName, value) {
          // An empty result stays empty (swift-build maps the operator over no list elements), except `not`.
          if !value.isEmpty || operatorName == "not" { value = retrieved }
        } else {
          findings.unknownOperators.append(operatorName)
        }
      }
      return value
    }
    if opener.isMacroNameStart {
      var nameBytes: [UInt8] = []
      while index < bytes.count, bytes[index].isMacroNameByte {
        nameBytes.append(bytes[index])
        index += 1
      }
      var name = String(decoding: nameBytes, as: UTF8.self)
      // swift-build's tolerance for `$NAME$(SUFFIX)`: the substitution becomes part of the name.
      if index + 1 < bytes.count, bytes[index] == UInt8(ascii: "$"), bytes[index + 1] == UInt8(ascii: "(") {
        name += substitution(bytes, &index, frames: frames, findings: &findings)
      }
      return lookup(name, frames: frames, findings: &findings)
    }
    if opener == UInt8(ascii: "$") { index += 1 }
    return "$"
  }
}
