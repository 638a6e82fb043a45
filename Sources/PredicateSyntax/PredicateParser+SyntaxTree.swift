extension PredicateParser {
  /// Parses predicate text into a flat ``PredicateSyntaxTree``.
  ///
  /// Accepts and rejects exactly what ``parse(_:options:arguments:)`` does, with the same errors, and the
  /// tree's ``PredicateSyntaxTree/predicate`` equals what `parse` returns. It is the faster of the two when
  /// the whole node tree is not needed: the nodes are records in one array and names stay bytes of `text`.
  ///
  /// - Parameters:
  ///   - text: the predicate, for example `ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url"`.
  ///   - options: strict (Apple's behaviour, the default) or lenient, and the limits.
  ///   - arguments: values for `%@`, `%K`, `%d` … specifiers, consumed in order.
  /// - Throws: `PredicateSyntaxError` with the range, message and (where one exists) fix.
  public static func parseSyntaxTree(
    _ text: String, options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> PredicateSyntaxTree {
    var text = text
    // The tree reads names from the text by byte offset later: contiguous storage makes that a slice.
    text.makeContiguousUTF8()
    let (parts, tokens) = try withBytes(of: text) { (bytes) throws(PredicateSyntaxError) in
      try run(bytes, options: options, arguments: arguments, keepingTokens: true) {
        parser throws(PredicateSyntaxError) in
        let predicate = try parser.parseWholePredicate()
        parser.builder.handedOver = true
        var parts = parser.builder.parts
        parts.root = predicate.node
        parts.height = predicate.height
        parts.warnings = parser.warnings
        // Last, once nothing can throw: the tree owns the tokens from here (`run` keeps them for it).
        return (parts, TokenStorage(UnsafeMutableBufferPointer(mutating: parser.tokens)))
      }
    }
    return PredicateSyntaxTree(text: text, parts: parts, tokens: tokens)
  }
}
