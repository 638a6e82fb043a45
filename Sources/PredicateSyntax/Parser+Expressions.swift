// The expression levels of the grammar, loosest first: `:=`, set operators, `+ -`, `* /`, unary `-`, `**`,
// then the postfix `.key` and `[index]`.

extension Parser {
  /// A full expression. With `seed`, the already-parsed parenthesised group is its first operand.
  ///
  ///     expression    ::= assignment | setExpression
  ///     assignment    ::= Variable ":=" expression
  mutating func parseExpression(seed: Parsed<Expression>? = nil) throws(PredicateSyntaxError)
    -> Parsed<Expression>
  {
    if seed == nil, case .variable = tokens[index].kind, lookahead(1).isPunctuation(.assign) {
      let variable = advance()
      advance()
      try enter()
      let value = try parseExpression()
      leave()
      let height = value.height + 1
      let whole = range(variable.span, range(of: value))
      return try checked(
        builder.assignment(variable: variable, value: value.node, range: whole), height: height)
    }
    if seed == nil, !tokens[index].isPunctuation(.minus) {
      // Most operands are one postfix expression with no operator after it (`$a.b`, `"x"`, `{1, 2}`): read
      // it without the binary and unary levels, and pass it to them as the seed only when an operator
      // follows. The seed goes through the same steps as before (`parsePostfix` finds nothing more to
      // read), so the tree is the same.
      let operand = try parsePostfix(parsePrimary(), grouped: false)
      if !tokens[index].isPunctuation(.doubleStar), binaryOperator(tokens[index]) == nil { return operand }
      return try parseBinary(seed: operand, tighterThan: 0)
    }
    return try parseBinary(seed: seed, tighterThan: 0)
  }

  /// The three left-associative binary levels in one loop, by precedence (precedence climbing): an operand
  /// passes through one function instead of one per level.
  ///
  ///     setExpression  ::= additive ( setOperator additive )*
  ///     setOperator    ::= "UNION" | "INTERSECT" | "MINUS"
  ///     additive       ::= multiplicative ( ( "+" | "-" ) multiplicative )*
  ///     multiplicative ::= unary ( ( "*" | "/" ) unary )*
  ///
  /// Reads operators binding tighter than `precedence` (set operators 1, `+ -` 2, `* /` 3), so the right
  /// operand of an operator of precedence p is read with p: `a - b - c` is `(a - b) - c`.
  mutating func parseBinary(seed: Parsed<Expression>?, tighterThan precedence: Int)
    throws(PredicateSyntaxError) -> Parsed<Expression>
  {
    var left = try parseUnary(seed: seed)
    while let (kind, operatorPrecedence) = binaryOperator(tokens[index]), operatorPrecedence > precedence {
      advance()
      let right = try parseBinary(seed: nil, tighterThan: operatorPrecedence)
      let height = Swift.max(left.height, right.height) + 1
      let whole = range(range(of: left), range(of: right))
      let node: Expression =
        switch kind {
        case .set(let op): builder.setOperation(op, left.node, right.node, range: whole)
        case .arithmetic(let op): builder.arithmetic(op, left.node, right.node, range: whole)
        }
      left = try checked(node, height: height)
    }
    return left
  }

  /// A binary operator of the expression levels.
  enum BinaryOperator {
    case set(SetOperator)
    case arithmetic(ArithmeticOperator)
  }

  /// The binary operator `token` is, with its precedence, if it is one.
  @inline(__always)
  func binaryOperator(_ token: Token) -> (BinaryOperator, Int)? {
    switch token.kind {
    case .punctuation(.plus): (.arithmetic(.add), 2)
    case .punctuation(.minus): (.arithmetic(.subtract), 2)
    case .punctuation(.star): (.arithmetic(.multiply), 3)
    case .punctuation(.slash): (.arithmetic(.divide), 3)
    case .identifier: Parser.setOperator(bytes[token.range.byteRange]).map { (.set($0), 1) }
    default: nil
    }
  }

  /// The set operator an identifier's bytes, `word`, spell in any letter case, if any: compared on the bytes,
  /// since most tokens after an operand are not one.
  static func setOperator(_ word: Slice<UnsafeBufferPointer<UInt8>>) -> SetOperator? {
    for candidate in SetOperator.allCases where candidate.rawValue.utf8.count == word.count {
      if zip(word, candidate.rawValue.utf8).allSatisfy({ Keyword.asciiUppercased($0) == $1 }) {
        return candidate
      }
    }
    return nil
  }

  /// Unary minus and the power level in one function (an operand passes through one call, not two):
  ///
  ///     unary ::= "-" unary | power
  ///     power ::= postfix ( "**" unary )?
  ///
  /// `**` is right-associative, so `2 ** 3 ** 2` is `2 ** (3 ** 2)`. With `seed`, the parenthesised group is
  /// the base of the power.
  mutating func parseUnary(seed: Parsed<Expression>?) throws(PredicateSyntaxError)
    -> Parsed<Expression>
  {
    let left: Parsed<Expression>
    if let seed {
      left = try parsePostfix(seed, grouped: true)
    } else if tokens[index].isPunctuation(.minus) {
      let minus = advance()
      if let literal = try negativeLiteral(minus: minus) { return literal }
      try enter()
      let operand = try parseUnary(seed: nil)
      leave()
      let whole = range(minus.span, range(of: operand))
      let height = operand.height + 1
      return try checked(builder.negate(operand.node, range: whole), height: height)
    } else {
      left = try parsePostfix(parsePrimary(), grouped: false)
    }
    guard skip(.doubleStar) else { return left }
    try enter()
    let right = try parseUnary(seed: nil)
    leave()
    let height = Swift.max(left.height, right.height) + 1
    let whole = range(range(of: left), range(of: right))
    return try checked(builder.arithmetic(.power, left.node, right.node, range: whole), height: height)
  }

  /// `-5` reads as the constant -5 (so `-9223372036854775808` is `Int.min`), unless the number is the base
  /// of `**`, `.` or `[`, which bind tighter than unary minus: `-2 ** 2` is `-(2 ** 2)`.
  mutating func negativeLiteral(minus: Token) throws(PredicateSyntaxError) -> Parsed<Expression>? {
    let number = current
    let next = lookahead(1)
    if next.isPunctuation(.doubleStar) || next.isPunctuation(.dot) || next.isPunctuation(.openBracket) {
      return nil
    }
    let constant: Constant
    switch number.kind {
    case .integer(let magnitude):
      if magnitude <= UInt64(Int.max) {
        constant = .integer(-Int(magnitude))
      } else if magnitude == UInt64(Int.max) + 1 {
        constant = .integer(Int.min)
      } else {
        constant = .double(-Double(magnitude))
      }
    case .double(let value):
      constant = .double(-value)
    default:
      return nil
    }
    advance()
    return try checked(builder.constant(constant, range: range(minus.span, number.span)), height: 1)
  }

  ///     postfix ::= primary ( "." keyPathComponent | "[" index "]" )*
  ///     index   ::= "FIRST" | "LAST" | "SIZE" | expression
  ///
  /// `.key`, `.@operator` and `[index]` after a primary. Keys after a key path extend it (`a.b.c` is one
  /// key path) unless the key path was parenthesised: `(a).b` keeps `(a)` as its base.
  ///
  /// Inlined: most primaries have no postfix, and the test for one cost less than a call.
  @inline(__always)
  mutating func parsePostfix(_ primary: consuming Parsed<Expression>, grouped: Bool)
    throws(PredicateSyntaxError)
    -> Parsed<Expression>
  {
    guard tokens[index].isPunctuation(.dot) || tokens[index].isPunctuation(.openBracket) else {
      return primary
    }
    return try parsePostfixOperators(primary, grouped: grouped)
  }

  /// `parsePostfix` at a `.` or `[`.
  mutating func parsePostfixOperators(_ primary: consuming Parsed<Expression>, grouped: Bool)
    throws(PredicateSyntaxError)
    -> Parsed<Expression>
  {
    var result = primary
    var extendable = !grouped
    while true {
      if tokens[index].isPunctuation(.dot) {
        result = try parseKeys(after: result, extending: extendable)
        extendable = true
      } else if let open = consume(.openBracket) {
        let indexKind: IndexOperand
        var indexHeight = 0
        if (tokens[index].isKeyword(.first) || tokens[index].isKeyword(.last)
          || tokens[index].isKeyword(.size))
          && lookahead(1).isPunctuation(.closeBracket)
        {
          let keyword = advance()
          indexKind = keyword.isKeyword(.first) ? .first : keyword.isKeyword(.last) ? .last : .size
        } else {
          try enter()
          let subscriptExpression = try parseExpression()
          leave()
          indexHeight = subscriptExpression.height
          indexKind = .expression(subscriptExpression.node)
        }
        let close = try expectClosing(.closeBracket, openedBy: open)
        let height = Swift.max(result.height, indexHeight) + 1
        let whole = range(range(of: result), close.span)
        result = try checked(builder.index(result.node, indexKind, range: whole), height: height)
        extendable = true
      } else {
        return result
      }
    }
  }

  /// The run of `"." keyPathComponent` at the current `.`, as one key path node: on `base`, or extending
  /// `base` when it is a key path that may be extended.
  mutating func parseKeys(after base: consuming Parsed<Expression>, extending: Bool)
    throws(PredicateSyntaxError) -> Parsed<Expression>
  {
    let start = range(of: base)
    let baseHeight = base.height
    var draft = builder.beginKeyPath(after: base.node, extending: extending)
    while skip(.dot) {
      try appendKeyPathComponent(to: &draft)
    }
    let keyPath = builder.finishKeyPath(draft, range: range(start, previousSpan))
    return try checked(keyPath, height: draft.continues ? baseHeight : baseHeight + 1)
  }

  /// `keyPathComponent ::= Identifier | EscapedIdentifier | CollectionOperator`
  ///
  /// Inlined into `parseKeys`, and its errors are not: the call cost as much as the component.
  @inline(__always)
  mutating func appendKeyPathComponent(to draft: inout SyntaxTreeBuilder.KeyPathDraft)
    throws(PredicateSyntaxError)
  {
    let token = current
    switch token.kind {
    case .identifier where !isSelectorName(token), .escapedIdentifier, .keyword(.first), .keyword(.last),
      .keyword(.size):
      advance()
      builder.appendComponent(token, isOperator: false, to: &draft)
    case .collectionOperator:
      advance()
      builder.appendComponent(token, isOperator: true, to: &draft)
    default:
      throw keyPathComponentError(token)
    }
  }

  /// Why `token`, after a `.`, is no key path component.
  private func keyPathComponentError(_ token: Token) -> PredicateSyntaxError {
    switch token.kind {
    case .identifier:
      error(
        .unexpectedToken,
        "expected a key after '.', found the function name '\(text(of: token))'; a function call is not a key"
      )
    case .keyword:
      reservedWordError()
    default:
      error(.unexpectedToken, "expected a key or a collection operator after '.', found \(describe(token))")
    }
  }

  /// A reserved word where a key was expected, with the `#` escape as the fix.
  func reservedWordError() -> PredicateSyntaxError {
    let text = source(of: current)
    return error(
      .reservedWordAsIdentifier, "'\(text)' is a reserved word; write '#\(text)' to use it as a key",
      fix: PredicateFix(
        title: "insert #", range: SourceRange(start: current.range.start, end: current.range.start),
        replacement: "#"))
  }
}
