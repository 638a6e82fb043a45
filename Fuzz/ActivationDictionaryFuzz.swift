// libFuzzer entry point for the dictionary-rule reader; built and run by `scripts/fuzz rules SECONDS`.
//
// Any bytes read as an XML plist: a rule dictionary is read from whatever the root holds, never crashing,
// and both conversions to a predicate print text that parses back to the same tree.
//
// The bytes go through `PropertyListDocument` rather than `ActivationDictionary(plistData:)`: that initializer
// uses swift-corelibs-foundation's `PropertyListSerialization`, which leaks a `CFError` for every malformed
// input (LeakSanitizer, Swift 6.3.1 on Linux), so libFuzzer would stop at the first one.
import ActivationRules
import Foundation
import PredicateSyntax
import PropertyLists

func propertyFailed(_ message: String, input: [UInt8]) -> Never {
  let text = String(decoding: input, as: UTF8.self)
  FileHandle.standardError.write(
    Data("rules property failed: \(message)\ninput: \(text.debugDescription)\n".utf8))
  abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  guard let document = try? PropertyListDocument(bytes: bytes, duplicateKeys: .keepLast),
    let root = document.value.dictionaryValue
  else { return 0 }
  let dictionary = ActivationDictionary(propertyList: root)
  for style in DictionaryConversionStyle.allCases {
    let predicate = DictionaryConverter.predicate(for: dictionary, style: style)
    let printed = PredicatePrinter.canonical(predicate)
    guard (try? PredicateParser.parse(printed)) == predicate else {
      propertyFailed("the \(style) conversion \(printed.debugDescription) does not parse back", input: bytes)
    }
  }
  return 0
}
