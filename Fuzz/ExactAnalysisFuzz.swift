// libFuzzer entry point for the exact rule analysis; built and run by `scripts/fuzz exact SECONDS`.
//
// Any predicate text that parses and that the analysis decides: the rule agrees with itself; against its
// Intune-injected form, every smallest disagreement it reports is one (the two rules' evaluators answer the
// context as reported), and when it says the two agree, enumeration of small contexts finds no
// disagreement either. A crash, a wrong witness or a missed disagreement is a bug; a rule outside the
// fragment is not.
import ActivationRules
import Foundation
import PredicateSyntax

func propertyFailed(_ message: String, input: String) -> Never {
  FileHandle.standardError.write(
    Data("exact analysis property failed: \(message)\ninput: \(input.debugDescription)\n".utf8))
  abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  guard let rule = try? PredicateParser.parse(utf8: bytes).predicate else { return 0 }
  let text = String(decoding: bytes, as: UTF8.self)
  guard let itself = try? ExactRuleAnalysis.compare(rule, rule) else { return 0 }
  guard itself.rulesAgree else { propertyFailed("the rule disagrees with itself", input: text) }
  let injected = TwinInjector.injectedTree(rule)
  guard let comparison = try? ExactRuleAnalysis.compare(rule, injected) else { return 0 }
  for disagreement in comparison.smallestDisagreements {
    guard RuleEvaluator(rule).accepts(disagreement.context) == disagreement.acceptedByFirst,
      RuleEvaluator(injected).accepts(disagreement.context) == disagreement.acceptedBySecond
    else { propertyFailed("a reported disagreement is not one: \(disagreement.context)", input: text) }
  }
  if comparison.rulesAgree,
    let enumerated = try? SemanticDiff.compare(
      rule, injected, bounds: SemanticDiff.Bounds(maximumAttachments: 2, maximumItems: 2)),
    !enumerated.rulesAgree
  {
    propertyFailed(
      "exact says the rules agree; enumeration finds \(enumerated.disagreementCount)", input: text)
  }
  return 0
}
