/// A command line read without swift-argument-parser, for the few lines that bypass it (`lint` in build
/// phases, `configure`): options with a value (`--name value`, `--name=value`), flags, and FILE operands.
/// Anything else — an unknown option, a repeated one, a value that looks like an option, a flag given a value —
/// makes the reader answer `nil`, and the line goes to the full parser, which words the error.
struct DirectArguments {
  /// Each option's value, by the name given; a repeatable option's values are in ``repeated`` instead.
  var values: [String: String] = [:]
  /// Every value of each repeatable option, in order.
  var repeated: [String: [String]] = [:]
  /// The flags given, by their canonical name.
  var flags: Set<String> = []
  /// FILE operands (`-` included), in order.
  var operands: [String] = []

  /// Reads `arguments` (after the subcommand's name).
  ///
  /// - Parameters:
  ///   - valued: The options that take a value.
  ///   - repeatable: Those of `valued` that may be given more than once.
  ///   - flags: Each flag's spellings, mapped to one canonical name (`-q` and `--quiet` to `--quiet`).
  ///   - takesOperands: Whether FILE operands are allowed.
  init?(
    _ arguments: ArraySlice<String>, valued: Set<String>, repeatable: Set<String> = [],
    flags flagNames: [String: String], takesOperands: Bool
  ) {
    var index = arguments.startIndex
    while index < arguments.endIndex {
      let argument = arguments[index]
      index += 1
      if argument == "-" || !argument.hasPrefix("-") {
        guard takesOperands else { return nil }
        operands.append(argument)
        continue
      }
      var name = argument
      var inline: String?
      if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
        name = String(argument[..<equals])
        inline = String(argument[argument.index(after: equals)...])
      }
      if valued.contains(name) {
        let value: String
        if let inline {
          value = inline
        } else {
          // A value that looks like an option is swift-argument-parser's to reject.
          guard index < arguments.endIndex, !arguments[index].hasPrefix("-") else { return nil }
          value = arguments[index]
          index += 1
        }
        if repeatable.contains(name) {
          repeated[name, default: []].append(value)
        } else {
          guard values.updateValue(value, forKey: name) == nil else { return nil }
        }
      } else if inline == nil, let flag = flagNames[name] {
        guard flags.insert(flag).inserted else { return nil }
      } else {
        return nil
      }
    }
  }
}
