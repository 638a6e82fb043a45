/// A parsed predicate as one flat array of nodes, read with ``PredicateParser/parseSyntaxTree(_:options:arguments:)``.
///
/// The same parse as ``PredicateParser/parse(_:options:arguments:)``, the same errors and the same ranges,
/// but the nodes are records in one array and names and strings stay bytes of the text until read, so a
/// parse makes a few arrays instead of an object per node. Use it to check or index many rules, or to read
/// a few facts (which types a rule names, where a comparison is) without building the whole node tree;
/// ``predicate`` gives the ``PredicateNode`` tree when you need it, equal to what `parse` returns, ranges
/// included.
///
/// ```swift
/// let tree = try PredicateParser.parseSyntaxTree(#"ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url""#)
/// if case .comparison(_, .utiConformsTo, _) = tree.root.kind { print(tree.root.children[1].kind) }
/// ```
public struct PredicateSyntaxTree: Sendable {
  let storage: Storage

  final class Storage: Sendable {
    let text: String
    let parts: SyntaxTreeParts
    /// The parse's tokens: a record's span names the first and last of them.
    let tokens: TokenStorage

    init(text: String, parts: SyntaxTreeParts, tokens: TokenStorage) {
      self.text = text
      self.parts = parts
      self.tokens = tokens
    }

    deinit {
      parts.deallocate()
      tokens.deallocate()
    }

    /// The root's `PredicateNode` tree.
    func predicate() -> PredicateNode {
      var text = self.text
      return text.withUTF8 { input in
        NodeMaterializer.with(parts, tokens: tokens.tokens, input: input) { $0.predicate(parts.root) }
      }
    }

    /// The text a record's `PackedText` names.
    func string(_ packed: PackedText) -> String {
      var text = self.text
      return text.withUTF8 { packed.string(input: $0, strings: parts.strings) }
    }
  }

  init(text: String, parts: SyntaxTreeParts, tokens: TokenStorage) {
    storage = Storage(text: text, parts: parts, tokens: tokens)
  }

  /// The text that was parsed.
  public var text: String { storage.text }

  /// The whole predicate.
  public var root: Node { Node(storage: storage, index: storage.parts.root) }

  /// How many nodes the tree has.
  public var nodeCount: Int { storage.parts.records.count }

  /// Warnings about text that was accepted but is probably not what was meant (lenient mode), in source order.
  public var warnings: [PredicateDiagnostic] { storage.parts.warnings }

  /// The tree as ``PredicateNode`` values: equal to what ``PredicateParser/parse(_:options:arguments:)``
  /// returns for the same text, every range included.
  public var predicate: PredicateNode {
    let storage = self.storage
    // Building recurses once per level: a tree taller than tree walkers take on the caller's stack is built
    // on the dedicated thread's, as the printer walks one.
    if storage.parts.height <= LargeStack.inlineTreeHeightLimit { return storage.predicate() }
    return LargeStack.run { storage.predicate() }
  }
}

extension PredicateSyntaxTree {
  /// One node of a ``PredicateSyntaxTree``: what it is, where it was written, and its children.
  public struct Node: Sendable {
    let storage: Storage
    let index: Int32

    var record: SyntaxRecord { storage.parts.records[Int(index)] }

    /// Where the node was written; a parenthesised node's range includes its parentheses.
    public var range: SourceRange { record.span.range(in: storage.tokens.tokens) }

    /// Whether the node is a predicate (true or false) rather than an expression (a value).
    public var isPredicate: Bool {
      switch record.tag {
      case .truePredicate, .falsePredicate, .not, .and, .or, .comparison: true
      default: false
      }
    }

    /// Where a comparison's operator and its options were written; `nil` for other nodes.
    public var operatorRange: SourceRange? {
      let record = self.record
      guard record.tag == .comparison else { return nil }
      return record.valueSpan.range(in: storage.tokens.tokens)
    }

    /// What the node is, with what it holds besides its children.
    public var kind: Kind {
      let record = self.record
      let parts = storage.parts
      switch record.tag {
      case .truePredicate: return .truePredicate
      case .falsePredicate: return .falsePredicate
      case .not: return .not
      case .and: return .and
      case .or: return .or
      case .comparison:
        return .comparison(record.quantifier, record.comparisonOperator, record.options)
      case .null: return .constant(.null)
      case .bool: return .constant(.bool(record.flag))
      case .integer: return .constant(.integer(Int(Int64(bitPattern: record.value))))
      case .double: return .constant(.double(Double(bitPattern: record.value)))
      case .string: return .constant(.string(storage.string(PackedText(bits: record.value))))
      case .evaluatedObject: return .evaluatedObject
      case .anyKey: return .anyKey
      case .variable: return .variable(storage.string(PackedText(bits: record.value)))
      case .keyPath:
        let components = parts.components.buffer[Int(record.second)..<Int(record.second + record.third)]
        return .keyPath(components.map { storage.component($0) })
      case .index: return .index(record.indexForm)
      case .aggregate: return .aggregate
      case .subquery: return .subquery(variable: storage.string(PackedText(bits: record.value)))
      case .function: return .function(name: storage.string(PackedText(bits: record.value)))
      case .functionCall: return .functionCall(selector: storage.string(PackedText(bits: record.value)))
      case .cast: return .cast
      case .arithmetic: return .arithmetic(record.arithmeticOperator)
      case .setOperation: return .setOperation(record.setOperator)
      case .negate: return .negate
      case .assignment: return .assignment(variable: storage.string(PackedText(bits: record.value)))
      case .ternary: return .ternary
      }
    }

    /// The node's operands in source order: see each ``Kind`` case for what they are.
    public var children: [Node] {
      storage.children(of: record).map { Node(storage: storage, index: $0) }
    }
  }

  /// The forms a node takes; children are not part of the kind but listed by ``Node/children``.
  public enum Kind: Sendable, Hashable {
    /// `TRUEPREDICATE`; no children.
    case truePredicate
    /// `FALSEPREDICATE`; no children.
    case falsePredicate
    /// `NOT p`; one child.
    case not
    /// `a AND b`; two children.
    case and
    /// `a OR b`; two children.
    case or
    /// `[quantifier] lhs op[options] rhs`; the children are `lhs` and `rhs`.
    case comparison(Quantifier?, ComparisonOperator, ComparisonOptions)
    /// A literal; no children.
    case constant(Constant)
    /// `SELF`; no children.
    case evaluatedObject
    /// `ANYKEY`; no children.
    case anyKey
    /// `$name` (without `$`); no children.
    case variable(String)
    /// A key path's components after its base; its child is the base, if it has one (`$x.a`, `(a).b`).
    case keyPath([KeyPathComponent])
    /// `collection[…]`; the children are the collection and, for `.expression`, the index.
    case index(IndexForm)
    /// `{a, b, c}`; the children are the elements.
    case aggregate
    /// `SUBQUERY(collection, $variable, predicate)`; the children are the collection and the predicate.
    case subquery(variable: String)
    /// `name(arguments…)`; the children are the arguments.
    case function(name: String)
    /// `FUNCTION(receiver, 'selector', arguments…)`; the children are the receiver and the arguments.
    case functionCall(selector: String)
    /// `CAST(value, type)`; the children are the value and the type.
    case cast
    /// `lhs op rhs`; two children.
    case arithmetic(ArithmeticOperator)
    /// `-operand`; one child.
    case negate
    /// `lhs UNION|INTERSECT|MINUS rhs`; two children.
    case setOperation(SetOperator)
    /// `$variable := value`; the child is the value.
    case assignment(variable: String)
    /// `TERNARY(predicate, whenTrue, whenFalse)`; three children.
    case ternary
  }

  /// What is inside the brackets of `collection[…]`.
  public enum IndexForm: Sendable, Hashable {
    /// `[FIRST]`
    case first
    /// `[LAST]`
    case last
    /// `[SIZE]`
    case size
    /// `[expression]`: the node's second child.
    case expression
  }
}

extension PredicateSyntaxTree.Storage {
  func component(_ component: ComponentRecord) -> KeyPathComponent {
    let name = string(component.text)
    return component.isOperator ? .collectionOperator(name) : .key(name)
  }

  /// The indices of a record's children, in source order.
  func children(of record: SyntaxRecord) -> [Int32] {
    switch record.tag {
    case .truePredicate, .falsePredicate, .null, .bool, .integer, .double, .string, .evaluatedObject, .anyKey,
      .variable:
      return []
    case .not, .negate, .assignment: return [record.first]
    case .and, .or, .comparison, .cast, .arithmetic, .setOperation, .subquery:
      return [record.first, record.second]
    case .keyPath: return record.first >= 0 ? [record.first] : []
    case .index: return record.indexForm == .expression ? [record.first, record.second] : [record.first]
    case .ternary: return [record.first, record.second, record.third]
    case .aggregate, .function: return list(of: record)
    case .functionCall: return [record.first] + list(of: record)
    }
  }

  /// A list's elements: `second` is where they start in `lists`, `third` how many.
  func list(of record: SyntaxRecord) -> [Int32] {
    Array(parts.lists[Int(record.second)..<Int(record.second + record.third)])
  }
}
