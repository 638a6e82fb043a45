/// Evaluates the controlling expression of `#if` and `#elif` as cpp does, for the operators Info.plist
/// files use: `defined NAME`, `defined(NAME)`, integers, macro names (an undefined name is 0), unary
/// `!` `-` `+` `~`, `*` `/` `%` `+` `-`, comparisons, `==` `!=`, `&&` `||`, and parentheses.
struct PreprocessorExpression {
  /// Why an expression cannot be evaluated, and the byte offset in the expression text.
  struct Failure: Error {
    var message: String
    var offset: Int
  }

  enum Token: Equatable {
    case number(Int64)
    case identifier(String)
    case punctuator(String)
  }

  /// The tokens, each with its offset in the original expression text (expanded tokens take the offset
  /// of the name they came from).
  var tokens: [(token: Token, offset: Int)]
  var index = 0
  let definitions: [String: String]

  /// Evaluates `text` with `definitions` (`functionLike` names the macros that take arguments, which are
  /// not expanded here); nonzero is true.
  static func evaluate(_ text: String, definitions: [String: String], functionLike: Set<String> = [])
    throws(Failure) -> Bool
  {
    let raw = try tokenize(Array(text.utf8), baseOffset: 0)
    var expression = PreprocessorExpression(
      tokens: try expand(raw, definitions: definitions, functionLike: functionLike, expanding: []),
      definitions: definitions)
    guard !expression.tokens.isEmpty else { throw Failure(message: "#if with no expression", offset: 0) }
    let value = try expression.parseBinary(minimumPrecedence: 0)
    if expression.index < expression.tokens.count {
      let (token, offset) = expression.tokens[expression.index]
      throw Failure(message: "unexpected \(describe(token)) in the expression", offset: offset)
    }
    return value != 0
  }

  static func describe(_ token: Token) -> String {
    switch token {
    case .number(let number): "\(number)"
    case .identifier(let name): "'\(name)'"
    case .punctuator(let text): "'\(text)'"
    }
  }

  static let punctuators = [
    "&&", "||", "==", "!=", "<=", ">=", "<<", ">>", "!", "<", ">", "(", ")", "+", "-", "*", "/", "%", "~",
  ]

  static func tokenize(_ bytes: [UInt8], baseOffset: Int) throws(Failure) -> [(token: Token, offset: Int)] {
    var tokens: [(token: Token, offset: Int)] = []
    var index = 0
    while index < bytes.count {
      let byte = bytes[index]
      if byte == 32 || byte == 9 || byte == 13 || byte == 10 {
        index += 1
      } else if byte.isIdentifierStart {
        let start = index
        while index < bytes.count, bytes[index].isIdentifierStart || bytes[index].isDigit { index += 1 }
        tokens.append(
          (.identifier(String(decoding: bytes[start..<index], as: UTF8.self)), baseOffset + start))
      } else if byte.isDigit {
        let start = index
        while index < bytes.count, bytes[index].isIdentifierStart || bytes[index].isDigit { index += 1 }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        guard let number = integer(text) else {
          throw Failure(message: "'\(text)' is not an integer", offset: baseOffset + start)
        }
        tokens.append((.number(number), baseOffset + start))
      } else if let punctuator = punctuators.first(where: { bytes[index...].starts(with: $0.utf8) }) {
        tokens.append((.punctuator(punctuator), baseOffset + index))
        index += punctuator.utf8.count
      } else {
        let character = String(decoding: [byte], as: UTF8.self)
        throw Failure(
          message: "'\(character)' is not supported in the expression", offset: baseOffset + index)
      }
    }
    return tokens
  }

  /// A C integer literal (decimal, `0x` hexadecimal or `0` octal) with optional `u`/`l` suffixes.
  static func integer(_ text: String) -> Int64? {
    var digits = Substring(text)
    while let last = digits.last, "uUlL".contains(last) { digits = digits.dropLast() }
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      return UInt64(digits.dropFirst(2), radix: 16).map { Int64(bitPattern: $0) }
    }
    if digits.count > 1, digits.hasPrefix("0") { return Int64(digits.dropFirst(), radix: 8) }
    return Int64(digits)
  }

  /// Replaces object-like macro names by their definitions (recursively, a macro never inside itself, as
  /// cpp does), leaving the operands of `defined` alone.
  static func expand(
    _ tokens: [(token: Token, offset: Int)], definitions: [String: String], functionLike: Set<String>,
    expanding: Set<String>
  ) throws(Failure) -> [(token: Token, offset: Int)] {
    var result: [(token: Token, offset: Int)] = []
    var index = 0
    while index < tokens.count {
      let (token, offset) = tokens[index]
      if case .identifier("defined") = token {
        // `defined X` or `defined ( X )`: copied as is.
        let length = index + 1 < tokens.count && tokens[index + 1].token == .punctuator("(") ? 4 : 2
        result.append(contentsOf: tokens[index..<min(index + length, tokens.count)])
        index += length
        continue
      }
      if case .identifier(let name) = token, !expanding.contains(name), let body = definitions[name] {
        if functionLike.contains(name) {
          throw Failure(message: "function-like macro \(name) is not supported in #if", offset: offset)
        }
        let inner = try tokenize(Array(body.utf8), baseOffset: 0).map { (token: $0.token, offset: offset) }
        if inner.isEmpty {
          throw Failure(
            message: "\(name) is defined as nothing, so the expression has no value", offset: offset)
        }
        result.append(
          contentsOf: try expand(
            inner, definitions: definitions, functionLike: functionLike, expanding: expanding.union([name])))
      } else {
        result.append((token, offset))
      }
      index += 1
    }
    return result
  }

  static func precedence(_ operator: String) -> Int? {
    switch `operator` {
    case "||": 1
    case "&&": 2
    case "==", "!=": 3
    case "<", ">", "<=", ">=": 4
    case "<<", ">>": 5
    case "+", "-": 6
    case "*", "/", "%": 7
    default: nil
    }
  }

  mutating func parseBinary(minimumPrecedence: Int) throws(Failure) -> Int64 {
    var left = try parseUnary()
    while index < tokens.count, case .punctuator(let op) = tokens[index].token,
      let precedence = Self.precedence(op), precedence > minimumPrecedence
    {
      let offset = tokens[index].offset
      index += 1
      let right = try parseBinary(minimumPrecedence: precedence)
      left = try Self.apply(op, left, right, offset: offset)
    }
    return left
  }

  static func apply(_ op: String, _ left: Int64, _ right: Int64, offset: Int) throws(Failure) -> Int64 {
    switch op {
    case "||": return left != 0 || right != 0 ? 1 : 0
    case "&&": return left != 0 && right != 0 ? 1 : 0
    case "==": return left == right ? 1 : 0
    case "!=": return left != right ? 1 : 0
    case "<": return left < right ? 1 : 0
    case ">": return left > right ? 1 : 0
    case "<=": return left <= right ? 1 : 0
    case ">=": return left >= right ? 1 : 0
    case "<<": return left << (right & 63)
    case ">>": return left >> (right & 63)
    case "+": return left &+ right
    case "-": return left &- right
    case "*": return left &* right
    default:
      guard right != 0 else { throw Failure(message: "division by zero in the expression", offset: offset) }
      return op == "/"
        ? left.dividedReportingOverflow(by: right).partialValue
        : left.remainderReportingOverflow(dividingBy: right).partialValue
    }
  }

  mutating func parseUnary() throws(Failure) -> Int64 {
    guard index < tokens.count else {
      throw Failure(
        message: "the expression ends where a value was expected", offset: tokens.last?.offset ?? 0)
    }
    let (token, offset) = tokens[index]
    index += 1
    switch token {
    case .number(let number):
      return number
    case .identifier("defined"):
      let parenthesized = index < tokens.count && tokens[index].token == .punctuator("(")
      if parenthesized { index += 1 }
      guard index < tokens.count, case .identifier(let name) = tokens[index].token else {
        throw Failure(message: "'defined' needs a macro name", offset: offset)
      }
      index += 1
      if parenthesized {
        guard index < tokens.count, tokens[index].token == .punctuator(")") else {
          throw Failure(message: "missing ')' after 'defined(\(name)'", offset: offset)
        }
        index += 1
      }
      return definitions[name] != nil ? 1 : 0
    case .identifier:
      // A name left after expansion is not a macro: cpp reads it as 0.
      return 0
    case .punctuator("("):
      let value = try parseBinary(minimumPrecedence: 0)
      guard index < tokens.count, tokens[index].token == .punctuator(")") else {
        throw Failure(message: "missing ')' in the expression", offset: offset)
      }
      index += 1
      return value
    case .punctuator("!"): return try parseUnary() == 0 ? 1 : 0
    case .punctuator("-"): return 0 &- (try parseUnary())
    case .punctuator("+"): return try parseUnary()
    case .punctuator("~"): return ~(try parseUnary())
    case .punctuator(let text):
      throw Failure(message: "unexpected '\(text)' in the expression", offset: offset)
    }
  }
}

extension UInt8 {
  var isIdentifierStart: Bool {
    (self >= UInt8(ascii: "a") && self <= UInt8(ascii: "z"))
      || (self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z"))
      || self == UInt8(ascii: "_")
  }

  var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }
}
