extension PredicateParser {
  /// How strictly to read predicate text.
  public struct Options: Sendable, Hashable {
    /// Accept typographic quotes (“ ” ‘ ’) as string delimiters, reporting a warning for each, instead of
    /// rejecting them as Apple's parser does.
    public var lenient: Bool
    /// The deepest syntax tree accepted, and the deepest nesting of parentheses, braces, brackets, calls,
    /// `NOT` and unary minus. Deeper input is an error, so no input can exhaust the stack (in the parser,
    /// the printer, or the synthesized `==` and `hash(into:)` of the tree). A chain `a OR b OR c` nests to
    /// the left while that fits under the limit; a longer one is joined as a balanced tree, `log2` of its
    /// length deep, so a chain of any length is not deep nesting. Parsing stays on the caller's stack while
    /// it has room and moves to a dedicated thread with a 256 MiB stack when it runs short, which holds a
    /// few thousand levels even in a debug build; keep the limit well below that.
    public var maximumDepth: Int

    /// The longest predicate text accepted, in UTF-8 bytes. Longer text is refused before it is read, so
    /// no input makes the lexer allocate tokens in proportion to an unbounded size.
    public var maximumInputBytes: Int
    /// The deepest nesting of `SUBQUERY` inside `SUBQUERY` (in its collection or its predicate). Each level
    /// evaluates its predicate once per element of its collection, so the work of a nest multiplies
    /// level by level; an activation rule needs two levels (extension items, then attachments).
    public var maximumSubqueryNesting: Int

    /// The default depth limit; see `maximumDepth`.
    public static let defaultMaximumDepth = 256
    /// The default size limit, 1 MiB; see `maximumInputBytes`. The longest real rule in the corpus is
    /// under 2 KB; a megabyte is several hundred times more and still parses in well under a second.
    public static let defaultMaximumInputBytes = 1 << 20
    /// The default `SUBQUERY` nesting limit, 8; see `maximumSubqueryNesting`. Eight levels over
    /// collections of three elements already evaluate the innermost predicate 6 561 times.
    public static let defaultMaximumSubqueryNesting = 8

    /// Options for strict (default) or lenient reading, with limits on nesting that keep hostile input from
    /// exhausting the stack or the evaluator.
    public init(
      lenient: Bool = false, maximumDepth: Int = Options.defaultMaximumDepth,
      maximumInputBytes: Int = Options.defaultMaximumInputBytes,
      maximumSubqueryNesting: Int = Options.defaultMaximumSubqueryNesting
    ) {
      self.lenient = lenient
      self.maximumDepth = maximumDepth
      self.maximumInputBytes = maximumInputBytes
      self.maximumSubqueryNesting = maximumSubqueryNesting
    }

    /// Apple's behaviour: typographic quotes are errors.
    public static let strict = Options()
    /// Typographic quotes are accepted with warnings.
    public static let lenient = Options(lenient: true)
  }
}
