// libFuzzer entry point for the evaluator; built and run by `scripts/fuzz evaluator SECONDS`.
//
// Input: a predicate, a NUL byte, then a JSON value (the object). Whatever the input, evaluation must end
// with an answer or an `EvaluationError`, never crash or hang, and the tree-walker and the compiled form
// must agree: the same answer, or both an error.
import Foundation
import PredicateEvaluation
import PredicateSyntax
import UniformTypes

func propertyFailed(_ message: String, predicate: String, object: String) -> Never {
  FileHandle.standardError.write(
    Data(
      "evaluator property failed: \(message)\npredicate: \(predicate.debugDescription)\nobject: \(object)\n"
        .utf8))
  abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = UnsafeBufferPointer(start: start, count: count)
  let separator = bytes.firstIndex(of: 0) ?? bytes.endIndex
  guard let tree = try? PredicateParser.parse(utf8: Array(bytes[..<separator])).predicate else { return 0 }
  let json = separator < bytes.endIndex ? String(decoding: bytes[(separator + 1)...], as: UTF8.self) : "null"
  guard let object = try? PredicateValue(json: json) else { return 0 }
  // `random`, `random:`, `randomn:` and `now` answer differently on every call, so the two forms may
  // rightly differ; a key or string spelling those names (`known`) is still checked.
  guard !PredicateEvaluator.callsNondeterministicFunction(tree) else { return 0 }
  let walked = Result { () throws(EvaluationError) -> Bool in
    try PredicateEvaluator.evaluate(tree, on: object)
  }
  let compiled = Result { () throws(EvaluationError) -> Bool in
    try PredicateEvaluator.compile(tree).evaluate(on: object)
  }
  switch (walked, compiled) {
  case (.success(let a), .success(let b)) where a == b: return 0
  case (.failure, .failure): return 0
  default:
    let predicate = String(decoding: bytes[..<separator], as: UTF8.self)
    propertyFailed("tree-walker \(walked) but compiled \(compiled)", predicate: predicate, object: json)
  }
}
