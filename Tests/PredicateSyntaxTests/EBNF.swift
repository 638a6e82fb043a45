import Foundation
import TestSupport

/// A W3C EBNF grammar read from text: enough of the notation for `Grammar/Predicate.ebnf`.
struct EBNFGrammar {
  indirect enum Expression {
    case reference(String)
    case literal(String)
    /// `[...]` or `[^...]`, as inclusive scalar ranges.
    case characterClass(negated: Bool, ranges: [ClosedRange<UInt32>])
    case sequence([Expression])
    case choice([Expression])
    case optional(Expression)
    case zeroOrMore(Expression)
    case oneOrMore(Expression)
    /// `A - B`: what A matches except what B matches.
    case exclusion(Expression, Expression)
  }

  struct SyntaxError: Error, CustomStringConvertible {
    var description: String
  }

  /// Production names in file order, and their right-hand sides.
  private(set) var names: [String] = []
  private(set) var productions: [String: Expression] = [:]

  static func load(_ url: URL) throws -> EBNFGrammar {
    try EBNFGrammar(text: String(contentsOf: url, encoding: .utf8))
  }

  init(text: String) throws {
    var reader = Reader(scalars: Array(Self.removingComments(text).unicodeScalars))
    while true {
      reader.skipSpace()
      if reader.atEnd { break }
      let name = try reader.name()
      reader.skipSpace()
      try reader.expect("::=")
      let expression = try reader.choice()
      guard productions[name] == nil else { throw SyntaxError(description: "\(name) is defined twice") }
      names.append(name)
      productions[name] = expression
    }
    for (name, expression) in productions {
      for reference in Self.references(in: expression) where productions[reference] == nil {
        throw SyntaxError(description: "\(name) refers to undefined \(reference)")
      }
    }
  }

  static func isLexical(_ name: String) -> Bool { name.first?.isUppercase ?? false }

  static func references(in expression: Expression) -> [String] {
    switch expression {
    case .reference(let name): return [name]
    case .literal, .characterClass: return []
    case .sequence(let items), .choice(let items): return items.flatMap(references)
    case .optional(let inner), .zeroOrMore(let inner), .oneOrMore(let inner): return references(in: inner)
    case .exclusion(let base, let excluded): return references(in: base) + references(in: excluded)
    }
  }

  private static func removingComments(_ text: String) -> String {
    var result = ""
    var rest = Substring(text)
    while let start = rest.range(of: "/*") {
      result += rest[..<start.lowerBound]
      guard let end = rest[start.upperBound...].range(of: "*/") else { return result }
      rest = rest[end.upperBound...]
    }
    return result + rest
  }

  private struct Reader {
    let scalars: [Unicode.Scalar]
    var index = 0

    var atEnd: Bool { index >= scalars.count }
    var peek: Unicode.Scalar? { atEnd ? nil : scalars[index] }

    mutating func skipSpace() {
      while let scalar = peek, scalar.properties.isWhitespace { index += 1 }
    }

    mutating func expect(_ text: String) throws {
      for scalar in text.unicodeScalars {
        guard peek == scalar else { throw SyntaxError(description: "expected \(text) at \(index)") }
        index += 1
      }
    }

    mutating func name() throws -> String {
      var name = ""
      while let scalar = peek, scalar.properties.isAlphabetic || scalar == "_" || ("0"..."9").contains(scalar)
      {
        name.unicodeScalars.append(scalar)
        index += 1
      }
      guard !name.isEmpty else { throw SyntaxError(description: "expected a name at \(index)") }
      return name
    }

    /// True when the next thing is `Name ::=`, the start of the next production.
    private func atProductionStart() -> Bool {
      var probe = self
      guard (try? probe.name()) != nil else { return false }
      probe.skipSpace()
      return (try? probe.expect("::=")) != nil
    }

    mutating func choice() throws -> Expression {
      var alternatives = [try sequence()]
      while true {
        skipSpace()
        guard peek == "|" else { break }
        index += 1
        alternatives.append(try sequence())
      }
      return alternatives.count == 1 ? alternatives[0] : .choice(alternatives)
    }

    mutating func sequence() throws -> Expression {
      var items: [Expression] = []
      while true {
        skipSpace()
        guard let scalar = peek, scalar != "|", scalar != ")", !atProductionStart() else { break }
        var item = try postfixed()
        skipSpace()
        if peek == "-" {
          index += 1
          skipSpace()
          item = .exclusion(item, try postfixed())
        }
        items.append(item)
      }
      return items.count == 1 ? items[0] : .sequence(items)
    }

    mutating func postfixed() throws -> Expression {
      var item = try atom()
      while let scalar = peek {
        if scalar == "?" {
          item = .optional(item)
        } else if scalar == "*" {
          item = .zeroOrMore(item)
        } else if scalar == "+" {
          item = .oneOrMore(item)
        } else {
          break
        }
        index += 1
      }
      return item
    }

    mutating func atom() throws -> Expression {
      guard let scalar = peek else { throw SyntaxError(description: "unexpected end") }
      switch scalar {
      case "(":
        index += 1
        let inner = try choice()
        skipSpace()
        try expect(")")
        return inner
      case "\"", "'":
        index += 1
        var text = ""
        while let next = peek, next != scalar {
          text.unicodeScalars.append(next)
          index += 1
        }
        try expect(String(scalar))
        return .literal(text)
      case "[":
        return try characterClass()
      case "#":
        return .literal(String(try hexCharacter()))
      default:
        return .reference(try name())
      }
    }

    mutating func hexCharacter() throws -> Unicode.Scalar {
      try expect("#x")
      var digits = ""
      while let scalar = peek, scalar.properties.isASCIIHexDigit {
        digits.unicodeScalars.append(scalar)
        index += 1
      }
      guard let value = UInt32(digits, radix: 16), let scalar = Unicode.Scalar(value) else {
        throw SyntaxError(description: "bad #x at \(index)")
      }
      return scalar
    }

    mutating func classMember() throws -> Unicode.Scalar {
      if peek == "#" { return try hexCharacter() }
      guard let scalar = peek else { throw SyntaxError(description: "unterminated class") }
      index += 1
      return scalar
    }

    mutating func characterClass() throws -> Expression {
      try expect("[")
      var negated = false
      if peek == "^" {
        negated = true
        index += 1
      }
      var ranges: [ClosedRange<UInt32>] = []
      while peek != "]" {
        let low = try classMember()
        if peek == "-", index + 1 < scalars.count, scalars[index + 1] != "]" {
          index += 1
          let high = try classMember()
          ranges.append(low.value...high.value)
        } else {
          ranges.append(low.value...low.value)
        }
      }
      try expect("]")
      return .characterClass(negated: negated, ranges: ranges)
    }
  }
}

/// Derives random sentences from a grammar: syntactic productions join tokens with random whitespace,
/// lexical productions concatenate, letter-only literals get a random letter case.
struct SentenceGenerator {
  let grammar: EBNFGrammar
  var random: SeededGenerator
  /// Beyond this depth every choice takes its cheapest alternative, so derivations end.
  var maximumDepth = 16
  private var cost: [String: Int] = [:]
  /// Upper-cased words each exclusion production (`Identifier ::= Name - ReservedWord`) rules out.
  private var forbidden: [String: Set<String>] = [:]
  /// Characters of `alphabet` each negated class allows.
  private var allowedByClass: [[ClosedRange<UInt32>]: [Unicode.Scalar]] = [:]

  /// Characters tried for negated classes: no typographic quotes (see the String production).
  private static let alphabet: [Unicode.Scalar] = [
    "a", "Z", "0", "7", " ", "_", "-", ".", "(", ")", "*", "?", "%", "$", "@", "#", "é", "😀", "\t", "\n", "x",
    "u",
    "{", ",",
  ]

  init(grammar: EBNFGrammar, seed: UInt64) {
    self.grammar = grammar
    self.random = SeededGenerator(seed: seed)
    for name in grammar.names {
      if case .exclusion(_, let excluded) = grammar.productions[name] {
        forbidden[name] = Set(literals(in: excluded).map { $0.uppercased() })
      }
    }
    // Fixed point of the cheapest derivation depth of every production.
    var changed = true
    while changed {
      changed = false
      for name in grammar.names {
        guard let expression = grammar.productions[name] else { continue }
        if let value = minimumCost(expression), value + 1 < cost[name, default: Int.max] {
          cost[name] = value + 1
          changed = true
        }
      }
    }
  }

  private func minimumCost(_ expression: EBNFGrammar.Expression) -> Int? {
    switch expression {
    case .reference(let name): return cost[name]
    case .literal, .characterClass: return 0
    case .sequence(let items):
      var highest = 0
      for item in items {
        guard let value = minimumCost(item) else { return nil }
        highest = max(highest, value)
      }
      return highest
    case .choice(let items): return items.compactMap(minimumCost).min()
    case .optional, .zeroOrMore: return 0
    case .oneOrMore(let inner), .exclusion(let inner, _): return minimumCost(inner)
    }
  }

  /// A sentence of `start` and the tokens it is made of.
  mutating func sentence(_ start: String) -> String {
    var tokens: [String] = []
    derive(.reference(start), depth: 0, into: &tokens)
    var text = ""
    for (position, token) in tokens.enumerated() {
      if position > 0 { text += random.pick([" ", " ", " ", "\t", "\n", "  \n\t"]) }
      text += token
    }
    return text
  }

  private mutating func derive(_ expression: EBNFGrammar.Expression, depth: Int, into tokens: inout [String])
  {
    switch expression {
    case .reference(let name):
      guard let body = grammar.productions[name] else { return }
      if EBNFGrammar.isLexical(name) {
        tokens.append(lexical(body, depth: depth + 1))
      } else {
        derive(body, depth: depth + 1, into: &tokens)
      }
    case .literal(let text):
      tokens.append(randomCase(text))
    case .characterClass:
      tokens.append(lexical(expression, depth: depth))
    case .sequence(let items):
      for item in items { derive(item, depth: depth, into: &tokens) }
    case .choice(let items):
      derive(choose(items, depth: depth), depth: depth, into: &tokens)
    case .optional(let inner):
      if depth < maximumDepth && random.chance(0.4) { derive(inner, depth: depth, into: &tokens) }
    case .zeroOrMore(let inner):
      for _ in 0..<repetitions(depth: depth, minimum: 0) { derive(inner, depth: depth, into: &tokens) }
    case .oneOrMore(let inner):
      for _ in 0..<repetitions(depth: depth, minimum: 1) { derive(inner, depth: depth, into: &tokens) }
    case .exclusion:
      tokens.append(lexical(expression, depth: depth))
    }
  }

  private mutating func lexical(_ expression: EBNFGrammar.Expression, depth: Int) -> String {
    switch expression {
    case .reference(let name):
      guard let body = grammar.productions[name] else { return "" }
      if case .exclusion(let base, _) = body, let words = forbidden[name] {
        for _ in 0..<100 {
          let candidate = lexical(base, depth: depth + 1)
          if !words.contains(candidate.uppercased()) { return candidate }
        }
        return "fallback_name"
      }
      return lexical(body, depth: depth + 1)
    case .literal(let text):
      return text
    case .characterClass(let negated, let ranges):
      return String(Character(scalar(negated: negated, ranges: ranges)))
    case .sequence(let items):
      return items.map { lexical($0, depth: depth) }.joined()
    case .choice(let items):
      return lexical(choose(items, depth: depth), depth: depth)
    case .optional(let inner):
      return random.chance(0.5) ? lexical(inner, depth: depth) : ""
    case .zeroOrMore(let inner):
      return (0..<repetitions(depth: depth, minimum: 0)).map { _ in lexical(inner, depth: depth) }.joined()
    case .oneOrMore(let inner):
      return (0..<repetitions(depth: depth, minimum: 1)).map { _ in lexical(inner, depth: depth) }.joined()
    case .exclusion(let base, let excluded):
      let forbidden = Set(literals(in: excluded).map { $0.uppercased() })
      for _ in 0..<100 {
        let candidate = lexical(base, depth: depth)
        if !forbidden.contains(candidate.uppercased()) { return candidate }
      }
      return "fallback_name"
    }
  }

  private func literals(in expression: EBNFGrammar.Expression) -> [String] {
    switch expression {
    case .literal(let text): return [text]
    case .reference(let name): return grammar.productions[name].map(literals) ?? []
    case .choice(let items), .sequence(let items): return items.flatMap(literals)
    default: return []
    }
  }

  private mutating func choose(_ items: [EBNFGrammar.Expression], depth: Int) -> EBNFGrammar.Expression {
    guard depth >= maximumDepth else { return random.pick(items) }
    let cheapest = items.compactMap(minimumCost).min() ?? 0
    return random.pick(items.filter { minimumCost($0) == cheapest })
  }

  private mutating func repetitions(depth: Int, minimum: Int) -> Int {
    depth >= maximumDepth ? minimum : minimum + random.pick([0, 0, 0, 1, 1, 2])
  }

  private mutating func scalar(negated: Bool, ranges: [ClosedRange<UInt32>]) -> Unicode.Scalar {
    if negated {
      if let allowed = allowedByClass[ranges] { return random.pick(allowed) }
      let allowed = Self.alphabet.filter { scalar in !ranges.contains { $0.contains(scalar.value) } }
      allowedByClass[ranges] = allowed
      return random.pick(allowed)
    }
    let range = random.pick(ranges)
    let value = UInt32.random(in: range, using: &random)
    return Unicode.Scalar(value) ?? "a"
  }

  private mutating func randomCase(_ text: String) -> String {
    guard text.contains(where: \.isLetter) else { return text }
    switch Int.random(in: 0..<4, using: &random) {
    case 0: return text.lowercased()
    case 1: return text.prefix(1).uppercased() + text.dropFirst().lowercased()
    default: return text
    }
  }
}
