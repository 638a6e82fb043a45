// libFuzzer entry point for the Intune twin injector; built and run by `scripts/fuzz injector SECONDS`.
//
// Any predicate text that parses: injection either succeeds or refuses with an `ActivationRuleError` other
// than a failed self-check, and injecting into the injected text changes nothing (inject twice = once).
import ActivationRules
import Foundation
import PredicateSyntax

func propertyFailed(_ message: String, input: String) -> Never {
  FileHandle.standardError.write(
    Data("injector property failed: \(message)\ninput: \(input.debugDescription)\n".utf8))
  abort()
}

func parse(_ text: String) throws -> PredicateNode { try PredicateParser.parse(text) }

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  guard let tree = try? PredicateParser.parse(utf8: bytes).predicate else { return 0 }
  let text = String(decoding: bytes, as: UTF8.self)
  let once: TwinInjector.Result
  do {
    once = try TwinInjector.inject(text: text, tree: tree, parse: parse)
  } catch {
    propertyFailed("injection failed: \(error)", input: text)
  }
  do {
    let twice = try TwinInjector.inject(text: once.text, tree: once.tree, parse: parse)
    guard twice.text == once.text, twice.addedTwins.isEmpty else {
      propertyFailed("a second injection changed \(once.text.debugDescription)", input: text)
    }
  } catch {
    propertyFailed("injecting into the injected text failed: \(error)", input: text)
  }
  return 0
}
