// The primaries of the grammar that are not calls: groups, aggregates, constants, names and format arguments.

extension Parser {
  ///     primary ::= "(" expression ")" | aggregate | constant | Variable | "SELF" | "ANYKEY"
  ///               | Identifier | EscapedIdentifier | CollectionOperator
  ///               | subquery | cast | functionCall | ternary | builtinCall | FormatSpecifier
  ///
  /// The recursive primaries each get their own function, so the frame that recursion stacks up stays small
  /// even in unoptimised builds; the leaves are read by `parseAtom`.
  mutating func parsePrimary() throws(PredicateSyntaxError) -> Parsed<Expression> {
    switch tokens[index].kind {
    case .punctuation(.openParenthesis): return try parseGroup()
    case .punctuation(.openBrace): return try parseAggregate()
    case .keyword(.subquery): return try parseSubquery()
    case .keyword(.cast): return try parseCast()
    case .identifier where lookahead(1).isPunctuation(.openParenthesis):
      return try parseCall(name: text(of: tokens[index]))
    default: return try parseAtom()
    }
  }

  /// `"(" expression ")"`, then its postfix: a parenthesised key path keeps its own base, `(a).b`.
  mutating func parseGroup() throws(PredicateSyntaxError) -> Parsed<Expression> {
    let open = advance()
    try enter()
    let inner = try parseExpression()
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    let grouped = inner
    builder.setSpan(range(open.span, close.span), of: grouped.node)
    return try parsePostfix(grouped, grouped: true)
  }

  /// `aggregate ::= "{" ( expression ( "," expression )* )? "}"`
  mutating func parseAggregate() throws(PredicateSyntaxError) -> Parsed<Expression> {
    let open = advance()
    let (elements, height, close) = try parseList(closing: .closeBrace, openedBy: open)
    return try checked(builder.aggregate(elements, range: range(open.span, close.span)), height: height + 1)
  }

  /// The leaves of `primary`: `constant`, `Variable`, `"SELF"`, `"ANYKEY"`, `Identifier`, `EscapedIdentifier`,
  /// `CollectionOperator` and `FormatSpecifier`, where
  ///
  ///     constant ::= String | Number | "NULL" | "NIL" | "TRUE" | "YES" | "FALSE" | "NO"
  ///
  /// Inlined into `parsePrimary`, its errors built out of line (`atomError`): the call cost more than most
  /// leaves.
  @inline(__always)
  mutating func parseAtom() throws(PredicateSyntaxError) -> Parsed<Expression> {
    let token = current
    switch token.kind {
    case .plainString, .decodedString:
      advance()
      return try checked(builder.string(token), height: 1)
    case .integer(let magnitude):
      advance()
      let constant: Constant =
        magnitude <= UInt64(Int.max) ? .integer(Int(magnitude)) : .double(Double(magnitude))
      return try checked(builder.constant(constant, range: token.span), height: 1)
    case .double(let value):
      advance()
      return try checked(builder.constant(.double(value), range: token.span), height: 1)
    case .keyword(.null), .keyword(.nil):
      advance()
      return try checked(builder.constant(.null, range: token.span), height: 1)
    case .keyword(.true), .keyword(.yes):
      advance()
      return try checked(builder.constant(.bool(true), range: token.span), height: 1)
    case .keyword(.false), .keyword(.no):
      advance()
      return try checked(builder.constant(.bool(false), range: token.span), height: 1)
    case .keyword(.self):
      advance()
      return try checked(builder.evaluatedObject(range: token.span), height: 1)
    case .keyword(.anyKey):
      advance()
      return try checked(builder.anyKey(range: token.span), height: 1)
    case .variable:
      advance()
      return try checked(builder.variable(token), height: 1)
    case .collectionOperator:
      advance()
      return try checked(oneComponentKeyPath(token, isOperator: true), height: 1)
    case .identifier where !isSelectorName(token), .escapedIdentifier:
      advance()
      return try checked(oneComponentKeyPath(token, isOperator: false), height: 1)
    case .keyword(.first), .keyword(.last), .keyword(.size):
      // Outside a subscript these are keys, as GNUstep reads them (`size == 2`, docs/language.md); `[SIZE]`
      // keeps its meaning, and the printer writes the key as `#size`, which every reader takes as a key.
      advance()
      return try checked(oneComponentKeyPath(token, isOperator: false), height: 1)
    case .formatSpecifier:
      advance()
      return try substitute(specifier: text(of: token), token: token)
    default:
      throw atomError(token)
    }
  }

  /// Why `token` starts no expression.
  private func atomError(_ token: Token) -> PredicateSyntaxError {
    switch token.kind {
    case .identifier:
      // A selector name: the other identifiers are atoms.
      error(
        .functionArgumentsExpected,
        "expected '(' and the arguments after the function name '\(text(of: token))', found "
          + describe(lookahead(1)))
    case .punctuation(.closeParenthesis) where nesting == 0:
      error(
        .unmatchedClosingDelimiter, "unexpected ')' with no matching '('",
        fix: PredicateFix(title: "remove ')'", range: token.range, replacement: ""))
    case .keyword(.caseInsensitive), .keyword(.ci):
      reservedWordError()
    case .endOfInput:
      error(.unexpectedToken, "expected an expression, found end of input")
    default:
      error(.unexpectedToken, "expected an expression, found \(describe(token))")
    }
  }

  /// A key path of one key or collection operator, read from `token`.
  @inline(__always)
  mutating func oneComponentKeyPath(_ token: Token, isOperator: Bool) -> Expression {
    var draft = builder.beginKeyPath()
    builder.appendComponent(token, isOperator: isOperator, to: &draft)
    return builder.finishKeyPath(draft, range: token.span)
  }

  /// Comma-separated expressions up to `closing`; returns them, their greatest height and the closer.
  mutating func parseList(closing: Punctuation, openedBy opener: Token) throws(PredicateSyntaxError)
    -> (Int, Int, Token)
  {
    try enter()
    defer { leave() }
    var elements = builder.beginList()
    var height = 0
    if let close = consume(closing) { return (elements, height, close) }
    while true {
      let element = try parseExpression()
      builder.append(element.node, to: &elements)
      height = Swift.max(height, element.height)
      if !skip(.comma) { break }
    }
    let close = try expectClosing(closing, openedBy: opener)
    return (elements, height, close)
  }

  // MARK: - Format arguments

  /// `FormatSpecifier ::= "%" [hlqLzjt]* [@KdiuoxXfFeEgGaAsScC]`: replaced by the next argument.
  mutating func substitute(specifier: String, token: Token) throws(PredicateSyntaxError)
    -> Parsed<Expression>
  {
    guard nextArgument < arguments.count else {
      throw PredicateSyntaxError(
        .missingFormatArgument,
        "no argument supplied for '%\(specifier)' (argument \(nextArgument + 1); \(arguments.count) supplied)",
        at: token.range, warnings: warnings)
    }
    let argument = arguments[nextArgument]
    nextArgument += 1
    let kind = try FormatSubstitution.expression(
      for: argument, specifier: specifier, position: nextArgument, range: token.range, warnings: warnings)
    return try checked(builder.substituted(kind.kind, for: token), height: kind.height)
  }
}
