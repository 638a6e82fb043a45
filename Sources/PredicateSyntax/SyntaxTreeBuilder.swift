// The records behind `PredicateSyntaxTree`, and the builder that appends them as the parser reads.

/// One node of a `PredicateSyntaxTree`: a tag, up to three child indices, one 64-bit payload and the tokens
/// it spans (40 bytes: a record with its `SourceRange` took 80, and the parse copied ranges node by node).
/// What each field holds depends on the tag (see `SyntaxRecord.Tag`); unused children are -1.
struct SyntaxRecord: Sendable {
  /// The node's form, with what its fields hold.
  enum Tag: UInt8, Sendable {
    case truePredicate, falsePredicate
    /// `first`
    case not
    /// `first`, `second`
    case and, or
    /// `first` lhs, `second` rhs, `comparisonOperator`, `options`, `quantifier`, and `value` the tokens of
    /// its operator and options (`packedSpan`).
    case comparison
    /// `flag` for `bool`; `value` the integer's or double's bits, or a string's `PackedText`.
    case null, bool, integer, double, string
    case evaluatedObject, anyKey
    /// `value` the name's `PackedText`.
    case variable
    /// `first` the base or -1, `second` the first component, `third` the number of components.
    case keyPath
    /// `first` the collection, `indexForm` what is in the brackets, for `.expression` in `second`.
    case index
    /// `second` the first element in `lists`, `third` how many.
    case aggregate
    /// `first` the collection, `second` the predicate, `value` the variable's `PackedText`.
    case subquery
    /// `value` the name's `PackedText`; arguments as `aggregate`'s elements.
    case function
    /// `first` the receiver, `value` the selector's `PackedText`; arguments as `aggregate`'s elements.
    case functionCall
    /// `first` the value, `second` the type.
    case cast
    /// `arithmeticOperator` or `setOperator`, `first`, `second` the operands.
    case arithmetic, setOperation
    /// `first`
    case negate
    /// `first` the value, `value` the variable's `PackedText`.
    case assignment
    /// `first` the condition, `second` and `third` the values.
    case ternary
  }

  var tag: Tag
  /// `bool`'s value.
  var flag = false
  /// What `index` holds in its brackets.
  var indexForm = PredicateSyntaxTree.IndexForm.first
  var comparisonOperator = ComparisonOperator.equalTo
  var options: ComparisonOptions = []
  var quantifier: Quantifier?
  var arithmeticOperator = ArithmeticOperator.add
  var setOperator = SetOperator.union
  var first: Int32 = -1
  var second: Int32 = -1
  var third: Int32 = -1
  var value: UInt64 = 0
  var span: TokenSpan

  init(_ tag: Tag, span: TokenSpan) {
    self.tag = tag
    self.span = span
  }

  /// `span` in one 64-bit payload.
  static func packedSpan(_ span: TokenSpan) -> UInt64 {
    UInt64(UInt32(bitPattern: span.first)) | UInt64(UInt32(bitPattern: span.last)) << 32
  }

  /// The span `packedSpan` packed into `value`.
  var valueSpan: TokenSpan {
    TokenSpan(
      first: Int32(bitPattern: UInt32(truncatingIfNeeded: value)),
      last: Int32(bitPattern: UInt32(truncatingIfNeeded: value >> 32)))
  }
}

/// One key path component: a key or a collection operator, and its text.
struct ComponentRecord: Sendable {
  var isOperator: Bool
  var text: PackedText
}

/// A name or string as bytes of the input (start in the low 32 bits, end in the next 31) or, with the top
/// bit set, the number of a string in the tree's `strings`.
struct PackedText: Sendable {
  var bits: UInt64

  static func decoded(_ number: Int) -> PackedText { PackedText(bits: 1 << 63 | UInt64(number)) }

  /// What a name, variable, collection operator, format specifier or string token stands for: its bytes
  /// without the sigil or the quotes, or the number of a string literal the lexer decoded (see
  /// `Token.Kind`). Every name and string of a parse comes here, so the offsets are computed directly rather
  /// than through a `Range` (whose bounds checks cost more). They fit: text of 2 GiB or more is refused
  /// before it is read (`PredicateParser.checkSize`).
  @inline(__always)
  static func text(of token: Token) -> PackedText {
    let start = token.startByte
    let end = token.endByte
    let bounds: (Int, Int)
    switch token.kind {
    case .escapedIdentifier, .variable, .collectionOperator, .formatSpecifier: bounds = (start &+ 1, end)
    case .plainString: bounds = (start &+ 1, end &- 1)
    case .decodedString(let number): return .decoded(number)
    default: bounds = (start, end)
    }
    return PackedText(bits: UInt64(truncatingIfNeeded: bounds.0) | UInt64(truncatingIfNeeded: bounds.1) << 32)
  }

  var decodedNumber: Int? { bits >> 63 == 1 ? Int(bits & 0xFFFF_FFFF) : nil }
  var inputSpan: Range<Int> { Int(bits & 0xFFFF_FFFF)..<Int(bits >> 32) }

  /// The text: bytes of `input`, or one of `strings` (the lexer's decoded strings, and any the tree kept).
  func string(input: UnsafeBufferPointer<UInt8>, strings: [String]) -> String {
    if let number = decodedNumber { return strings[number] }
    return String(decoding: UnsafeBufferPointer(rebasing: input[inputSpan]), as: UTF8.self)
  }
}

/// Everything a parse appends; `PredicateSyntaxTree` owns it once the parse succeeds. `records` and
/// `components` are freed by their owner (see `RecordList`).
struct SyntaxTreeParts: Sendable {
  var records: RecordList<SyntaxRecord>
  var components: RecordList<ComponentRecord>
  var lists: [Int32] = []
  var strings: [String]
  var root: Int32 = -1
  var height = 0
  var warnings: [PredicateDiagnostic] = []

  /// Parts with room for `records` nodes and `components` key path components before growing.
  init(strings: [String], records: Int, components: Int) {
    self.strings = strings
    self.records = RecordList(capacity: records)
    self.components = RecordList(capacity: components)
  }

  /// Frees `records` and `components`.
  func deallocate() {
    records.deallocate()
    components.deallocate()
  }

  /// `string`, kept in the tree's own strings.
  mutating func keep(_ string: String) -> PackedText {
    strings.append(string)
    return .decoded(strings.count - 1)
  }

  mutating func append(_ record: SyntaxRecord) -> Int32 {
    records.append(record)
    return Int32(truncatingIfNeeded: records.count - 1)
  }

  /// Appends the record of the constant `value` (read, or a format argument's).
  @inline(__always)
  mutating func appendConstant(_ value: Constant, span: TokenSpan) -> Int32 {
    var record = SyntaxRecord(.null, span: span)
    switch value {
    case .null: break
    case .bool(let flag):
      record.tag = .bool
      record.flag = flag
    case .integer(let number):
      record.tag = .integer
      record.value = UInt64(bitPattern: Int64(number))
    case .double(let number):
      record.tag = .double
      record.value = number.bitPattern
    case .string(let text):
      record.tag = .string
      record.value = keep(text).bits
    }
    return append(record)
  }
}

/// Builds a `PredicateSyntaxTree`: every node is a record appended to one array, names and strings stay byte
/// ranges of the input, so a parse allocates a few arrays rather than an object per node.
struct SyntaxTreeBuilder {
  var parts: SyntaxTreeParts
  /// Set when a `PredicateSyntaxTree` takes `parts`; until then the parser frees them when it ends.
  var handedOver = false
  /// Elements of the lists being read, innermost last: lists nest, so each takes the top of this stack and
  /// moves to `parts.lists` when it closes.
  var pendingElements: [Int32] = []

  init(decodedStrings: [String], tokenCount: Int) {
    // Sized from the tokens so that each list is allocated once: most nodes take two or more tokens (a key
    // path component takes two, `.` and the name). No corpus rule grows either list (callgrind counts one
    // allocation of each per parse); an estimate that is short grows the list.
    parts = SyntaxTreeParts(
      strings: decodedStrings, records: tokenCount * 3 / 4 + 4, components: tokenCount / 4 + 2)
  }

  /// The tokens of the node `record`.
  func span(of record: Int32) -> TokenSpan { parts.records[Int(record)].span }

  /// Widens a parenthesised node's span to its parentheses.
  mutating func setSpan(_ span: TokenSpan, of record: Int32) {
    parts.records[Int(record)].span = span
  }

  private mutating func node(
    _ tag: SyntaxRecord.Tag, _ range: TokenSpan, _ first: Int32 = -1, _ second: Int32 = -1,
    _ third: Int32 = -1, value: UInt64 = 0
  ) -> Int32 {
    var record = SyntaxRecord(tag, span: range)
    record.first = first
    record.second = second
    record.third = third
    record.value = value
    return parts.append(record)
  }

  // MARK: Predicates

  mutating func constantPredicate(_ value: Bool, range: TokenSpan) -> Int32 {
    node(value ? .truePredicate : .falsePredicate, range)
  }

  mutating func not(_ operand: Int32, range: TokenSpan) -> Int32 { node(.not, range, operand) }

  mutating func compound(_ link: Link, _ left: Int32, _ right: Int32, range: TokenSpan) -> Int32 {
    node(link == .or ? .or : .and, range, left, right)
  }

  mutating func comparison(
    quantifier: Quantifier?, lhs: Int32, op: ComparisonOperator, options: ComparisonOptions, rhs: Int32,
    operatorRange: TokenSpan, range: TokenSpan
  ) -> Int32 {
    var record = SyntaxRecord(.comparison, span: range)
    record.first = lhs
    record.second = rhs
    record.comparisonOperator = op
    record.options = options
    record.quantifier = quantifier
    record.value = SyntaxRecord.packedSpan(operatorRange)
    return parts.append(record)
  }

  // MARK: Expressions

  mutating func constant(_ value: Constant, range: TokenSpan) -> Int32 {
    parts.appendConstant(value, span: range)
  }

  mutating func string(_ token: Token) -> Int32 {
    node(.string, token.span, value: PackedText.text(of: token).bits)
  }

  mutating func evaluatedObject(range: TokenSpan) -> Int32 { node(.evaluatedObject, range) }

  mutating func anyKey(range: TokenSpan) -> Int32 { node(.anyKey, range) }

  mutating func variable(_ token: Token) -> Int32 {
    node(.variable, token.span, value: PackedText.text(of: token).bits)
  }

  mutating func assignment(variable token: Token, value: Int32, range: TokenSpan) -> Int32 {
    node(.assignment, range, value, value: PackedText.text(of: token).bits)
  }

  mutating func arithmetic(_ op: ArithmeticOperator, _ left: Int32, _ right: Int32, range: TokenSpan)
    -> Int32
  {
    var record = SyntaxRecord(.arithmetic, span: range)
    record.first = left
    record.second = right
    record.arithmeticOperator = op
    return parts.append(record)
  }

  mutating func setOperation(_ op: SetOperator, _ left: Int32, _ right: Int32, range: TokenSpan) -> Int32 {
    var record = SyntaxRecord(.setOperation, span: range)
    record.first = left
    record.second = right
    record.setOperator = op
    return parts.append(record)
  }

  mutating func negate(_ operand: Int32, range: TokenSpan) -> Int32 { node(.negate, range, operand) }

  mutating func index(_ base: Int32, _ index: IndexOperand, range: TokenSpan) -> Int32 {
    var record = SyntaxRecord(.index, span: range)
    record.first = base
    switch index {
    case .first: record.indexForm = .first
    case .last: record.indexForm = .last
    case .size: record.indexForm = .size
    case .expression(let expression):
      record.indexForm = .expression
      record.second = expression
    }
    return parts.append(record)
  }

  mutating func subquery(collection: Int32, variable token: Token, predicate: Int32, range: TokenSpan)
    -> Int32
  {
    node(.subquery, range, collection, predicate, value: PackedText.text(of: token).bits)
  }

  mutating func cast(_ value: Int32, type: Int32, range: TokenSpan) -> Int32 {
    node(.cast, range, value, type)
  }

  mutating func ternary(_ condition: Int32, _ whenTrue: Int32, _ whenFalse: Int32, range: TokenSpan)
    -> Int32
  {
    node(.ternary, range, condition, whenTrue, whenFalse)
  }

  /// A format argument's value, substituted for the specifier `token`.
  mutating func substituted(_ kind: ExpressionNode.Kind, for token: Token) -> Int32 {
    parts.append(ExpressionNode(kind, range: token.range), spanning: token.span)
  }

  // MARK: Key paths

  /// A key path being read: its base, where its components start in `parts.components`, and the record of
  /// the key path it continues, if any (reused: nothing else refers to it).
  struct KeyPathDraft {
    var base: Int32
    var start: Int32
    var reused: Int32

    /// Whether it continues the key path `reused`.
    var continues: Bool { reused >= 0 }
  }

  mutating func beginKeyPath() -> KeyPathDraft {
    KeyPathDraft(base: -1, start: Int32(truncatingIfNeeded: parts.components.count), reused: -1)
  }

  @inline(__always)
  mutating func beginKeyPath(after base: Int32, extending: Bool) -> KeyPathDraft {
    let record = parts.records[Int(base)]
    guard extending, record.tag == .keyPath else {
      return KeyPathDraft(base: base, start: Int32(truncatingIfNeeded: parts.components.count), reused: -1)
    }
    var start = record.second
    // The components continue the existing ones; they are the last appended unless a format argument's
    // key path came between, when they are copied to the end first.
    if Int(start) + Int(record.third) != parts.components.count {
      let existing = Int(start)..<Int(start + record.third)
      start = Int32(truncatingIfNeeded: parts.components.count)
      parts.components.appendCopy(of: existing)
    }
    return KeyPathDraft(base: record.first, start: start, reused: base)
  }

  @inline(__always)
  mutating func appendComponent(_ token: Token, isOperator: Bool, to draft: inout KeyPathDraft) {
    parts.components.append(
      ComponentRecord(isOperator: isOperator, text: PackedText.text(of: token)))
  }

  @inline(__always)
  mutating func finishKeyPath(_ draft: consuming KeyPathDraft, range: TokenSpan) -> Int32 {
    let count = Int32(truncatingIfNeeded: parts.components.count) - draft.start
    if draft.continues {
      parts.records[Int(draft.reused)].span = range
      parts.records[Int(draft.reused)].second = draft.start
      parts.records[Int(draft.reused)].third = count
      return draft.reused
    }
    return node(.keyPath, range, draft.base, draft.start, count)
  }

  // MARK: Lists and calls

  mutating func beginList() -> Int { pendingElements.count }

  mutating func append(_ element: Int32, to list: inout Int) { pendingElements.append(element) }

  func count(of list: Int) -> Int { pendingElements.count - list }

  mutating func pair(_ list: consuming Int) -> (Int32, Int32) {
    let start = list
    defer { pendingElements.removeSubrange(start...) }
    return (pendingElements[start], pendingElements[start + 1])
  }

  /// Moves the list's elements to `parts.lists`: where they start there, and how many.
  private mutating func close(_ list: Int) -> (Int32, Int32) {
    let start = Int32(truncatingIfNeeded: parts.lists.count)
    parts.lists.append(contentsOf: pendingElements[list...])
    pendingElements.removeSubrange(list...)
    return (start, Int32(truncatingIfNeeded: parts.lists.count) - start)
  }

  mutating func aggregate(_ elements: consuming Int, range: TokenSpan) -> Int32 {
    let (start, count) = close(elements)
    return node(.aggregate, range, -1, start, count)
  }

  mutating func function(name token: Token, arguments: consuming Int, range: TokenSpan) -> Int32 {
    let name = PackedText.text(of: token)
    let (start, count) = close(arguments)
    return node(.function, range, -1, start, count, value: name.bits)
  }

  mutating func functionCall(
    receiver: Int32, selector token: Token, arguments: consuming Int, range: TokenSpan
  )
    -> Int32
  {
    let selector = PackedText.text(of: token)
    let (start, count) = close(arguments)
    return node(.functionCall, range, receiver, start, count, value: selector.bits)
  }
}

/// A parse's token buffer on its way to a `PredicateSyntaxTree`, whose storage frees it
/// (`PredicateParser.run` hands it over). A struct, not an object of its own: the tree's storage is the one
/// allocation that owns it, which saves an allocation and its release per parse.
struct TokenStorage: @unchecked Sendable {
  let buffer: UnsafeMutableBufferPointer<Token>

  init(_ buffer: UnsafeMutableBufferPointer<Token>) { self.buffer = buffer }

  var tokens: UnsafeBufferPointer<Token> { UnsafeBufferPointer(buffer) }

  /// Frees the tokens; only the tree's storage calls it, once.
  func deallocate() { PlainMemory.free(buffer) }
}
