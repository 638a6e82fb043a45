// libFuzzer entry point for the Intune twin injector; built and run by `scripts/fuzz injector SECONDS`.
//
// Any predicate text that parses: injection either succeeds, or refuses with `editVerificationFailed`
// because the edited text passes a parser limit (the twins make a rule at the size or nesting limit too
// long or too deep; `TwinInjector.inject(text:tree:parse:)` returns an edit only if it reads back). Any
// other refusal is a bug, and so is a second injection into the injected text that changes anything
// (inject twice = once).
import ActivationRules
import Foundation
import PredicateSyntax

func propertyFailed(_ message: String, input: String) -> Never {
  FileHandle.standardError.write(
    Data("injector property failed: \(message)\ninput: \(input.debugDescription)\n".utf8))
  abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  guard let tree = try? PredicateParser.parse(utf8: bytes).predicate else { return 0 }
  let text = String(decoding: bytes, as: UTF8.self)
  // Whether the injector's re-read failed only because the edited text passes a limit.
  var editPassedLimit = false
  let parse = { (edited: String) throws -> PredicateNode in
    do throws(PredicateSyntaxError) {
      return try PredicateParser.parse(edited)
    } catch {
      editPassedLimit = [.inputTooLarge, .nestingTooDeep].contains(error.reason)
      throw error
    }
  }
  let once: TwinInjector.Result
  do throws(ActivationRuleError) {
    once = try TwinInjector.inject(text: text, tree: tree, parse: parse)
  } catch {
    if error.kind == .editVerificationFailed, editPassedLimit { return 0 }
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
