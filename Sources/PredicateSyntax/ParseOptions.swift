extension PredicateParser {
  /// How strictly to read predicate text.
  public struct Options: Sendable, Hashable {
    /// Accept typographic quotes (“ ” ‘ ’) as string delimiters, reporting a warning for each, instead of
    /// rejecting them as Apple's parser does.
    public var lenient: Bool
    /// The deepest syntax tree accepted, and the deepest nesting of parentheses, braces, brackets, calls,
    /// `NOT` and unary minus. Deeper input is an error, so no input can exhaust the stack (in the parser,
    /// the printer, or the synthesized `==` and `hash(into:)` of the tree). A chain `a OR b OR c` is as
    /// deep as it is long, because the tree nests it to the left. Deeply nested input is parsed on a
    /// dedicated thread with a 256 MiB stack, which holds a few thousand levels even in a debug build; keep
    /// the limit well below that.
    public var maximumDepth: Int

    /// The default depth limit; see `maximumDepth`.
    public static let defaultMaximumDepth = 256

    public init(lenient: Bool = false, maximumDepth: Int = Options.defaultMaximumDepth) {
      self.lenient = lenient
      self.maximumDepth = maximumDepth
    }

    /// Apple's behaviour: typographic quotes are errors.
    public static let strict = Options()
    /// Typographic quotes are accepted with warnings.
    public static let lenient = Options(lenient: true)
  }
}
