#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension PredicateParser {
  /// Parses predicate text read as bytes, for example from a file. Invalid UTF-8 is an error at the first
  /// bad byte.
  public static func parse(
    data: Data, options: Options = .init(), arguments: [FormatArgument] = []
  ) throws(PredicateSyntaxError) -> PredicateParseResult {
    try parse(utf8: Array(data), options: options, arguments: arguments)
  }
}
