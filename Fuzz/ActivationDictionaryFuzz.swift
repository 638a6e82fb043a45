// libFuzzer entry point for the dictionary-rule reader; built and run by `scripts/fuzz rules SECONDS`.
//
// Any bytes: reading a rule dictionary ends in a value or an `ActivationRuleError`, never a crash, and both
// conversions to a predicate print text that parses back to the same tree.
import ActivationRules
import Foundation
import PredicateSyntax

func propertyFailed(_ message: String, input: [UInt8]) -> Never {
  let text = String(decoding: input, as: UTF8.self)
  FileHandle.standardError.write(
    Data("rules property failed: \(message)\ninput: \(text.debugDescription)\n".utf8))
  abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  guard let dictionary = try? ActivationDictionary(plistData: Data(bytes)) else { return 0 }
  for style in DictionaryConversionStyle.allCases {
    let predicate = DictionaryConverter.predicate(for: dictionary, style: style)
    let printed = PredicatePrinter.canonical(predicate)
    guard (try? PredicateParser.parse(printed)) == predicate else {
      propertyFailed("the \(style) conversion \(printed.debugDescription) does not parse back", input: bytes)
    }
  }
  return 0
}
