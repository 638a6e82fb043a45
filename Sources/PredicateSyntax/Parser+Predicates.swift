// The predicate levels of the grammar: OR, AND, NOT, the primary predicates and comparisons.

extension Parser {
  /// The predicate an operand must be here, or an error asking for the comparison operator it lacks.
  /// Takes the operand, so the predicate moves out without a copy.
  /// Inlined, its error out of line (`missingComparisonOperator`): the call cost more than the test.
  @inline(__always)
  mutating func requirePredicate(_ operand: consuming Operand)
    throws(PredicateSyntaxError) -> Parsed<Predicate>
  {
    switch consume operand {
    case .predicate(let predicate): return predicate
    case .expression: throw missingComparisonOperator()
    }
  }

  private func missingComparisonOperator() -> PredicateSyntaxError {
    if tokens[index].isEndOfInput {
      return error(
        .unexpectedToken, "expected a comparison operator such as '==' or 'IN', found end of input")
    }
    return error(
      .unexpectedToken, "expected a comparison operator such as '==' or 'IN', found \(describe(current))")
  }

  @inline(__always)
  var atOr: Bool { tokens[index].isKeyword(.or) || tokens[index].isPunctuation(.bars) }
  @inline(__always)
  var atAnd: Bool { tokens[index].isKeyword(.and) || tokens[index].isPunctuation(.ampersands) }
  @inline(__always)
  var atNot: Bool { tokens[index].isKeyword(.not) || tokens[index].isPunctuation(.bang) }

  /// `disjunction ::= conjunction ( ( "OR" | "||" ) conjunction )*`
  mutating func parseOr() throws(PredicateSyntaxError) -> Operand {
    try parseChain(.or)
  }

  /// `conjunction ::= negation ( ( "AND" | "&&" ) negation )*`
  mutating func parseAnd() throws(PredicateSyntaxError) -> Operand {
    try parseChain(.and)
  }

  /// One operand of a `link` chain: a conjunction in a disjunction, a negation in a conjunction.
  mutating func parseOperand(of link: Link) throws(PredicateSyntaxError) -> Operand {
    switch link {
    case .or:
      // Most clauses of a disjunction are one comparison: read it without the conjunction and negation
      // levels, and enter the conjunction with it as its first operand only when `AND` follows.
      if atNot { return try parseAnd() }
      let restart = (index, nextArgument)
      let first = try parsePrimaryPredicate()
      guard atAnd else { return first }
      return try parseChain(.and, after: first, restart: restart)
    case .and: return try parseNot()
    }
  }

  @inline(__always)
  func at(_ link: Link) -> Bool {
    switch link {
    case .or: atOr
    case .and: atAnd
    }
  }

  /// The operands of one `OR` or `AND` chain joined in order.
  ///
  /// The tree nests to the left, as `NSCompoundPredicate` builds it and as the printer writes back without
  /// parentheses, and is built so as the operands are read (no array of operands). A chain too long for the
  /// depth limit that way is not deep nesting, only many clauses: it is read again from its start into
  /// `parseBalancedChain`.
  mutating func parseChain(_ link: Link) throws(PredicateSyntaxError) -> Operand {
    let restart = (index, nextArgument)
    let first = try parseOperand(of: link)
    guard at(link) else { return first }
    return try parseChain(link, after: first, restart: restart)
  }

  /// The rest of a `link` chain whose first operand, `first`, was read from `restart` (index and format
  /// argument) on; the next token is the link.
  mutating func parseChain(
    _ link: Link, after first: consuming Operand, restart: (Int, Int)
  ) throws(PredicateSyntaxError) -> Operand {
    var left = try requirePredicate(first)
    while at(link) {
      advance()
      let right = try requirePredicate(parseOperand(of: link))
      let height = Swift.max(left.height, right.height) + 1
      guard height <= maximumDepth else {
        // Rare (a chain of more clauses than the depth limit): parsing again is simpler than unpicking.
        (index, nextArgument) = restart
        return .predicate(try parseBalancedChain(link))
      }
      let joined = range(range(of: left), range(of: right))
      left = Parsed(node: builder.compound(link, left.node, right.node, range: joined), height: height)
    }
    return .predicate(left)
  }

  /// A chain whose left-nested tree would exceed the depth limit, joined as a balanced tree instead: `log2` of
  /// its length deep, which every recursive consumer (printer, evaluators, `==`, releasing the tree)
  /// handles. The grouping changes nothing else: `AND` and `OR` are associative and both groupings evaluate
  /// the operands left to right, and the printed balanced tree (its inner groups in parentheses) parses back
  /// to the same tree.
  mutating func parseBalancedChain(_ link: Link) throws(PredicateSyntaxError) -> Parsed<Predicate> {
    var operands = [try requirePredicate(parseOperand(of: link))]
    while at(link) {
      advance()
      operands.append(try requirePredicate(parseOperand(of: link)))
    }
    return try balancedChain(operands[...], link)
  }

  mutating func balancedChain(_ operands: ArraySlice<Parsed<Predicate>>, _ link: Link)
    throws(PredicateSyntaxError) -> Parsed<Predicate>
  {
    // Never empty: a chain has at least two operands, and halves of two or more are not empty.
    if operands.count == 1 { return operands[operands.startIndex] }
    let middle = operands.startIndex + operands.count / 2
    let left = try balancedChain(operands[..<middle], link)
    let right = try balancedChain(operands[middle...], link)
    let joined = range(range(of: left), range(of: right))
    let height = Swift.max(left.height, right.height) + 1
    return try checked(builder.compound(link, left.node, right.node, range: joined), height: height)
  }

  /// `negation ::= ( "NOT" | "!" ) negation | primaryPredicate`
  mutating func parseNot() throws(PredicateSyntaxError) -> Operand {
    guard atNot else { return try parsePrimaryPredicate() }
    let not = advance()
    try enter()
    let negatedOperand = try parseNot()
    let operand = try requirePredicate(consume negatedOperand)
    leave()
    let height = operand.height + 1
    let whole = range(not.span, range(of: operand))
    return .predicate(try checked(builder.not(operand.node, range: whole), height: height))
  }

  ///     primaryPredicate ::= "TRUEPREDICATE" | "FALSEPREDICATE" | "(" predicate ")" | comparison
  ///     comparison       ::= quantifier? expression comparisonOperator comparisonOptions? expression
  ///
  /// A `(` may open a predicate or an expression (`(a + b) * 2 > 3`); without a comparison operator the
  /// result is an expression, which the caller rejects or uses.
  mutating func parsePrimaryPredicate() throws(PredicateSyntaxError) -> Operand {
    let token = current
    switch token.kind {
    case .keyword(.truePredicate):
      advance()
      return .predicate(try checked(builder.constantPredicate(true, range: token.span), height: 1))
    case .keyword(.falsePredicate):
      advance()
      return .predicate(try checked(builder.constantPredicate(false, range: token.span), height: 1))
    case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
      let quantifier = try parseQuantifier()
      let lhs = try parseExpression()
      guard let op = comparisonOperator else { return .predicate(try requirePredicate(.expression(lhs))) }
      return .predicate(try parseComparison(quantifier: quantifier, lhs: lhs, op: op, start: token.span))
    case .punctuation(.openParenthesis):
      advance()
      try enter()
      let inner = try parseOr()
      let close = try expectClosing(.closeParenthesis, openedBy: token)
      leave()
      switch inner {
      case .predicate(let grouped):
        // A node's range covers the parentheses around it, so a parent's range is exactly its text.
        builder.setSpan(range(token.span, close.span), of: grouped.node)
        return .predicate(grouped)
      case .expression(let grouped):
        // `(a + b) * 2 > 3`: the group was an expression; keep parsing the comparison it begins.
        builder.setSpan(range(token.span, close.span), of: grouped.node)
        let lhs = try parseExpression(seed: grouped)
        guard let op = comparisonOperator else { return .expression(lhs) }
        return .predicate(try parseComparison(quantifier: nil, lhs: lhs, op: op, start: token.span))
      }
    default:
      let lhs = try parseExpression()
      // The operator is looked at before `lhs` is passed on: passed to a call that might hand it back, the
      // generic `Parsed` value was copied through its value witnesses (about 150 instructions a comparison).
      guard let op = comparisonOperator else { return .expression(lhs) }
      let start = range(of: lhs)
      return .predicate(try parseComparison(quantifier: nil, lhs: lhs, op: op, start: start))
    }
  }

  /// `quantifier ::= "ANY" | "SOME" | "ALL" | "NONE"`: exactly one.
  ///
  /// Inlined, its error out of line (`secondQuantifier`): the call cost more than the switch.
  @inline(__always)
  mutating func parseQuantifier() throws(PredicateSyntaxError) -> Quantifier {
    let token = advance()
    let quantifier: Quantifier =
      switch token.kind {
      case .keyword(.any): .any
      case .keyword(.some): .some
      case .keyword(.all): .all
      default: .none
      }
    switch tokens[index].kind {
    case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
      throw secondQuantifier(after: token)
    default:
      return quantifier
    }
  }

  private func secondQuantifier(after token: Token) -> PredicateSyntaxError {
    error(
      .unexpectedToken, "a comparison takes one quantifier; \(describe(current)) follows \(describe(token))")
  }

  ///     comparisonOperator ::= "=" | "==" | "!=" | "<>" | "<" | "<=" | "=<" | ">" | ">=" | "=>"
  ///                          | "BETWEEN" | "IN" | "CONTAINS" | "BEGINSWITH" | "ENDSWITH" | "LIKE"
  ///                          | "MATCHES" | "UTI-CONFORMS-TO" | "UTI-EQUALS"
  ///
  /// Static, and the property below inlined: a method call on the parser from a mutating method copies the
  /// parser first.
  @inline(__always)
  static func comparisonOperator(_ kind: Token.Kind) -> ComparisonOperator? {
    switch kind {
    case .punctuation(.equal), .punctuation(.singleEqual): .equalTo
    case .punctuation(.notEqual), .punctuation(.lessGreater): .notEqualTo
    case .punctuation(.less): .lessThan
    case .punctuation(.lessEqual), .punctuation(.equalLess): .lessThanOrEqualTo
    case .punctuation(.greater): .greaterThan
    case .punctuation(.greaterEqual), .punctuation(.equalGreater): .greaterThanOrEqualTo
    case .keyword(.between): .between
    case .keyword(.in): .in
    case .keyword(.contains): .contains
    case .keyword(.beginsWith): .beginsWith
    case .keyword(.endsWith): .endsWith
    case .keyword(.like): .like
    case .keyword(.matches): .matches
    case .keyword(.utiConformsTo): .utiConformsTo
    case .keyword(.utiEquals): .utiEquals
    default: nil
    }
  }

  @inline(__always)
  var comparisonOperator: ComparisonOperator? { Parser.comparisonOperator(tokens[index].kind) }

  /// `op[options] rhs` after `lhs`, where the next token is `op`, the comparison operator.
  mutating func parseComparison(
    quantifier: Quantifier?, lhs: consuming Parsed<Expression>, op: ComparisonOperator, start: TokenSpan
  ) throws(PredicateSyntaxError) -> Parsed<Predicate> {
    let operatorToken = advance()
    var operatorRange = operatorToken.span
    var comparisonOptions: ComparisonOptions = []
    if let open = consume(.openBracket) {
      comparisonOptions = try parseComparisonOptions()
      let close = try expectClosing(.closeBracket, openedBy: open)
      operatorRange = range(operatorRange, close.span)
    }
    let rhs = try parseExpression()
    let height = Swift.max(lhs.height, rhs.height) + 1
    let comparison = builder.comparison(
      quantifier: quantifier, lhs: lhs.node, op: op, options: comparisonOptions, rhs: rhs.node,
      operatorRange: operatorRange, range: range(start, range(of: rhs)))
    return try checked(comparison, height: height)
  }

  /// `comparisonOptions ::= "[" OptionLetters "]"`, after `[`; `OptionLetters ::= [cdnlCDNL]+`.
  mutating func parseComparisonOptions() throws(PredicateSyntaxError) -> ComparisonOptions {
    let token = current
    guard case .identifier = token.kind else {
      throw error(
        .invalidComparisonOption,
        "expected comparison options such as 'c', 'd' or 'cd', found \(describe(token))")
    }
    var result: ComparisonOptions = []
    // Option letters are ASCII (an identifier token): lower-cased byte by byte.
    for byte in bytes[token.range.byteRange] {
      let letter = Character(Unicode.Scalar((0x41...0x5A).contains(byte) ? byte + 32 : byte))
      switch letter {
      case "c": result.insert(.caseInsensitive)
      case "d": result.insert(.diacriticInsensitive)
      case "n": result.insert(.normalized)
      case "l": result.insert(.localeSensitive)
      default:
        throw error(
          .invalidComparisonOption, "unknown comparison option '\(letter)'; the options are c, d, n and l")
      }
    }
    advance()
    return result
  }
}
