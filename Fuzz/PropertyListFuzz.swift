// libFuzzer entry point for the XML plist reader and editor; built and run by `scripts/fuzz plist SECONDS`.
//
// Any bytes: reading ends in a document or a `PropertyListError`, never a crash. For a document whose root
// is a dictionary, an edit must write text that reads back to exactly the edited value, applying the same
// edit again must change no byte (idempotence), and removing the added key must give back the old value.
import Foundation
import PropertyLists

func propertyFailed(_ message: String, input: [UInt8]) -> Never {
  let text = String(decoding: input, as: UTF8.self)
  FileHandle.standardError.write(
    Data("plist property failed: \(message)\ninput: \(text.debugDescription)\n".utf8))
  abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  guard let document = try? PropertyListDocument(bytes: bytes), case .dictionary = document.value else {
    return 0
  }
  // A value that needs entity escaping, under a key the input is unlikely to have.
  let key = "RuleKitFuzzKey"
  let edit = PropertyListEdit.set([.key(key)], .string("a < b & \"c\""))
  guard let edited = try? document.applying(edit) else { return 0 }
  let reread: PropertyListDocument
  do {
    reread = try PropertyListDocument(bytes: edited.bytes)
  } catch {
    propertyFailed("the edited document does not read back: \(error)", input: bytes)
  }
  guard let expected = try? document.value.applying(edit), reread.value == expected else {
    propertyFailed("the edited document reads back to another value", input: bytes)
  }
  guard let again = try? reread.applying(edit), again.bytes == reread.bytes else {
    propertyFailed("applying the same edit twice changed the text", input: bytes)
  }
  let hadKey = document.value.dictionaryValue?.index(forKey: key) != nil
  if !hadKey, let removed = try? reread.applying(.remove([.key(key)])) {
    guard (try? PropertyListDocument(bytes: removed.bytes))?.value == document.value else {
      propertyFailed("removing the added key does not restore the value", input: bytes)
    }
  }
  return 0
}
