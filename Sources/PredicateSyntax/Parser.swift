/// A parsed predicate and the warnings reading it produced (lenient mode reports typographic quotes).
public struct PredicateParseResult: Sendable, Hashable {
  public var predicate: PredicateNode
  public var warnings: [PredicateDiagnostic]

  public init(predicate: PredicateNode, warnings: [PredicateDiagnostic]) {
    self.predicate = predicate
    self.warnings = warnings
  }
}

/// Reads Apple's predicate format-string language into a `PredicateNode`.
///
/// The grammar is `Grammar/Predicate.ebnf`. Precedence, loosest first: `OR`, `AND`, `NOT`, comparison; inside
/// expressions `:=`, `UNION INTERSECT MINUS`, `+ -`, `* /`, unary `-`, `**` (right-associative), then `.key`,
/// `.@op` and `[index]`. Every node carries the exact range of the text it was read from.
public enum PredicateParser {
  /// Parses predicate text.
  ///
  /// - Parameters:
  ///   - text: the predicate, for example `ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url"`.
  ///   - options: strict (Apple's behaviour, the default) or lenient, and the depth limit.
  ///   - arguments: values for `%@`, `%K`, `%d` … specifiers, consumed in order.
  /// - Throws: `PredicateSyntaxError` with the range, message and (where one exists) fix.
  public static func parse(
    _ text: String, options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> PredicateNode {
    try parseReportingWarnings(text, options: options, arguments: arguments).predicate
  }

  /// Parses predicate text and returns the warnings (lenient mode) together with the predicate.
  public static func parseReportingWarnings(
    _ text: String, options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> PredicateParseResult {
    try parse(validUTF8: Array(text.utf8), options: options, arguments: arguments)
  }

  /// Parses predicate text given as UTF-8 bytes. Invalid UTF-8 is an error at the first bad byte.
  public static func parse(
    utf8 bytes: [UInt8], options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> PredicateParseResult {
    try checkSize(bytes, options: options)
    try UTF8Validation.validate(bytes)
    return try parse(validUTF8: bytes, options: options, arguments: arguments)
  }

  /// Parses a single expression (a key path, a constant, an arithmetic expression …) rather than a predicate.
  public static func parseExpression(
    _ text: String, options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> ExpressionNode {
    try run(Array(text.utf8), options: options, arguments: arguments) { parser throws(PredicateSyntaxError) in
      try parser.parseWholeExpression()
    }
  }

  private static func parse(
    validUTF8 bytes: [UInt8], options: Options, arguments: [FormatArgument]
  ) throws(PredicateSyntaxError) -> PredicateParseResult {
    try run(bytes, options: options, arguments: arguments) { parser throws(PredicateSyntaxError) in
      PredicateParseResult(predicate: try parser.parseWholePredicate(), warnings: parser.warnings)
    }
  }

  /// Lexes, then parses with `body`: on the caller's stack when the input is shallow or the stack has room
  /// for it, on a large stack otherwise. A structural error after a string holding a typographic quote is
  /// reported as that quote, its likely cause.
  private static func run<Value: Sendable>(
    _ bytes: [UInt8], options: Options, arguments: [FormatArgument],
    body: @escaping @Sendable (inout Parser) throws(PredicateSyntaxError) -> Value
  ) throws(PredicateSyntaxError) -> Value {
    try checkSize(bytes, options: options)
    var lexer = Lexer(bytes: bytes, lenient: options.lenient)
    let tokens = try lexer.tokenize()
    let warnings = lexer.warnings
    var outcome: Swift.Result<Value, PredicateSyntaxError>?
    let stackLimit: UInt? =
      LargeStack.fitsOnCurrentStack(nesting: Parser.possibleNesting(tokens))
      ? 0 : LargeStack.currentStackLimit()
    if let stackLimit {
      // No closure here: the common case allocates nothing beyond the tokens and the tree.
      var parser = Parser(
        tokens: tokens, bytes: bytes, options: options, arguments: arguments, warnings: warnings,
        stackLimit: stackLimit)
      do throws(PredicateSyntaxError) {
        outcome = .success(try body(&parser))
      } catch {
        // Input nested too deeply for this thread's stack starts over on the large stack.
        if !parser.reachedStackLimit { outcome = .failure(error) }
      }
    }
    if let outcome {
      switch outcome {
      case .success(let value): return value
      case .failure(let error): throw lexer.likelyCause(of: error)
      }
    }
    let deepOutcome = LargeStack.run { () -> Swift.Result<Value, PredicateSyntaxError> in
      var parser = Parser(
        tokens: tokens, bytes: bytes, options: options, arguments: arguments, warnings: warnings)
      do throws(PredicateSyntaxError) {
        return .success(try body(&parser))
      } catch {
        return .failure(error)
      }
    }
    switch deepOutcome {
    case .success(let value): return value
    case .failure(let error): throw lexer.likelyCause(of: error)
    }
  }
}

extension PredicateParser {
  /// Refuses text longer than `options.maximumInputBytes`, pointing at the first byte past the limit.
  static func checkSize(_ bytes: [UInt8], options: Options) throws(PredicateSyntaxError) {
    let limit = options.maximumInputBytes
    guard bytes.count > limit else { return }
    var line = 1
    var lineStart = 0
    for index in 0..<Swift.max(limit, 0) where bytes[index] == UInt8(ascii: "\n") {
      line += 1
      lineStart = index + 1
    }
    // Columns count scalars: skip UTF-8 continuation bytes.
    let column = bytes[lineStart..<Swift.max(limit, lineStart)].filter { $0 & 0xC0 != 0x80 }.count + 1
    let start = SourcePosition(line: line, column: column, offset: limit)
    let end = SourcePosition(line: line, column: column + 1, offset: limit + 1)
    throw PredicateSyntaxError(
      .inputTooLarge,
      "the predicate is \(bytes.count) bytes, more than the limit of \(limit) bytes "
        + "(PredicateParser.Options.maximumInputBytes); check that the file holds one rule: a real rule is a few "
        + "hundred bytes to a few kilobytes",
      at: SourceRange(start: start, end: end))
  }
}

/// A node with the height of its tree, so the depth limit is checked in O(1) per node.
private struct Parsed<Node> {
  var node: Node
  var height: Int
}

/// What a parenthesised group turned out to be: at predicate level `(` may open either.
private enum Operand {
  case predicate(Parsed<PredicateNode>)
  case expression(Parsed<ExpressionNode>)
}

/// Recursive descent over the token array. Every recursive construct goes through `enter()`, which enforces
/// the nesting limit; every node goes through a height check. Together they bound the stack.
struct Parser {
  private let tokens: [Token]
  private let bytes: [UInt8]
  private let options: PredicateParser.Options
  private let arguments: [FormatArgument]
  let warnings: [PredicateDiagnostic]
  private var index = 0
  private var nextArgument = 0
  private var nesting = 0
  private var subqueryNesting = 0
  /// The lowest stack address recursion may reach (`LargeStack.currentStackLimit()`); 0 for no check.
  private let stackLimit: UInt
  /// Set when parsing stopped at `stackLimit` rather than at a real error.
  private(set) var reachedStackLimit = false

  init(
    tokens: [Token], bytes: [UInt8], options: PredicateParser.Options, arguments: [FormatArgument],
    warnings: [PredicateDiagnostic], stackLimit: UInt = 0
  ) {
    self.tokens = tokens
    self.bytes = bytes
    self.options = options
    self.arguments = arguments
    self.warnings = warnings
    self.stackLimit = stackLimit
  }

  // MARK: - Entry points

  /// An upper bound of the parser's recursion depth for these tokens: the deepest bracket nesting plus every
  /// prefix or right-associative operator, each of which may add a level.
  static func possibleNesting(_ tokens: [Token]) -> Int {
    var brackets = 0
    var deepest = 0
    var prefixes = 0
    for token in tokens {
      switch token.kind {
      case .punctuation(.openParenthesis), .punctuation(.openBrace), .punctuation(.openBracket):
        brackets += 1
        deepest = Swift.max(deepest, brackets)
      case .punctuation(.closeParenthesis), .punctuation(.closeBrace), .punctuation(.closeBracket):
        brackets -= 1
      case .keyword(.not), .punctuation(.bang), .punctuation(.minus), .punctuation(.doubleStar),
        .punctuation(.assign):
        prefixes += 1
      default:
        break
      }
    }
    return deepest + prefixes
  }

  mutating func parseWholePredicate() throws(PredicateSyntaxError) -> PredicateNode {
    if tokens[index].isEndOfInput {
      throw error(.emptyInput, "empty predicate: expected a comparison, TRUEPREDICATE or FALSEPREDICATE")
    }
    let predicateOperand = try parseOr()
    let predicate = try requirePredicate(predicateOperand)
    try expectEndOfInput(after: "the predicate")
    return predicate.node
  }

  mutating func parseWholeExpression() throws(PredicateSyntaxError) -> ExpressionNode {
    if tokens[index].isEndOfInput { throw error(.emptyInput, "empty expression") }
    let expression = try parseExpression()
    try expectEndOfInput(after: "the expression")
    return expression.node
  }

  private func expectEndOfInput(after what: String) throws(PredicateSyntaxError) {
    switch tokens[index].kind {
    case .endOfInput: return
    case .punctuation(.closeParenthesis):
      throw error(
        .unmatchedClosingDelimiter, "unexpected ')' with no matching '('",
        fix: PredicateFix(title: "remove ')'", range: current.range, replacement: ""))
    default:
      throw error(.trailingInput, "unexpected \(describe(current)) after the end of \(what)")
    }
  }

  // MARK: - Tokens

  private var current: Token { tokens[index] }

  private func lookahead(_ distance: Int) -> Token { tokens[Swift.min(index + distance, tokens.count - 1)] }

  @discardableResult
  private mutating func advance() -> Token {
    let token = tokens[index]
    if index < tokens.count - 1 { index += 1 }
    return token
  }

  /// Consumes `punctuation` when it is next, without copying the token.
  private mutating func skip(_ punctuation: Punctuation) -> Bool {
    guard tokens[index].isPunctuation(punctuation) else { return false }
    advance()
    return true
  }

  private mutating func consume(_ punctuation: Punctuation) -> Token? {
    tokens[index].isPunctuation(punctuation) ? advance() : nil
  }

  private mutating func consume(_ keyword: Keyword) -> Token? {
    tokens[index].isKeyword(keyword) ? advance() : nil
  }

  private mutating func expect(_ punctuation: Punctuation, _ purpose: String) throws(PredicateSyntaxError)
    -> Token
  {
    if let token = consume(punctuation) { return token }
    throw error(.unexpectedToken, "expected '\(punctuation.rawValue)' \(purpose), found \(describe(current))")
  }

  /// Expects the closer of a bracketed construct, naming where it was opened when it is missing.
  private mutating func expectClosing(_ punctuation: Punctuation, openedBy opener: Token)
    throws(PredicateSyntaxError) -> Token
  {
    if let token = consume(punctuation) { return token }
    let openerText = source(of: opener)
    throw error(
      .missingClosingDelimiter,
      "expected '\(punctuation.rawValue)' to close the '\(openerText)' at \(opener.range.start), "
        + "found \(describe(current))")
  }

  private func source(of token: Token) -> String {
    String(decoding: bytes[token.range.byteRange], as: UTF8.self)
  }

  /// How a token is named in messages: `'AND'`, `end of input`.
  private func describe(_ token: Token) -> String {
    var text = source(of: token)
    if text.count > 40 { text = String(text.prefix(37)) + "..." }
    switch token.kind {
    case .endOfInput: return "end of input"
    case .string: return "the string \(text)"
    default: return "'\(text)'"
    }
  }

  private func error(_ reason: PredicateSyntaxErrorReason, _ message: String, fix: PredicateFix? = nil)
    -> PredicateSyntaxError
  {
    PredicateSyntaxError(reason, message, at: current.range, fix: fix, warnings: warnings)
  }

  private func range(_ start: SourceRange, _ end: SourceRange) -> SourceRange {
    SourceRange(start: start.start, end: end.end)
  }

  /// The range of the token just consumed.
  private var previousRange: SourceRange { tokens[Swift.max(index - 1, 0)].range }

  // MARK: - Depth limits

  private mutating func enter() throws(PredicateSyntaxError) {
    nesting += 1
    // Every caller has just consumed the token that opens the level: point at it.
    if nesting > options.maximumDepth { throw depthError(at: previousRange) }
    if stackLimit != 0, LargeStack.currentStackAddress() < stackLimit {
      reachedStackLimit = true
      throw depthError(at: previousRange)
    }
  }

  private mutating func leave() { nesting -= 1 }

  private func depthError(at range: SourceRange? = nil) -> PredicateSyntaxError {
    PredicateSyntaxError(
      .nestingTooDeep,
      "nesting deeper than the limit of \(options.maximumDepth) levels (PredicateParser.Options.maximumDepth); "
        + "remove redundant parentheses or split the rule",
      at: range ?? current.range,
      warnings: warnings)
  }

  private func predicate(_ kind: PredicateNode.Kind, _ range: SourceRange, height: Int)
    throws(PredicateSyntaxError) -> Parsed<PredicateNode>
  {
    if height > options.maximumDepth { throw depthError() }
    return Parsed(node: PredicateNode(kind, range: range), height: height)
  }

  private func expression(_ kind: ExpressionNode.Kind, _ range: SourceRange, height: Int)
    throws(PredicateSyntaxError) -> Parsed<ExpressionNode>
  {
    if height > options.maximumDepth { throw depthError() }
    return Parsed(node: ExpressionNode(kind, range: range), height: height)
  }

  // MARK: - Predicates

  private mutating func requirePredicate(_ operand: Operand) throws(PredicateSyntaxError) -> Parsed<
    PredicateNode
  > {
    switch operand {
    case .predicate(let predicate): return predicate
    case .expression:
      if tokens[index].isEndOfInput {
        throw error(
          .unexpectedToken, "expected a comparison operator such as '==' or 'IN', found end of input")
      }
      throw error(
        .unexpectedToken, "expected a comparison operator such as '==' or 'IN', found \(describe(current))")
    }
  }

  private var atOr: Bool { tokens[index].isKeyword(.or) || tokens[index].isPunctuation(.bars) }
  private var atAnd: Bool { tokens[index].isKeyword(.and) || tokens[index].isPunctuation(.ampersands) }
  private var atNot: Bool { tokens[index].isKeyword(.not) || tokens[index].isPunctuation(.bang) }

  private mutating func parseOr() throws(PredicateSyntaxError) -> Operand {
    let first = try parseAnd()
    guard atOr else { return first }
    var operands = [try requirePredicate(first)]
    while atOr {
      advance()
      let rightOperand = try parseAnd()
      operands.append(try requirePredicate(rightOperand))
    }
    return .predicate(try chain(operands) { .or($0, $1) })
  }

  private mutating func parseAnd() throws(PredicateSyntaxError) -> Operand {
    let first = try parseNot()
    guard atAnd else { return first }
    var operands = [try requirePredicate(first)]
    while atAnd {
      advance()
      let rightOperand = try parseNot()
      operands.append(try requirePredicate(rightOperand))
    }
    return .predicate(try chain(operands) { .and($0, $1) })
  }

  /// Joins the operands of one `OR` or `AND` chain, in order, with `link`.
  ///
  /// The tree nests to the left, as `NSCompoundPredicate` builds it and as the printer writes back without
  /// parentheses, whenever that fits under the depth limit. A longer chain is not deep nesting, only many
  /// clauses, so it is joined as a balanced tree instead: `log2` of its length deep, which every recursive
  /// consumer (printer, evaluators, `==`, releasing the tree) handles. The grouping changes nothing else:
  /// `AND` and `OR` are associative and both groupings evaluate the operands left to right, and the
  /// printed balanced tree (its inner groups in parentheses) parses back to the same tree.
  private func chain(
    _ operands: [Parsed<PredicateNode>], _ link: (PredicateNode, PredicateNode) -> PredicateNode.Kind
  ) throws(PredicateSyntaxError) -> Parsed<PredicateNode> {
    var leftNestedHeight = operands[0].height
    for operand in operands.dropFirst() { leftNestedHeight = Swift.max(leftNestedHeight, operand.height) + 1 }
    guard leftNestedHeight > options.maximumDepth else {
      var left = operands[0]
      for right in operands.dropFirst() {
        left = try predicate(
          link(left.node, right.node), range(left.node.range, right.node.range),
          height: Swift.max(left.height, right.height) + 1)
      }
      return left
    }
    return try balancedChain(operands[...], link)
  }

  private func balancedChain(
    _ operands: ArraySlice<Parsed<PredicateNode>>,
    _ link: (PredicateNode, PredicateNode) -> PredicateNode.Kind
  ) throws(PredicateSyntaxError) -> Parsed<PredicateNode> {
    // Never empty: a chain has at least two operands, and halves of two or more are not empty.
    if operands.count == 1 { return operands[operands.startIndex] }
    let middle = operands.startIndex + operands.count / 2
    let left = try balancedChain(operands[..<middle], link)
    let right = try balancedChain(operands[middle...], link)
    return try predicate(
      link(left.node, right.node), range(left.node.range, right.node.range),
      height: Swift.max(left.height, right.height) + 1)
  }

  private mutating func parseNot() throws(PredicateSyntaxError) -> Operand {
    guard atNot else { return try parsePrimaryPredicate() }
    let not = advance()
    try enter()
    let negatedOperand = try parseNot()
    let operand = try requirePredicate(negatedOperand)
    leave()
    return .predicate(
      try predicate(.not(operand.node), range(not.range, operand.node.range), height: operand.height + 1))
  }

  private mutating func parsePrimaryPredicate() throws(PredicateSyntaxError) -> Operand {
    let token = current
    switch token.kind {
    case .keyword(.truePredicate):
      advance()
      return .predicate(try predicate(.truePredicate, token.range, height: 1))
    case .keyword(.falsePredicate):
      advance()
      return .predicate(try predicate(.falsePredicate, token.range, height: 1))
    case .keyword(.any), .keyword(.some), .keyword(.all), .keyword(.none):
      let quantifier = try parseQuantifier()
      let lhs = try parseExpression()
      guard let comparison = try parseComparison(quantifier: quantifier, lhs: lhs, start: token.range) else {
        return .predicate(try requirePredicate(.expression(lhs)))
      }
      return .predicate(comparison)
    case .punctuation(.openParenthesis):
      advance()
      try enter()
      let inner = try parseOr()
      let close = try expectClosing(.closeParenthesis, openedBy: token)
      leave()
      switch inner {
      case .predicate(var grouped):
        // A node's range covers the parentheses around it, so a parent's range is exactly its text.
        grouped.node.range = range(token.range, close.range)
        return .predicate(grouped)
      case .expression(var grouped):
        // `(a + b) * 2 > 3`: the group was an expression; keep parsing the comparison it begins.
        grouped.node.range = range(token.range, close.range)
        let lhs = try parseExpression(seed: grouped)
        if let comparison = try parseComparison(quantifier: nil, lhs: lhs, start: token.range) {
          return .predicate(comparison)
        }
        return .expression(lhs)
      }
    default:
      let lhs = try parseExpression()
      if let comparison = try parseComparison(quantifier: nil, lhs: lhs, start: lhs.node.range) {
        return .predicate(comparison)
      }
      return .expression(lhs)
    }
  }

  private mutating func parseQuantifier() throws(PredicateSyntaxError) -> Quantifier {
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
      throw error(
        .unexpectedToken, "a comparison takes one quantifier; \(describe(current)) follows \(describe(token))"
      )
    default:
      return quantifier
    }
  }

  private var comparisonOperator: ComparisonOperator? {
    switch tokens[index].kind {
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

  /// `op[options] rhs` after `lhs`, or nil when no comparison operator follows.
  private mutating func parseComparison(
    quantifier: Quantifier?, lhs: Parsed<ExpressionNode>, start: SourceRange
  ) throws(PredicateSyntaxError) -> Parsed<PredicateNode>? {
    guard let op = comparisonOperator else { return nil }
    let operatorToken = advance()
    var operatorRange = operatorToken.range
    var comparisonOptions: ComparisonOptions = []
    if let open = consume(.openBracket) {
      comparisonOptions = try parseComparisonOptions()
      let close = try expectClosing(.closeBracket, openedBy: open)
      operatorRange = range(operatorRange, close.range)
    }
    let rhs = try parseExpression()
    let comparison = Comparison(
      quantifier: quantifier, lhs: lhs.node, op: op, options: comparisonOptions, rhs: rhs.node,
      operatorRange: operatorRange)
    return try predicate(
      .comparison(comparison), range(start, rhs.node.range), height: Swift.max(lhs.height, rhs.height) + 1)
  }

  private mutating func parseComparisonOptions() throws(PredicateSyntaxError) -> ComparisonOptions {
    let token = current
    guard case .identifier(let letters) = token.kind else {
      throw error(
        .invalidComparisonOption,
        "expected comparison options such as 'c', 'd' or 'cd', found \(describe(token))")
    }
    var result: ComparisonOptions = []
    for letter in letters.lowercased() {
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

  // MARK: - Expressions

  /// A full expression. With `seed`, the already-parsed parenthesised group is its first operand.
  private mutating func parseExpression(seed: Parsed<ExpressionNode>? = nil) throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
  {
    if seed == nil, case .variable(let name) = tokens[index].kind, lookahead(1).isPunctuation(.assign) {
      let variable = advance()
      advance()
      try enter()
      let value = try parseExpression()
      leave()
      return try expression(
        .assignment(variable: name, value: value.node), range(variable.range, value.node.range),
        height: value.height + 1)
    }
    var left = try parseAdditive(seed: seed)
    while case .identifier(let word) = tokens[index].kind,
      let setOperator = SetOperator(rawValue: word.uppercased())
    {
      advance()
      let right = try parseAdditive(seed: nil)
      left = try expression(
        .setOperation(setOperator, left.node, right.node), range(left.node.range, right.node.range),
        height: Swift.max(left.height, right.height) + 1)
    }
    return left
  }

  private mutating func parseAdditive(seed: Parsed<ExpressionNode>?) throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
  {
    var left = try parseMultiplicative(seed: seed)
    while true {
      let op: ArithmeticOperator
      if tokens[index].isPunctuation(.plus) {
        op = .add
      } else if tokens[index].isPunctuation(.minus) {
        op = .subtract
      } else {
        return left
      }
      advance()
      let right = try parseMultiplicative(seed: nil)
      left = try expression(
        .arithmetic(op, left.node, right.node), range(left.node.range, right.node.range),
        height: Swift.max(left.height, right.height) + 1)
    }
  }

  private mutating func parseMultiplicative(seed: Parsed<ExpressionNode>?) throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
  {
    var left = try parseUnary(seed: seed)
    while true {
      let op: ArithmeticOperator
      if tokens[index].isPunctuation(.star) {
        op = .multiply
      } else if tokens[index].isPunctuation(.slash) {
        op = .divide
      } else {
        return left
      }
      advance()
      let right = try parseUnary(seed: nil)
      left = try expression(
        .arithmetic(op, left.node, right.node), range(left.node.range, right.node.range),
        height: Swift.max(left.height, right.height) + 1)
    }
  }

  private mutating func parseUnary(seed: Parsed<ExpressionNode>?) throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
  {
    if let seed { return try parsePower(base: parsePostfix(seed, grouped: true)) }
    guard tokens[index].isPunctuation(.minus) else { return try parsePower(base: nil) }
    let minus = advance()
    if let literal = try negativeLiteral(minus: minus) { return literal }
    try enter()
    let operand = try parseUnary(seed: nil)
    leave()
    return try expression(
      .negate(operand.node), range(minus.range, operand.node.range), height: operand.height + 1)
  }

  /// `-5` reads as the constant -5 (so `-9223372036854775808` is `Int.min`), unless the number is the base
  /// of `**`, `.` or `[`, which bind tighter than unary minus: `-2 ** 2` is `-(2 ** 2)`.
  private mutating func negativeLiteral(minus: Token) throws(PredicateSyntaxError) -> Parsed<ExpressionNode>?
  {
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
    return try expression(.constant(constant), range(minus.range, number.range), height: 1)
  }

  private mutating func parsePower(base: Parsed<ExpressionNode>?) throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
  {
    let left: Parsed<ExpressionNode>
    if let base {
      left = base
    } else {
      left = try parsePostfix(parsePrimary(), grouped: false)
    }
    guard skip(.doubleStar) else { return left }
    try enter()
    let right = try parseUnary(seed: nil)
    leave()
    return try expression(
      .arithmetic(.power, left.node, right.node), range(left.node.range, right.node.range),
      height: Swift.max(left.height, right.height) + 1)
  }

  /// `.key`, `.@operator` and `[index]` after a primary. Keys after a key path extend it (`a.b.c` is one
  /// key path) unless the key path was parenthesised: `(a).b` keeps `(a)` as its base.
  private mutating func parsePostfix(_ primary: Parsed<ExpressionNode>, grouped: Bool)
    throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
  {
    var result = primary
    var extendable = !grouped
    while true {
      if skip(.dot) {
        let component = try parseKeyPathComponent()
        let componentRange = previousRange
        if extendable, case .keyPath(let base, let components) = result.node.kind {
          result = try expression(
            .keyPath(base: base, components: components + [component]),
            range(result.node.range, componentRange),
            height: result.height)
        } else {
          result = try expression(
            .keyPath(base: result.node, components: [component]), range(result.node.range, componentRange),
            height: result.height + 1)
        }
        extendable = true
      } else if let open = consume(.openBracket) {
        let indexKind: IndexKind
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
          indexKind = .expression(subscriptExpression.node)
          indexHeight = subscriptExpression.height
        }
        let close = try expectClosing(.closeBracket, openedBy: open)
        result = try expression(
          .index(result.node, indexKind), range(result.node.range, close.range),
          height: Swift.max(result.height, indexHeight) + 1)
        extendable = true
      } else {
        return result
      }
    }
  }

  private mutating func parseKeyPathComponent() throws(PredicateSyntaxError) -> KeyPathComponent {
    let token = current
    switch token.kind {
    case .identifier(let name), .escapedIdentifier(let name):
      advance()
      return .key(name)
    case .collectionOperator(let name):
      advance()
      return .collectionOperator(name)
    case .keyword:
      throw reservedWordError()
    default:
      throw error(
        .unexpectedToken, "expected a key or a collection operator after '.', found \(describe(token))")
    }
  }

  private func reservedWordError() -> PredicateSyntaxError {
    let text = source(of: current)
    return error(
      .reservedWordAsIdentifier, "'\(text)' is a reserved word; write '#\(text)' to use it as a key",
      fix: PredicateFix(
        title: "insert #", range: SourceRange(start: current.range.start, end: current.range.start),
        replacement: "#"))
  }

  /// The recursive primaries each get their own function, so the frame that recursion stacks up stays small
  /// even in unoptimised builds; the leaves are read by `parseAtom`.
  private mutating func parsePrimary() throws(PredicateSyntaxError) -> Parsed<ExpressionNode> {
    switch tokens[index].kind {
    case .punctuation(.openParenthesis): return try parseGroup()
    case .punctuation(.openBrace): return try parseAggregate()
    case .keyword(.subquery): return try parseSubquery()
    case .keyword(.cast): return try parseCast()
    case .identifier(let name) where lookahead(1).isPunctuation(.openParenthesis):
      return try parseCall(name: name)
    default: return try parseAtom()
    }
  }

  private mutating func parseGroup() throws(PredicateSyntaxError) -> Parsed<ExpressionNode> {
    let open = advance()
    try enter()
    let inner = try parseExpression()
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    var grouped = inner
    grouped.node.range = range(open.range, close.range)
    return try parsePostfix(grouped, grouped: true)
  }

  private mutating func parseAggregate() throws(PredicateSyntaxError) -> Parsed<ExpressionNode> {
    let open = advance()
    let (elements, height, close) = try parseList(closing: .closeBrace, openedBy: open)
    return try expression(.aggregate(elements), range(open.range, close.range), height: height + 1)
  }

  private mutating func parseAtom() throws(PredicateSyntaxError) -> Parsed<ExpressionNode> {
    let token = current
    switch token.kind {
    case .string(let value):
      advance()
      return try expression(.constant(.string(value)), token.range, height: 1)
    case .integer(let magnitude):
      advance()
      let constant: Constant =
        magnitude <= UInt64(Int.max) ? .integer(Int(magnitude)) : .double(Double(magnitude))
      return try expression(.constant(constant), token.range, height: 1)
    case .double(let value):
      advance()
      return try expression(.constant(.double(value)), token.range, height: 1)
    case .keyword(.null), .keyword(.nil):
      advance()
      return try expression(.constant(.null), token.range, height: 1)
    case .keyword(.true), .keyword(.yes):
      advance()
      return try expression(.constant(.bool(true)), token.range, height: 1)
    case .keyword(.false), .keyword(.no):
      advance()
      return try expression(.constant(.bool(false)), token.range, height: 1)
    case .keyword(.self):
      advance()
      return try expression(.evaluatedObject, token.range, height: 1)
    case .keyword(.anyKey):
      advance()
      return try expression(.anyKey, token.range, height: 1)
    case .variable(let name):
      advance()
      return try expression(.variable(name), token.range, height: 1)
    case .collectionOperator(let name):
      advance()
      return try expression(
        .keyPath(base: nil, components: [.collectionOperator(name)]), token.range, height: 1)
    case .escapedIdentifier(let name):
      advance()
      return try expression(.keyPath(base: nil, components: [.key(name)]), token.range, height: 1)
    case .identifier(let name):
      advance()
      return try expression(.keyPath(base: nil, components: [.key(name)]), token.range, height: 1)
    case .formatSpecifier(let specifier):
      advance()
      return try substitute(specifier: specifier, token: token)
    case .punctuation(.closeParenthesis) where nesting == 0:
      throw error(
        .unmatchedClosingDelimiter, "unexpected ')' with no matching '('",
        fix: PredicateFix(title: "remove ')'", range: token.range, replacement: ""))
    case .keyword(.first), .keyword(.last), .keyword(.size), .keyword(.caseInsensitive), .keyword(.ci):
      throw reservedWordError()
    case .endOfInput:
      throw error(.unexpectedToken, "expected an expression, found end of input")
    default:
      throw error(.unexpectedToken, "expected an expression, found \(describe(token))")
    }
  }

  /// Comma-separated expressions up to `closing`; returns them, their greatest height and the closer.
  private mutating func parseList(closing: Punctuation, openedBy opener: Token) throws(PredicateSyntaxError)
    -> ([ExpressionNode], Int, Token)
  {
    try enter()
    defer { leave() }
    var elements: [ExpressionNode] = []
    var height = 0
    if let close = consume(closing) { return (elements, height, close) }
    while true {
      let element = try parseExpression()
      elements.append(element.node)
      height = Swift.max(height, element.height)
      if !skip(.comma) { break }
    }
    let close = try expectClosing(closing, openedBy: opener)
    return (elements, height, close)
  }

  private mutating func parseSubquery() throws(PredicateSyntaxError) -> Parsed<ExpressionNode> {
    let keyword = advance()
    subqueryNesting += 1
    defer { subqueryNesting -= 1 }
    if subqueryNesting > options.maximumSubqueryNesting {
      throw PredicateSyntaxError(
        .subqueryNestingTooDeep,
        "SUBQUERY nested deeper than the limit of \(options.maximumSubqueryNesting) levels "
          + "(PredicateParser.Options.maximumSubqueryNesting); test the inner collection with ANY or @count "
          + "instead of another SUBQUERY",
        at: keyword.range, warnings: warnings)
    }
    let open = try expect(.openParenthesis, "after SUBQUERY")
    try enter()
    let collection = try parseExpression()
    _ = try expect(.comma, "after the collection of SUBQUERY")
    guard case .variable(let variable) = tokens[index].kind else {
      var fix: PredicateFix?
      if case .identifier = tokens[index].kind {
        let at = SourceRange(start: current.range.start, end: current.range.start)
        fix = PredicateFix(title: "insert $", range: at, replacement: "$")
      }
      throw error(
        .subqueryVariableExpected,
        "the second argument of SUBQUERY must be a variable such as $x, found \(describe(current))", fix: fix)
    }
    advance()
    _ = try expect(.comma, "after the variable of SUBQUERY")
    let predicateOperand = try parseOr()
    let predicate = try requirePredicate(predicateOperand)
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    return try expression(
      .subquery(collection: collection.node, variable: variable, predicate: predicate.node),
      range(keyword.range, close.range), height: Swift.max(collection.height, predicate.height) + 1)
  }

  private mutating func parseCast() throws(PredicateSyntaxError) -> Parsed<ExpressionNode> {
    let keyword = advance()
    let open = try expect(.openParenthesis, "after CAST")
    try enter()
    let value = try parseExpression()
    _ = try expect(.comma, "between the value and the type of CAST")
    let type = try parseExpression()
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    return try expression(
      .cast(value.node, type: type.node), range(keyword.range, close.range),
      height: Swift.max(value.height, type.height) + 1)
  }

  /// `FUNCTION(…)`, `TERNARY(…)`, or a built-in function such as `now()` or `sum(1, 2)`.
  private mutating func parseCall(name: String) throws(PredicateSyntaxError) -> Parsed<ExpressionNode> {
    let nameToken = advance()
    let open = advance()
    switch name.uppercased() {
    case "FUNCTION": return try parseFunctionCall(nameToken: nameToken, open: open)
    case "TERNARY": return try parseTernary(nameToken: nameToken, open: open)
    default:
      let (arguments, height, close) = try parseList(closing: .closeParenthesis, openedBy: open)
      return try expression(
        .function(name: name, arguments: arguments), range(nameToken.range, close.range), height: height + 1)
    }
  }

  private mutating func parseFunctionCall(nameToken: Token, open: Token) throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
  {
    try enter()
    let receiver = try parseExpression()
    _ = try expect(.comma, "after the receiver of FUNCTION")
    guard case .string(let selector) = tokens[index].kind else {
      throw error(
        .unexpectedToken,
        "the second argument of FUNCTION must be a selector string such as 'lowercase:', found \(describe(current))"
      )
    }
    advance()
    var arguments: [ExpressionNode] = []
    var height = receiver.height
    while skip(.comma) {
      let argument = try parseExpression()
      arguments.append(argument.node)
      height = Swift.max(height, argument.height)
    }
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    return try expression(
      .functionCall(receiver: receiver.node, selector: selector, arguments: arguments),
      range(nameToken.range, close.range), height: height + 1)
  }

  private mutating func parseTernary(nameToken: Token, open: Token) throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
  {
    try enter()
    let conditionOperand = try parseOr()
    let condition = try requirePredicate(conditionOperand)
    _ = try expect(.comma, "after the condition of TERNARY")
    let whenTrue = try parseExpression()
    _ = try expect(.comma, "between the values of TERNARY")
    let whenFalse = try parseExpression()
    let close = try expectClosing(.closeParenthesis, openedBy: open)
    leave()
    return try expression(
      .ternary(condition.node, whenTrue.node, whenFalse.node), range(nameToken.range, close.range),
      height: Swift.max(condition.height, whenTrue.height, whenFalse.height) + 1)
  }

  // MARK: - Format arguments

  private mutating func substitute(specifier: String, token: Token) throws(PredicateSyntaxError)
    -> Parsed<ExpressionNode>
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
    return try expression(kind.kind, token.range, height: kind.height)
  }
}
