// Times PropertyLists on synthetic plists: parse, unchanged write, and minimal edits.
// Run: swift run -c release --package-path Benchmarks PropertyListsBenchmark [entries]
import Foundation
import PropertyLists

let entryCount = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20_000

func syntheticValue(_ count: Int) -> PropertyListValue {
  var dictionary = PropertyListDictionary()
  for index in 0..<count {
    switch index % 4 {
    case 0: dictionary["String\(index)"] = .string("value \(index) with \"quotes\" & <markup>")
    case 1: dictionary["Integer\(index)"] = .integer(Int64(index))
    case 2: dictionary["Array\(index)"] = .array([.string("a"), .bool(true), .real(1.5)])
    default: dictionary["Dictionary\(index)"] = .dictionary(["Key": .string("k"), "Flag": .bool(false)])
    }
  }
  return .dictionary(dictionary)
}

func measure(_ label: String, repetitions: Int = 5, _ body: () throws -> Void) rethrows {
  let clock = ContinuousClock()
  var best = Duration.seconds(1_000)
  for _ in 0..<repetitions {
    let elapsed = try clock.measure(body)
    best = min(best, elapsed)
  }
  let milliseconds = Double(best.components.seconds) * 1_000 + Double(best.components.attoseconds) / 1e15
  print("\(label): \(String(format: "%.2f", milliseconds)) ms (best of \(repetitions))")
}

let value = syntheticValue(entryCount)
let multiLine = Data(PropertyListSerializer.xmlDocument(value).utf8)
let oneLine = Data(
  PropertyListSerializer.xmlDocument(
    value, style: PropertyListTextStyle(indentation: "", lineEnding: "", entities: .apple)
  ).utf8)
print("\(entryCount) entries; \(multiLine.count) bytes multi-line, \(oneLine.count) bytes on one line")

try measure("parse, multi-line") { _ = try PropertyListDocument(data: multiLine) }
try measure("parse, one line") { _ = try PropertyListDocument(data: oneLine) }
try measure("Foundation PropertyListSerialization, multi-line") {
  _ = try PropertyListSerialization.propertyList(from: multiLine, options: [], format: nil)
}
let document = try PropertyListDocument(data: multiLine)
var identical = true
measure("unchanged write-back (bytes)") { identical = identical && document.data == multiLine }
print("unchanged write-back is byte-identical: \(identical)")
try measure("10 edits (set, insert, append, remove)", repetitions: 3) {
  _ = try document.applying(
    (0..<10).map { index -> PropertyListEdit in
      switch index % 4 {
      case 0: .set(["Integer\(index * 4 + 1)"], .integer(-1))
      case 1: .insert(key: "New\(index)", value: .string("n"), into: [])
      case 2: .append(.string("b"), to: ["Array\(index * 4 + 2)"])
      default: .remove(["Dictionary\(index * 4 + 3)"])
      }
    })
}
