/// A parsed predicate and the warnings reading it produced (lenient mode reports typographic quotes).
public struct PredicateParseResult: Sendable, Hashable {
  /// The predicate that was read.
  public var predicate: PredicateNode
  /// Warnings about text that was accepted but is probably not what was meant, in source order.
  public var warnings: [PredicateDiagnostic]

  /// A result holding `predicate` and the `warnings` produced while reading it.
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
    // `parseReportingWarnings` without building the result it would return: the same tree, less per parse.
    try withBytes(of: text) { (bytes) throws(PredicateSyntaxError) in
      try run(bytes, options: options, arguments: arguments) {
        parser throws(PredicateSyntaxError) in
        parser.predicateNode(try parser.parseWholePredicate())
      }
    }
  }

  /// Parses predicate text and returns the warnings (lenient mode) together with the predicate.
  public static func parseReportingWarnings(
    _ text: String, options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> PredicateParseResult {
    try withBytes(of: text) { (bytes) throws(PredicateSyntaxError) in
      try parse(validUTF8: bytes, options: options, arguments: arguments)
    }
  }

  /// Parses predicate text given as UTF-8 bytes. Invalid UTF-8 is an error at the first bad byte.
  public static func parse(
    utf8 bytes: [UInt8], options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> PredicateParseResult {
    try withBytes(of: bytes) { (buffer) throws(PredicateSyntaxError) in
      // The size first: an oversized input is reported as that, not as bad UTF-8 far past the limit.
      try checkSize(buffer, options: options)
      try UTF8Validation.validate(bytes)
      return try parse(validUTF8: buffer, options: options, arguments: arguments)
    }
  }

  /// Parses a single expression (a key path, a constant, an arithmetic expression …) rather than a predicate.
  public static func parseExpression(
    _ text: String, options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> ExpressionNode {
    try withBytes(of: text) { (bytes) throws(PredicateSyntaxError) in
      try run(bytes, options: options, arguments: arguments) { parser throws(PredicateSyntaxError) in
        parser.expressionNode(try parser.parseWholeExpression())
      }
    }
  }

  private static func parse(
    validUTF8 bytes: UnsafeBufferPointer<UInt8>, options: Options, arguments: [FormatArgument]
  ) throws(PredicateSyntaxError) -> PredicateParseResult {
    try run(bytes, options: options, arguments: arguments) { parser throws(PredicateSyntaxError) in
      PredicateParseResult(
        predicate: parser.predicateNode(try parser.parseWholePredicate()), warnings: parser.warnings)
    }
  }

  /// Calls `body` with the UTF-8 bytes of `text`: a native string's own storage, not a copy (the lexer and
  /// parser read the input in place, so copying it into an array was one more allocation per parse).
  static func withBytes<Value>(
    of text: String, _ body: (UnsafeBufferPointer<UInt8>) throws(PredicateSyntaxError) -> Value
  ) throws(PredicateSyntaxError) -> Value {
    var text = text
    return try text.withUTF8 { bytes in outcome { () throws(PredicateSyntaxError) in try body(bytes) } }.get()
  }

  /// Calls `body` with the storage of `bytes`.
  static func withBytes<Value>(
    of bytes: [UInt8], _ body: (UnsafeBufferPointer<UInt8>) throws(PredicateSyntaxError) -> Value
  ) throws(PredicateSyntaxError) -> Value {
    try bytes.withUnsafeBufferPointer { buffer in
      outcome { () throws(PredicateSyntaxError) in try body(buffer) }
    }.get()
  }

  /// `body`'s value or error as a value: `withUTF8` and `withUnsafeBufferPointer` rethrow untyped errors, so
  /// the typed one crosses them this way.
  private static func outcome<Value>(_ body: () throws(PredicateSyntaxError) -> Value) -> Result<
    Value, PredicateSyntaxError
  > {
    do throws(PredicateSyntaxError) {
      return .success(try body())
    } catch {
      return .failure(error)
    }
  }

  /// Lexes, then parses with `body`: on the caller's stack when the input is shallow or the stack has room
  /// for it, on a large stack otherwise. A structural error after a string holding a typographic quote is
  /// reported as that quote, its likely cause. `bytes` must stay valid until this returns.
  static func run<Value: Sendable>(
    _ bytes: UnsafeBufferPointer<UInt8>, options: Options, arguments: [FormatArgument],
    keepingTokens: Bool = false,
    body: @escaping @Sendable (inout Parser) throws(PredicateSyntaxError) -> Value
  ) throws(PredicateSyntaxError) -> Value {
    try checkSize(bytes, options: options)
    var lexer = Lexer(bytes: bytes, lenient: options.lenient)
    let ownedTokens = try lexer.tokenizeIntoBuffer()
    // Freed when the parse returns, unless it succeeded `keepingTokens` (a `PredicateSyntaxTree` then owns
    // them); the large-stack thread reads them while this thread waits.
    var tokensKept = false
    defer { if !tokensKept { PlainMemory.free(ownedTokens) } }
    let tokens = UnsafeBufferPointer(ownedTokens)
    let warnings = lexer.warnings
    let decodedStrings = lexer.decodedStrings
    let stackLimit: UInt? =
      LargeStack.fitsOnCurrentStack(nesting: lexer.possibleNesting)
      ? 0 : LargeStack.currentStackLimit()
    if let stackLimit {
      // No closure here: the common case allocates nothing beyond the tokens and the tree. The value is
      // returned as it is made, not kept in a `Result` first, which copied it through generic code.
      var parser = Parser(
        tokens: tokens, bytes: bytes, decodedStrings: decodedStrings, options: options, arguments: arguments,
        warnings: warnings, stackLimit: stackLimit)
      do throws(PredicateSyntaxError) {
        let value = try body(&parser)
        tokensKept = keepingTokens
        return value
      } catch {
        // Input nested too deeply for this thread's stack starts over on the large stack.
        if !parser.reachedStackLimit { throw lexer.likelyCause(of: error) }
      }
    }
    // The large-stack thread reads the input while this thread waits for it in `LargeStack.run`.
    nonisolated(unsafe) let input = bytes
    nonisolated(unsafe) let deepTokens = tokens
    let deepOutcome = LargeStack.run { () -> Swift.Result<Value, PredicateSyntaxError> in
      var parser = Parser(
        tokens: deepTokens, bytes: input, decodedStrings: decodedStrings, options: options,
        arguments: arguments,
        warnings: warnings)
      do throws(PredicateSyntaxError) {
        return .success(try body(&parser))
      } catch {
        return .failure(error)
      }
    }
    switch deepOutcome {
    case .success(let value):
      tokensKept = keepingTokens
      return value
    case .failure(let error): throw lexer.likelyCause(of: error)
    }
  }
}

extension PredicateParser {
  /// Refuses text longer than `options.maximumInputBytes`, pointing at the first byte past the limit.
  static func checkSize(_ bytes: UnsafeBufferPointer<UInt8>, options: Options) throws(PredicateSyntaxError) {
    // Tokens keep positions in 32 bits (`Token`): past 2 GiB, whatever the limit, the text is refused.
    let limit = Swift.min(options.maximumInputBytes, Int(Int32.max) - 1)
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
        + (limit < options.maximumInputBytes
          ? "(positions are 32-bit numbers, whatever PredicateParser.Options.maximumInputBytes says)"
          : "(PredicateParser.Options.maximumInputBytes)")
        + "; check that the file holds one rule: a real rule is a few hundred bytes to a few kilobytes",
      at: SourceRange(start: start, end: end))
  }
}

/// A node with the height of its tree, so the depth limit is checked in O(1) per node.
struct Parsed<Node> {
  var node: Node
  var height: Int
}

/// What a parenthesised group turned out to be: at predicate level `(` may open either.
enum Operand {
  case predicate(Parsed<Int32>)
  case expression(Parsed<Int32>)
}

/// Recursive descent over the token array. Every recursive construct goes through `enter()`, which enforces
/// the nesting limit; every node goes through a height check. Together they bound the stack. `builder`
/// records the nodes (a `PredicateSyntaxTree`'s records, from which `PredicateNode` trees are made).
struct Parser: ~Copyable {
  /// A predicate read so far: its record in `builder`.
  typealias Predicate = Int32
  /// An expression read so far: its record in `builder`.
  typealias Expression = Int32

  /// The lexer's tokens, ending with `.endOfInput`, alive for the parser's lifetime (`PredicateParser.run`).
  let tokens: UnsafeBufferPointer<Token>
  /// The input, alive for the parser's lifetime (see `Lexer.bytes`).
  let bytes: UnsafeBufferPointer<UInt8>
  /// The lexer's `decodedStrings`, which `Token.Kind.decodedString` indexes.
  let decodedStrings: [String]
  // The two limits rather than all of `PredicateParser.Options`: the parser is passed by address, but calls
  // still copy it here and there, and under 128 bytes a copy is a few moves instead of a `memcpy` call.
  let maximumDepth: Int
  let maximumSubqueryNesting: Int
  let arguments: [FormatArgument]
  let warnings: [PredicateDiagnostic]
  var index = 0
  var nextArgument = 0
  var nesting = 0
  var subqueryNesting = 0
  /// The lowest stack address recursion may reach (`LargeStack.currentStackLimit()`); 0 for no check.
  let stackLimit: UInt
  /// Set when parsing stopped at `stackLimit` rather than at a real error.
  var reachedStackLimit = false
  var builder: SyntaxTreeBuilder

  init(
    tokens: UnsafeBufferPointer<Token>, bytes: UnsafeBufferPointer<UInt8>, decodedStrings: [String],
    options: PredicateParser.Options,
    arguments: [FormatArgument], warnings: [PredicateDiagnostic], stackLimit: UInt = 0
  ) {
    self.tokens = tokens
    self.bytes = bytes
    self.decodedStrings = decodedStrings
    self.maximumDepth = options.maximumDepth
    self.maximumSubqueryNesting = options.maximumSubqueryNesting
    self.arguments = arguments
    self.warnings = warnings
    self.stackLimit = stackLimit
    self.builder = SyntaxTreeBuilder(decodedStrings: decodedStrings, tokenCount: tokens.count)
  }

  deinit {
    if !builder.handedOver { builder.parts.deallocate() }
  }

  // MARK: - Entry points

  /// `predicate ::= disjunction`, then the end of input.
  mutating func parseWholePredicate() throws(PredicateSyntaxError) -> Parsed<Predicate> {
    if tokens[index].isEndOfInput {
      throw error(.emptyInput, "empty predicate: expected a comparison, TRUEPREDICATE or FALSEPREDICATE")
    }
    let predicateOperand = try parseOr()
    let predicate = try requirePredicate(consume predicateOperand)
    try expectEndOfInput(after: "the predicate")
    return predicate
  }

  /// The `PredicateNode` tree of the predicate recorded as `root`.
  func predicateNode(_ root: Parsed<Int32>) -> PredicateNode { nodeTree(root) { $0.predicate($1) } }

  /// The `ExpressionNode` tree of the expression recorded as `root`.
  func expressionNode(_ root: Parsed<Int32>) -> ExpressionNode { nodeTree(root) { $0.expression($1) } }

  /// `make`'s tree from `root`. Building it recurses once per level: a tree taller than tree walkers take on
  /// the caller's stack is built on the dedicated thread's, as the printer walks one.
  private func nodeTree<Tree: Sendable>(
    _ root: Parsed<Int32>, _ make: @escaping @Sendable (NodeMaterializer, Int32) -> Tree
  ) -> Tree {
    let parts = builder.parts
    let node = root.node
    if root.height <= LargeStack.inlineTreeHeightLimit {
      return NodeMaterializer.with(parts, tokens: tokens, input: bytes) { make($0, node) }
    }
    // The dedicated thread reads the tokens and input while this thread waits for it.
    nonisolated(unsafe) let tokens = self.tokens
    nonisolated(unsafe) let input = self.bytes
    return LargeStack.run { NodeMaterializer.with(parts, tokens: tokens, input: input) { make($0, node) } }
  }

  /// `expression`, then the end of input (`PredicateParser.parseExpression`).
  mutating func parseWholeExpression() throws(PredicateSyntaxError) -> Parsed<Expression> {
    if tokens[index].isEndOfInput { throw error(.emptyInput, "empty expression") }
    let expression = try parseExpression()
    try expectEndOfInput(after: "the expression")
    return expression
  }

  func expectEndOfInput(after what: String) throws(PredicateSyntaxError) {
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

  // The small reads below are inlined: called from a mutating method, a method that is not inlined gets a
  // copy of the parser, which is over 128 bytes with the builder (a `memcpy` call each).
  @inline(__always)
  var current: Token { tokens[index] }

  @inline(__always)
  func lookahead(_ distance: Int) -> Token { tokens[Swift.min(index + distance, tokens.count - 1)] }

  @discardableResult
  mutating func advance() -> Token {
    let token = tokens[index]
    if index < tokens.count - 1 { index += 1 }
    return token
  }

  /// Consumes `punctuation` when it is next, without copying the token. This and `consume(_:)` are
  /// inlined: every postfix and list step asks, and a call returning an optional token costs more than the
  /// test.
  @inline(__always)
  mutating func skip(_ punctuation: Punctuation) -> Bool {
    guard tokens[index].isPunctuation(punctuation) else { return false }
    advance()
    return true
  }

  @inline(__always)
  mutating func consume(_ punctuation: Punctuation) -> Token? {
    tokens[index].isPunctuation(punctuation) ? advance() : nil
  }

  mutating func consume(_ keyword: Keyword) -> Token? {
    tokens[index].isKeyword(keyword) ? advance() : nil
  }

  // `expect` and `expectClosing` are inlined and their errors are not: a call to either cost as much as
  // the token test it makes.
  @inline(__always)
  mutating func expect(_ punctuation: Punctuation, _ purpose: String) throws(PredicateSyntaxError)
    -> Token
  {
    if let token = consume(punctuation) { return token }
    throw missing(punctuation, purpose)
  }

  private func missing(_ punctuation: Punctuation, _ purpose: String) -> PredicateSyntaxError {
    error(.unexpectedToken, "expected '\(punctuation.rawValue)' \(purpose), found \(describe(current))")
  }

  /// Expects the closer of a bracketed construct, naming where it was opened when it is missing.
  @inline(__always)
  mutating func expectClosing(_ punctuation: Punctuation, openedBy opener: Token)
    throws(PredicateSyntaxError) -> Token
  {
    if let token = consume(punctuation) { return token }
    throw unclosed(punctuation, openedBy: opener)
  }

  private func unclosed(_ punctuation: Punctuation, openedBy opener: Token) -> PredicateSyntaxError {
    let openerText = source(of: opener)
    return error(
      .missingClosingDelimiter,
      "expected '\(punctuation.rawValue)' to close the '\(openerText)' at \(opener.range.start), "
        + "found \(describe(current))")
  }

  func source(of token: Token) -> String {
    String(decoding: bytes[token.range.byteRange], as: UTF8.self)
  }

  /// What a name, variable, collection operator, format specifier or string token stands for (see
  /// `PackedText.text(of:)`), for messages and the rare checks that need it as a string.
  func text(of token: Token) -> String {
    PackedText.text(of: token).string(input: bytes, strings: decodedStrings)
  }

  /// Whether `token` is an identifier that is a selector name (`sum:`, `add:to:`), which ends with `:`.
  func isSelectorName(_ token: Token) -> Bool {
    guard case .identifier = token.kind else { return false }
    return bytes[token.range.end.offset - 1] == UInt8(ascii: ":")
  }

  /// How a token is named in messages: `'AND'`, `end of input`.
  func describe(_ token: Token) -> String {
    var text = source(of: token)
    if text.count > 40 { text = String(text.prefix(37)) + "..." }
    switch token.kind {
    case .endOfInput: return "end of input"
    case .plainString, .decodedString: return "the string \(text)"
    default: return "'\(text)'"
    }
  }

  func error(_ reason: PredicateSyntaxErrorKind, _ message: String, fix: PredicateFix? = nil)
    -> PredicateSyntaxError
  {
    PredicateSyntaxError(reason, message, at: current.range, fix: fix, warnings: warnings)
  }

  /// From the start of `start` to the end of `end`.
  @inline(__always)
  func range(_ start: TokenSpan, _ end: TokenSpan) -> TokenSpan { start.through(end) }

  /// The range of the token just consumed.
  var previousRange: SourceRange { tokens[Swift.max(index - 1, 0)].range }

  /// The token just consumed, as a span.
  @inline(__always)
  var previousSpan: TokenSpan { tokens[Swift.max(index - 1, 0)].span }

  // MARK: - Depth limits

  // Inlined, the error out of line: the call cost more than the two tests.
  @inline(__always)
  mutating func enter() throws(PredicateSyntaxError) {
    nesting += 1
    // Every caller has just consumed the token that opens the level: point at it.
    if nesting > maximumDepth { throw depthErrorAtPreviousToken() }
    if stackLimit != 0, LargeStack.currentStackAddress() < stackLimit {
      reachedStackLimit = true
      throw depthErrorAtPreviousToken()
    }
  }

  private func depthErrorAtPreviousToken() -> PredicateSyntaxError { depthError(at: previousRange) }

  mutating func leave() { nesting -= 1 }

  func depthError(at range: SourceRange? = nil) -> PredicateSyntaxError {
    PredicateSyntaxError(
      .nestingTooDeep,
      "nesting deeper than the limit of \(maximumDepth) levels (PredicateParser.Options.maximumDepth); "
        + "remove redundant parentheses or split the rule",
      at: range ?? current.range,
      warnings: warnings)
  }

  /// `node` with its height, once the height is checked against the depth limit. `mutating`, though it
  /// changes nothing: called from the mutating descent, a non-mutating method got a copy of the parser (200
  /// bytes, a `memcpy` call) at every node.
  @inline(__always)
  mutating func checked<Node>(_ node: consuming Node, height: Int) throws(PredicateSyntaxError) -> Parsed<
    Node
  > {
    if height > maximumDepth { throw depthError() }
    return Parsed(node: node, height: height)
  }

  /// The range of a node read so far.
  @inline(__always)
  func range(of parsed: Parsed<Int32>) -> TokenSpan { builder.span(of: parsed.node) }
}
