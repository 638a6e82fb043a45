/// Turns a `FormatArgument` into the expression a `%` specifier stands for.
enum FormatSubstitution {
  struct Substituted {
    var kind: ExpressionNode.Kind
    var height: Int
  }

  static func expression(
    for argument: FormatArgument, specifier: String, position: Int, range: SourceRange,
    warnings: [PredicateDiagnostic]
  ) throws(PredicateSyntaxError) -> Substituted {
    func mismatch() -> PredicateSyntaxError {
      PredicateSyntaxError(
        .formatArgumentMismatch,
        "argument \(position) is \(argument.kindDescription), which '%\(specifier)' cannot take",
        at: range, warnings: warnings)
    }
    guard let conversion = specifier.last else { throw mismatch() }
    switch conversion {
    case "@":
      guard let substituted = object(argument) else { throw mismatch() }
      return substituted
    case "K":
      let path: String
      switch argument {
      case .keyPath(let text), .string(let text): path = text
      default: throw mismatch()
      }
      guard let components = keyPathComponents(path) else {
        throw PredicateSyntaxError(
          .formatArgumentMismatch,
          "argument \(position) for '%K' is not a key path: \(path.debugDescription)",
          at: range, warnings: warnings)
      }
      return Substituted(kind: .keyPath(base: nil, components: components), height: 1)
    case "d", "i", "u", "o", "x", "X":
      switch argument {
      case .integer(let value): return constant(.integer(value))
      case .bool(let value): return constant(.integer(value ? 1 : 0))
      default: throw mismatch()
      }
    case "c", "C":
      switch argument {
      case .integer(let value):
        guard let scalar = Unicode.Scalar(UInt32(truncatingIfNeeded: value)) else { throw mismatch() }
        return constant(.string(String(Character(scalar))))
      case .string(let value) where value.count == 1: return constant(.string(value))
      default: throw mismatch()
      }
    case "f", "F", "e", "E", "g", "G", "a", "A":
      switch argument {
      case .double(let value): return constant(.double(value))
      case .integer(let value): return constant(.double(Double(value)))
      default: throw mismatch()
      }
    case "s", "S":
      guard case .string(let value) = argument else { throw mismatch() }
      return constant(.string(value))
    default:
      throw mismatch()
    }
  }

  private static func constant(_ value: Constant) -> Substituted {
    Substituted(kind: .constant(value), height: 1)
  }

  /// `%@`: any value except a key path.
  private static func object(_ argument: FormatArgument) -> Substituted? {
    switch argument {
    case .null: return constant(.null)
    case .bool(let value): return constant(.bool(value))
    case .integer(let value): return constant(.integer(value))
    case .double(let value): return constant(.double(value))
    case .string(let value): return constant(.string(value))
    case .date(let seconds):
      let kind = ExpressionNode.Kind.cast(
        ExpressionNode(.constant(.double(seconds))), type: ExpressionNode(.constant(.string("NSDate"))))
      return Substituted(kind: kind, height: 2)
    case .array(let elements):
      var nodes: [ExpressionNode] = []
      var height = 0
      for element in elements {
        guard let converted = object(element) else { return nil }
        nodes.append(ExpressionNode(converted.kind))
        height = Swift.max(height, converted.height)
      }
      return Substituted(kind: .aggregate(nodes), height: height + 1)
    case .keyPath: return nil
    }
  }

  /// `a.b.@count` → components, or nil when a component is not an identifier or `@identifier`.
  static func keyPathComponents(_ path: String) -> [KeyPathComponent]? {
    var components: [KeyPathComponent] = []
    for part in path.split(separator: ".", omittingEmptySubsequences: false) {
      let isOperator = part.hasPrefix("@")
      let name = isOperator ? part.dropFirst() : part
      guard let first = name.utf8.first, Lexer.isIdentifierStart(first),
        name.utf8.allSatisfy(Lexer.isIdentifierContinuation)
      else { return nil }
      components.append(isOperator ? .collectionOperator(String(name)) : .key(String(name)))
    }
    return components
  }
}
