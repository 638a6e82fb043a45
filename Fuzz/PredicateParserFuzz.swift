// libFuzzer entry point for the predicate parser; built and run by `scripts/fuzz parser SECONDS`.
//
// Any byte string: parsing must return a tree or a `PredicateSyntaxError`, never crash or hang. A tree must
// survive the printer: both layouts parse back to an equal tree, and printing is idempotent. The flat
// `PredicateSyntaxTree` of valid UTF-8 is the same parse: the same tree, ranges included, or the same error.
import Foundation
import PredicateSyntax

/// Reports a broken property and stops, so libFuzzer saves the input as a crash artifact.
func propertyFailed(_ message: String, input: String) -> Never {
  FileHandle.standardError.write(
    Data("round-trip property failed: \(message)\ninput: \(input.debugDescription)\n".utf8))
  abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  if let text = String(validating: bytes, as: UTF8.self) { checkSyntaxTree(text) }
  guard let tree = try? PredicateParser.parse(utf8: bytes).predicate else { return 0 }
  let input = String(decoding: bytes, as: UTF8.self)
  for (layout, printed) in [
    ("canonical", PredicatePrinter.canonical(tree)), ("pretty", PredicatePrinter.pretty(tree)),
  ] {
    let reparsed: PredicateNode
    do {
      reparsed = try PredicateParser.parse(printed)
    } catch {
      propertyFailed("the \(layout) form \(printed.debugDescription) does not parse: \(error)", input: input)
    }
    guard reparsed == tree else {
      propertyFailed(
        "the \(layout) form \(printed.debugDescription) parses to a different tree", input: input)
    }
  }
  let canonical = PredicatePrinter.canonical(tree)
  if let again = try? PredicateParser.parse(canonical), PredicatePrinter.canonical(again) != canonical {
    propertyFailed("printing is not idempotent: \(canonical.debugDescription)", input: input)
  }
  return 0
}

/// `parseSyntaxTree` agrees with `parse`: the same node tree with the same ranges (compared through the JSON
/// form, which has every range), or the same error at the same place.
func checkSyntaxTree(_ text: String) {
  let nodes: Result<PredicateNode, PredicateSyntaxError>
  do { nodes = .success(try PredicateParser.parse(text)) } catch { nodes = .failure(error) }
  let flat: Result<PredicateNode, PredicateSyntaxError>
  do { flat = .success(try PredicateParser.parseSyntaxTree(text).predicate) } catch { flat = .failure(error) }
  switch (nodes, flat) {
  case (.success(let expected), .success(let found)):
    if SyntaxTreeJSON.string(for: expected) != SyntaxTreeJSON.string(for: found) {
      propertyFailed("the syntax tree builds a different node tree", input: text)
    }
  case (.failure(let expected), .failure(let found)):
    if expected.diagnostic != found.diagnostic {
      propertyFailed("the syntax tree parse reports \(found) instead of \(expected)", input: text)
    }
  default:
    propertyFailed("parse and parseSyntaxTree disagree on whether the text parses", input: text)
  }
}
