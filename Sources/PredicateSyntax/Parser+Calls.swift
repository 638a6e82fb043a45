// The call-shaped primaries: SUBQUERY, CAST, FUNCTION, TERNARY and the built-in functions.

extension Parser {
  /// `subquery ::= "SUBQUERY" "(" expression "," Variable "," predicate ")"`
  mutating func parseSubquery() throws(PredicateSyntaxError) -> Parsed<Expression> {
    let keyword = advance()
    subqueryNesting += 1
    defer { subqueryNesting -= 1 }
    if subqueryNesting > maximumSubqueryNesting {
      throw PredicateSyntaxError(
        .subqueryNestingTooDeep,
        "SUBQUERY nested deeper than the limit of \(maximumSubqueryNesting) levels "
          + "(PredicateParser.Options.maximumSubqueryNesting); test the inner collection with ANY or @count "
          + "instead of another SUBQUERY",
        at: keyword.range, warnings: warnings)
    }
    let open = try expect(.openParenthesis, "after SUBQUERY")
    try enter()
    let collection = try parseExpression()
    _ = try expect(.comma, "after the collection of SUBQUERY")
    guard case .variable = tokens[index].kind else {
      var fix: PredicateFix?
      if case .identifier = tokens[index].kind {
        let at = SourceRange(start: current.range.start, end: current.range.start)
        fix = PredicateFix(title: "insert $", range: at, replacement: "$")
      }
      throw error(
        .subqueryVariableExpected,
        "the second argument of SUBQUERY must be a variable such as $x, found \(describe(current))", fix: fix)
    }
    let variable = advance()
    _ = try expect(.comma, "after the variable of SUBQUERY")
    let predicateOperand = try parseOr()
    let predicate = try requirePredicate(consume predicateOperand)
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    let height = Swift.max(collection.height, predicate.height) + 1
    let subquery = builder.subquery(
      collection: collection.node, variable: variable, predicate: predicate.node,
      range: range(keyword.span, close.span))
    return try checked(subquery, height: height)
  }

  /// `cast ::= "CAST" "(" expression "," expression ")"`
  mutating func parseCast() throws(PredicateSyntaxError) -> Parsed<Expression> {
    let keyword = advance()
    let open = try expect(.openParenthesis, "after CAST")
    try enter()
    let value = try parseExpression()
    _ = try expect(.comma, "between the value and the type of CAST")
    let type = try parseExpression()
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    let height = Swift.max(value.height, type.height) + 1
    return try checked(
      builder.cast(value.node, type: type.node, range: range(keyword.span, close.span)), height: height)
  }

  /// `FUNCTION(…)`, `TERNARY(…)`, or a built-in function such as `now()`, `sum(1, 2)` or, named as Apple
  /// names it, `sum:({1, 2})` and `add:to:(a, b)`.
  ///
  ///     builtinCall  ::= ( FunctionName | SelectorName ) "(" ( expression ( "," expression )* )? ")"
  ///     FunctionName ::= Identifier - ( "FUNCTION" | "TERNARY" )
  ///
  /// The five selectors of arithmetic operators (`add:to:`, `from:subtract:`, `multiply:by:`, `divide:by:`,
  /// `raise:toPower:`) with two arguments are the operator itself: Foundation builds the same function
  /// expression for `a + b` and `add:to:(a, b)`, and prints both as `a + b`.
  mutating func parseCall(name: String) throws(PredicateSyntaxError) -> Parsed<Expression> {
    let nameToken = advance()
    let open = advance()
    switch name.uppercased() {
    case "FUNCTION": return try parseFunctionCall(nameToken: nameToken, open: open)
    case "TERNARY": return try parseTernary(nameToken: nameToken, open: open)
    default:
      let (arguments, height, close) = try parseList(closing: .closeParenthesis, openedBy: open)
      let callRange = range(nameToken.span, close.span)
      if builder.count(of: arguments) == 2, let op = arithmeticSelectors[name] {
        let (left, right) = builder.pair(arguments)
        return try checked(builder.arithmetic(op, left, right, range: callRange), height: height + 1)
      }
      return try checked(
        builder.function(name: nameToken, arguments: arguments, range: callRange), height: height + 1)
    }
  }

  /// `functionCall ::= "FUNCTION" "(" expression "," String ( "," expression )* ")"`, after `FUNCTION(`.
  mutating func parseFunctionCall(nameToken: Token, open: Token) throws(PredicateSyntaxError)
    -> Parsed<Expression>
  {
    try enter()
    let receiver = try parseExpression()
    _ = try expect(.comma, "after the receiver of FUNCTION")
    guard tokens[index].isString else {
      throw error(
        .unexpectedToken,
        "the second argument of FUNCTION must be a selector string such as 'lowercase:', found \(describe(current))"
      )
    }
    let selector = advance()
    var arguments = builder.beginList()
    var height = receiver.height
    while skip(.comma) {
      let argument = try parseExpression()
      builder.append(argument.node, to: &arguments)
      height = Swift.max(height, argument.height)
    }
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    let call = builder.functionCall(
      receiver: receiver.node, selector: selector, arguments: arguments,
      range: range(nameToken.span, close.span))
    return try checked(call, height: height + 1)
  }

  /// `ternary ::= "TERNARY" "(" predicate "," expression "," expression ")"`, after `TERNARY(`.
  mutating func parseTernary(nameToken: Token, open: Token) throws(PredicateSyntaxError)
    -> Parsed<Expression>
  {
    try enter()
    let conditionOperand = try parseOr()
    let condition = try requirePredicate(consume conditionOperand)
    _ = try expect(.comma, "after the condition of TERNARY")
    let whenTrue = try parseExpression()
    _ = try expect(.comma, "between the values of TERNARY")
    let whenFalse = try parseExpression()
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    let height = Swift.max(condition.height, whenTrue.height, whenFalse.height) + 1
    let ternary = builder.ternary(
      condition.node, whenTrue.node, whenFalse.node, range: range(nameToken.span, close.span))
    return try checked(ternary, height: height)
  }
}

/// The function names of `NSExpression` that are the arithmetic operators of the format syntax.
let arithmeticSelectors: [String: ArithmeticOperator] = [
  "add:to:": .add, "from:subtract:": .subtract, "multiply:by:": .multiply, "divide:by:": .divide,
  "raise:toPower:": .power,
]
