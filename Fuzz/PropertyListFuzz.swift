// libFuzzer entry point for the property list readers, writers and editor; built and run by
// `scripts/fuzz plist SECONDS`.
//
// Any bytes, read as whatever format their first bytes say (XML, binary, OpenStep) and once more behind a
// `bplist00` header so the binary reader sees every input: reading ends in a value or a
// `PropertyListError`, never a crash. A value read is written as a binary plist, which must read back to the
// same value and then write the same bytes; a value read from OpenStep text is written as OpenStep, which
// must read back to exactly that value.
//
// For an XML document whose root is a dictionary, an edit must write text that reads back to exactly the
// edited value, applying the same edit again must change no byte (idempotence), and removing the added key
// must give back the old value. Several edits drawn from the document's own containers (an entry for each
// dictionary, an element for each array, a new value for scalars) applied at once — the one-pass batch path
// — must give exactly the bytes of applying them one by one.
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
  checkAnyFormat(bytes, input: bytes)
  if !bytes.starts(with: Array("bplist".utf8)) {
    checkAnyFormat(Array("bplist00".utf8) + bytes, input: bytes)
  }
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
  checkBatchEqualsOneByOne(document, input: bytes)
  let hadKey = document.value.dictionaryValue?.index(forKey: key) != nil
  if !hadKey, let removed = try? reread.applying(.remove([.key(key)])) {
    guard (try? PropertyListDocument(bytes: removed.bytes))?.value == document.value else {
      propertyFailed("removing the added key does not restore the value", input: bytes)
    }
  }
  return 0
}

/// Up to `limit` edits touching the containers and scalars of `value`, walked depth first.
func edits(for value: PropertyListValue, at path: PropertyListPath = [], limit: Int = 6) -> [PropertyListEdit]
{
  var found: [PropertyListEdit] = []
  func walk(_ value: PropertyListValue, _ path: PropertyListPath) {
    guard found.count < limit else { return }
    switch value {
    case .dictionary(let dictionary):
      found.append(.insert(key: "RuleKitFuzz\(found.count)", value: .string("x & y"), into: path))
      for entry in dictionary.entries { walk(entry.value, path.appending(.key(entry.key))) }
    case .array(let elements):
      found.append(.append(.integer(Int64(found.count)), to: path, unlessPresent: true))
      for (index, element) in elements.enumerated() { walk(element, path.appending(.index(index))) }
    case .string:
      found.append(.set(path, .string("<changed \(found.count)>")))
    case .integer(let number):
      found.append(.set(path, .integer(number &+ 1)))
    case .bool(let flag):
      found.append(.set(path, .bool(!flag)))
    case .real, .date, .data:
      break
    }
  }
  walk(value, path)
  return found
}

/// The batch path (several edits, one pass, one parse) must agree byte for byte with one-by-one application.
func checkBatchEqualsOneByOne(_ document: PropertyListDocument, input: [UInt8]) {
  let batch = edits(for: document.value)
  guard batch.count > 1 else { return }
  var oneByOne = document
  for edit in batch {
    guard let next = try? oneByOne.applying(edit) else { return }  // an edit the document refuses
    oneByOne = next
  }
  let together: PropertyListDocument
  do {
    together = try document.applying(batch)
  } catch {
    propertyFailed("edits applied together fail where one by one they do not: \(error)", input: input)
  }
  guard together.bytes == oneByOne.bytes else {
    propertyFailed("edits applied together give other bytes than one by one", input: input)
  }
  guard (try? PropertyListDocument(bytes: together.bytes))?.value == oneByOne.value else {
    propertyFailed("edits applied together read back to another value", input: input)
  }
}

/// Reads `bytes` in the format they announce; a value read must survive the binary writer and reader (and,
/// when it came from OpenStep text, the OpenStep writer and reader).
func checkAnyFormat(_ bytes: [UInt8], input: [UInt8]) {
  let file: PropertyListFile
  do {
    file = try PropertyListFile(data: Data(bytes), duplicateKeys: .keepLast)
  } catch {
    return  // A PropertyListError: what malformed input must end in.
  }
  let value = file.value
  let written: Data
  do {
    written = try PropertyListFile(content: .value(value, .binary), path: nil).serialized()
  } catch {
    propertyFailed("a value read cannot be written as a binary plist: \(error)", input: input)
  }
  let reread: PropertyListFile
  do {
    reread = try PropertyListFile(data: written)
  } catch {
    propertyFailed("our binary plist does not read back: \(error)", input: input)
  }
  // NaN is not equal to itself, so a value holding one is compared by the bytes it writes.
  if value == value, reread.value != value {
    propertyFailed("our binary plist reads back to another value", input: input)
  }
  guard (try? PropertyListFile(content: .value(reread.value, .binary), path: nil).serialized()) == written
  else {
    propertyFailed("writing the value read back from our binary plist gives other bytes", input: input)
  }
  guard file.format == .openStep else { return }
  do {
    let text = try PropertyListFile(content: .value(value, .openStep), path: nil).serialized()
    guard try PropertyListFile(data: text).value == value else {
      propertyFailed("OpenStep text we wrote reads back to another value", input: input)
    }
  } catch {
    propertyFailed(
      "a value read from OpenStep text does not survive writing and reading it: \(error)", input: input)
  }
}
