import PredicateSyntax
import UniformTypes

/// Adds Intune twin types (`com.microsoft.intune.mam.` + identifier) to a predicate rule so it accepts an
/// Intune-managed app's twin types wherever it accepted the original types.
///
/// ## What is added, and why exclusions stay exclusions
///
/// Every UTI test in a rule — a `UTI-CONFORMS-TO` or `UTI-EQUALS` comparison against a type `T` — asks one
/// question: "is there a type conforming to `T`" (under `ANY`/`SOME`, or on a single `$uti` in a SUBQUERY
/// over `registeredTypeIdentifiers`). The injector replaces that question with "is there a type conforming to
/// `T` *or to its twin*", and nothing else. Because the replacement is made on the question itself, its
/// polarity is kept wherever the question sits:
///
/// - `ANY x UTI-CONFORMS-TO T` becomes `… T || ANY x UTI-CONFORMS-TO twin`: accepts twins.
/// - `NONE x UTI-CONFORMS-TO T` means NOT ANY, so it becomes `NONE … T && NONE … twin`: an excluded type stays
///   excluded when it arrives as its twin.
/// - `NOT (…)` and `SUBQUERY(…).@count == 0` around a test negate the extended question, so a twin of an
///   excluded type is excluded too (ruddarr's `public.file-url` `@count == 0`, Wire's `AND NOT $uti …`).
/// - `ALL x UTI-CONFORMS-TO T` ("every type conforms to T") becomes `ALL … T || ALL … twin`: an attachment
///   whose types are all originals or all twins passes; one mixing both does not. Intune-managed apps share
///   twins in place of originals, so the twin image of an accepted attachment is accepted.
///
/// ## The text edit
///
/// Only insertions are made, so the author's layout survives. Twins of the tests in one `||` chain are
/// appended after the chain's last operand, in the order of the originals, each after a copy of the chain's
/// last separator (the Intune guide's rule B becomes exactly its rule C). A `NONE` test joins its `&&` chain
/// the same way. A test with no chain of its kind around it is wrapped: `(test || twin)`; no parentheses are
/// added where the test is a whole SUBQUERY predicate or the whole rule.
///
/// A test is left alone when its twin is already there: in the same chain, or anywhere an enclosing chain
/// holds the twinned copy of the operand containing the test (the shape IntuneMAMConfigurator's dictionary
/// conversion emits). A second run therefore changes nothing, byte for byte.
public enum TwinInjector {
  /// One insertion into the original text.
  public struct Insertion: Sendable, Hashable {
    /// UTF-8 byte offset in the original text.
    public var offset: Int
    /// The inserted text.
    public var text: String
  }

  /// What ``inject(text:tree:parse:)`` did.
  public struct Result: Sendable, Hashable {
    /// The edited text (the original when nothing was needed).
    public var text: String
    /// The tree the edited text parses to.
    public var tree: PredicateNode
    /// The insertions, in text order.
    public var insertions: [Insertion]
    /// The twin types added, each once, in the order their originals first appear (``insertions`` has an
    /// entry per place a twin went).
    public var addedTwins: [String]
  }

  /// The tree with twins added, laid out as the text edit lays it out (use it for canonical output).
  public static func injectedTree(_ tree: PredicateNode) -> PredicateNode {
    var builder = Builder(text: nil)
    return builder.predicate(tree, parent: .root, ancestors: [])
  }

  /// Adds twins to `text`, whose parse tree is `tree` (with ranges into `text`).
  ///
  /// `parse` re-reads the edited text; the edit is returned only if it reads back as the intended tree.
  public static func inject(
    text: String, tree: PredicateNode, parse: (String) throws -> PredicateNode
  ) throws(ActivationRuleError) -> Result {
    var builder = Builder(text: Array(text.utf8))
    let expected = builder.predicate(tree, parent: .root, ancestors: [])
    let insertions = builder.insertions.enumerated()
      .sorted { ($0.element.offset, $0.offset) < ($1.element.offset, $1.offset) }.map(\.element)
    guard !insertions.isEmpty else {
      return Result(text: text, tree: tree, insertions: [], addedTwins: [])
    }
    var bytes = Array(text.utf8)
    for insertion in insertions.reversed() {
      bytes.insert(contentsOf: Array(insertion.text.utf8), at: insertion.offset)
    }
    let edited = String(decoding: bytes, as: UTF8.self)
    let reparsed: PredicateNode
    do {
      reparsed = try parse(edited)
    } catch {
      throw .editVerificationFailed("the edited text does not parse: \(error)")
    }
    // Grouping aside: the parser joins a chain too long to nest to the left as a balanced tree, which the
    // twins appended at its end regroup without changing what it says.
    guard reparsed.isEqualIgnoringGrouping(to: expected) else {
      throw .editVerificationFailed("the edited text parses to a different rule")
    }
    return Result(text: edited, tree: reparsed, insertions: insertions, addedTwins: builder.addedTwins)
  }

  /// The twin types a rule would gain, each once, without editing anything.
  public static func missingTwins(_ tree: PredicateNode) -> [String] {
    var builder = Builder(text: nil)
    _ = builder.predicate(tree, parent: .root, ancestors: [])
    return builder.addedTwins
  }

  /// Replaces every non-twin type literal in UTI tests with its twin.
  public static func twinned(_ node: PredicateNode) -> PredicateNode {
    var copy = node
    switch node.kind {
    case .truePredicate, .falsePredicate: return node
    case .not(let operand): copy.kind = .not(twinned(operand))
    case .and(let lhs, let rhs): copy.kind = .and(twinned(lhs), twinned(rhs))
    case .or(let lhs, let rhs): copy.kind = .or(twinned(lhs), twinned(rhs))
    case .comparison(var comparison):
      if let type = utiLiteral(comparison) {
        comparison.rhs.kind = .constant(.string(IntuneTwin.twinIfNeeded(type)))
      } else {
        comparison.lhs = twinned(comparison.lhs)
        comparison.rhs = twinned(comparison.rhs)
      }
      copy.kind = .comparison(comparison)
    }
    return copy
  }

  static func twinned(_ expression: ExpressionNode) -> ExpressionNode {
    ExpressionWalker.mapPredicates(expression, twinned)
  }

  /// The type literal of a UTI test, or `nil` when `comparison` is not one.
  static func utiLiteral(_ comparison: Comparison) -> String? {
    guard comparison.op == .utiConformsTo || comparison.op == .utiEquals,
      case .constant(.string(let type)) = comparison.rhs.kind
    else { return nil }
    return type
  }

  // MARK: - The walk

  private enum ChainKind { case or, and }

  private enum Parent { case root, chain, not }

  private struct ChainContext {
    var kind: ChainKind
    var leaves: [PredicateNode]
    var index: Int
  }

  private struct Builder {
    let text: [UInt8]?
    var insertions: [Insertion] = []
    /// Each twin type added, once: a rule testing one type in several clauses gains it in each.
    var addedTwins: [String] = []

    init(text: [UInt8]?) { self.text = text }

    mutating func noteTwin(of type: String) {
      let twin = IntuneTwin.twinIfNeeded(type)
      if !addedTwins.contains(twin) { addedTwins.append(twin) }
    }

    mutating func predicate(_ node: PredicateNode, parent: Parent, ancestors: [ChainContext]) -> PredicateNode
    {
      switch node.kind {
      case .truePredicate, .falsePredicate:
        return node
      case .or, .and:
        return chain(node, parent: parent, ancestors: ancestors)
      case .not(let operand):
        var copy = node
        copy.kind = .not(predicate(operand, parent: .not, ancestors: ancestors))
        return copy
      case .comparison(let comparison):
        if let joiner = atomJoiner(comparison), !isCovered(node, joiner: joiner, ancestors: ancestors) {
          return wrap(node, joiner: joiner, parenthesize: parent != .root)
        }
        // A UTI test's operands are copied verbatim into its twin, so tests nested in them (a SUBQUERY as
        // the left operand) are not widened: widening them in the copy on a second run would make
        // inject twice differ from inject once (found by `scripts/fuzz injector`).
        if TwinInjector.utiLiteral(comparison) != nil { return node }
        var copy = node
        var rewritten = comparison
        rewritten.lhs = expression(comparison.lhs, ancestors: ancestors)
        rewritten.rhs = expression(comparison.rhs, ancestors: ancestors)
        copy.kind = .comparison(rewritten)
        return copy
      }
    }

    mutating func expression(_ node: ExpressionNode, ancestors: [ChainContext]) -> ExpressionNode {
      ExpressionWalker.mapPredicates(node) { predicate($0, parent: .root, ancestors: ancestors) }
    }

    /// `||` for tests whose twin widens with OR, `&&` for NONE, nil when `comparison` is no UTI test or
    /// already tests a twin.
    func atomJoiner(_ comparison: Comparison) -> ChainKind? {
      guard let type = TwinInjector.utiLiteral(comparison), !IntuneTwin.isTwin(type) else { return nil }
      return comparison.quantifier == Quantifier.none ? .and : .or
    }

    func twinAtom(_ node: PredicateNode) -> PredicateNode {
      TwinInjector.twinned(PredicateNode(node.kind))
    }

    func isCovered(_ atom: PredicateNode, joiner: ChainKind, ancestors: [ChainContext]) -> Bool {
      for context in ancestors where context.kind == .or || context.kind == joiner {
        let mine = context.leaves[context.index]
        let wanted = TwinInjector.twinned(mine)
        if wanted != mine, context.leaves.contains(wanted) { return true }
      }
      return false
    }

    // MARK: Chains

    mutating func chain(_ root: PredicateNode, parent: Parent, ancestors: [ChainContext]) -> PredicateNode {
      let kind: ChainKind
      if case .or = root.kind { kind = .or } else { kind = .and }
      let leaves = Self.leaves(of: root, kind: kind)
      var appended: [PredicateNode] = []
      var appendedTexts: [String] = []
      var transformed: [PredicateNode] = []
      for (index, leaf) in leaves.enumerated() {
        let context = ChainContext(kind: kind, leaves: leaves, index: index)
        if case .comparison(let comparison) = leaf.kind, let joiner = atomJoiner(comparison), joiner == kind {
          transformed.append(leaf)
          if !isCovered(leaf, joiner: joiner, ancestors: ancestors + [context]) {
            let twin = twinAtom(leaf)
            appended.append(twin)
            appendedTexts.append(twinText(leaf) ?? "")
            if let type = TwinInjector.utiLiteral(comparison) { noteTwin(of: type) }
          }
        } else {
          transformed.append(predicate(leaf, parent: .chain, ancestors: ancestors + [context]))
        }
      }
      var index = 0
      var result = Self.rebuild(root, kind: kind) { _ in
        defer { index += 1 }
        return transformed[index]
      }
      for twin in appended {
        result = PredicateNode(kind == .or ? .or(result, twin) : .and(result, twin))
      }
      if !appended.isEmpty, let text {
        let end = Self.chainEnd(leaves: leaves, text: text)
        let separator = Self.separator(leaves: leaves, kind: kind, text: text)
        insertions.append(
          Insertion(offset: end, text: appendedTexts.map { separator + $0 }.joined()))
      }
      return result
    }

    mutating func wrap(_ atom: PredicateNode, joiner: ChainKind, parenthesize: Bool) -> PredicateNode {
      let twin = twinAtom(atom)
      if case .comparison(let comparison) = atom.kind, let type = TwinInjector.utiLiteral(comparison) {
        noteTwin(of: type)
      }
      if let text, let twinText = twinText(atom) {
        let operatorText = joiner == .or ? " || " : " && "
        let end = Self.closeParentheses(from: atom.range.start.offset, to: atom.range.end.offset, text: text)
        if parenthesize { insertions.append(Insertion(offset: atom.range.start.offset, text: "(")) }
        insertions.append(Insertion(offset: end, text: operatorText + twinText + (parenthesize ? ")" : "")))
      }
      return PredicateNode(joiner == .or ? .or(atom, twin) : .and(atom, twin))
    }

    /// The source text of a UTI test with the twin prefix inserted after the literal's opening quote.
    func twinText(_ atom: PredicateNode) -> String? {
      guard let text, case .comparison(let comparison) = atom.kind else { return nil }
      let start = atom.range.start.offset
      let end = Self.closeParentheses(from: start, to: atom.range.end.offset, text: text)
      let literalStart = comparison.rhs.range.start.offset
      guard start <= literalStart, literalStart < end, end <= text.count else { return nil }
      let before = String(decoding: text[start...literalStart], as: UTF8.self)
      let after = String(decoding: text[(literalStart + 1)..<end], as: UTF8.self)
      return before + IntuneTwin.prefix + after
    }

    static func leaves(of node: PredicateNode, kind: ChainKind) -> [PredicateNode] {
      switch (node.kind, kind) {
      case (.or(let lhs, let rhs), .or), (.and(let lhs, let rhs), .and):
        return leaves(of: lhs, kind: kind) + leaves(of: rhs, kind: kind)
      default:
        return [node]
      }
    }

    static func rebuild(
      _ node: PredicateNode, kind: ChainKind, _ leaf: (PredicateNode) -> PredicateNode
    ) -> PredicateNode {
      var copy = node
      switch (node.kind, kind) {
      case (.or(let lhs, let rhs), .or):
        let left = rebuild(lhs, kind: kind, leaf)
        copy.kind = .or(left, rebuild(rhs, kind: kind, leaf))
      case (.and(let lhs, let rhs), .and):
        let left = rebuild(lhs, kind: kind, leaf)
        copy.kind = .and(left, rebuild(rhs, kind: kind, leaf))
      default:
        return leaf(node)
      }
      return copy
    }

    /// Just past the last operand, and past any `)` that closes a `(` opened inside the chain's span, so
    /// the insertion lands inside the chain's own parentheses and after the operand's.
    static func chainEnd(leaves: [PredicateNode], text: [UInt8]) -> Int {
      guard let first = leaves.first, let last = leaves.last else { return 0 }
      return closeParentheses(from: first.range.start.offset, to: last.range.end.offset, text: text)
    }

    /// `end`, moved past the `)`s that close `(`s left open between `start` and `end` (string literals
    /// skipped).
    static func closeParentheses(from start: Int, to end: Int, text: [UInt8]) -> Int {
      var open = 0
      var index = start
      var quote: UInt8?
      while index < end, index < text.count {
        let byte = text[index]
        if let current = quote {
          if byte == UInt8(ascii: "\\") {
            index += 1
          } else if byte == current {
            quote = nil
          }
        } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
          quote = byte
        } else if byte == UInt8(ascii: "(") {
          open += 1
        } else if byte == UInt8(ascii: ")"), open > 0 {
          open -= 1
        }
        index += 1
      }
      var position = end
      while open > 0, position < text.count {
        let byte = text[position]
        if byte == UInt8(ascii: ")") {
          open -= 1
        } else if !Self.isSpace(byte) {
          break
        }
        position += 1
      }
      return open == 0 ? position : end
    }

    static func isSpace(_ byte: UInt8) -> Bool {
      byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n")
        || byte == UInt8(ascii: "\r")
    }

    /// The text joining the chain's last two operands, reduced to blanks, the operator and blanks (so
    /// parentheses around operands are not copied); `" || "`/`" && "` when the chain has one operand or the
    /// joining text is unusual.
    static func separator(leaves: [PredicateNode], kind: ChainKind, text: [UInt8]) -> String {
      let fallback = kind == .or ? " || " : " && "
      guard leaves.count >= 2 else { return fallback }
      let previous = leaves[leaves.count - 2]
      let last = leaves[leaves.count - 1]
      let from = closeParentheses(
        from: previous.range.start.offset, to: previous.range.end.offset, text: text)
      let to = last.range.start.offset
      guard from <= to, to <= text.count else { return fallback }
      let between = Array(text[from..<to])
      let operators: [[UInt8]] =
        kind == .or ? [Array("||".utf8), Array("OR".utf8)] : [Array("&&".utf8), Array("AND".utf8)]
      for index in between.indices {
        for spelling in operators where index + spelling.count <= between.count {
          let candidate = between[index..<(index + spelling.count)]
          guard candidate.map(Self.uppercased).elementsEqual(spelling) else { continue }
          var before = index
          while before > 0, isSpace(between[before - 1]) { before -= 1 }
          var after = index + spelling.count
          while after < between.count, isSpace(between[after]) { after += 1 }
          let leading = String(decoding: between[before..<index], as: UTF8.self)
          let word = String(decoding: candidate, as: UTF8.self)
          let trailing = String(decoding: between[(index + spelling.count)..<after], as: UTF8.self)
          return (leading.isEmpty ? " " : leading) + word + (trailing.isEmpty ? " " : trailing)
        }
      }
      return fallback
    }

    static func uppercased(_ byte: UInt8) -> UInt8 {
      (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) ? byte - 32 : byte
    }
  }
}

/// Rewrites the predicates nested inside an expression (SUBQUERY and TERNARY), leaving the rest as is.
enum ExpressionWalker {
  static func mapPredicates(
    _ node: ExpressionNode, _ transform: (PredicateNode) -> PredicateNode
  ) -> ExpressionNode {
    var copy = node
    func map(_ child: ExpressionNode) -> ExpressionNode { mapPredicates(child, transform) }
    switch node.kind {
    case .constant, .evaluatedObject, .variable, .anyKey:
      return node
    case .keyPath(let base, let components):
      copy.kind = .keyPath(base: base.map(map), components: components)
    case .index(let collection, let index):
      let mappedIndex: IndexKind
      if case .expression(let expression) = index {
        mappedIndex = .expression(map(expression))
      } else {
        mappedIndex = index
      }
      copy.kind = .index(map(collection), mappedIndex)
    case .aggregate(let elements):
      copy.kind = .aggregate(elements.map(map))
    case .subquery(let collection, let variable, let predicate):
      copy.kind = .subquery(collection: map(collection), variable: variable, predicate: transform(predicate))
    case .function(let name, let arguments):
      copy.kind = .function(name: name, arguments: arguments.map(map))
    case .functionCall(let receiver, let selector, let arguments):
      copy.kind = .functionCall(receiver: map(receiver), selector: selector, arguments: arguments.map(map))
    case .cast(let value, let type):
      copy.kind = .cast(map(value), type: map(type))
    case .arithmetic(let op, let lhs, let rhs):
      copy.kind = .arithmetic(op, map(lhs), map(rhs))
    case .negate(let operand):
      copy.kind = .negate(map(operand))
    case .setOperation(let op, let lhs, let rhs):
      copy.kind = .setOperation(op, map(lhs), map(rhs))
    case .assignment(let variable, let value):
      copy.kind = .assignment(variable: variable, value: map(value))
    case .ternary(let condition, let whenTrue, let whenFalse):
      copy.kind = .ternary(transform(condition), map(whenTrue), map(whenFalse))
    }
    return copy
  }
}
