import Foundation
import TestSupport

@testable import PropertyLists

/// Random values of every kind for the property tests of the binary and OpenStep readers and writers.
///
/// Reals are never whole numbers (nor NaN): CoreFoundation's writer shares equal numbers, and to it `1` and
/// `1.0` are equal, so a whole real beside the same integer would come back as the integer. The fixed
/// fixtures cover whole reals on their own.
enum RandomPropertyList {
  static let strings: [String] = [
    "", "a", "plain ASCII", "fifteen chars!!", "exactly 14 chr", "sixteen chars!!!", "Caf\u{E9}",
    "e\u{301}", "ключ", "日本語のテキスト", "😀 emoji 🇫🇷", "tab\there", "line\nbreak\r\n", "quote \" and \\ back",
    "it's", "\u{0}nul", "\u{2028}separator", "\u{FEFF}bom", "$(VAR)", "+infinity", "//not a comment",
    "/* nor this */", "x y", "a;b=c", "{ (braces) }", "<0fbd>", String(repeating: "long ", count: 40),
    String(repeating: "é", count: 300),
  ]

  static let integers: [Int64] = [
    0, 1, 14, 15, 127, 128, 255, 256, 65_535, 65_536, 4_294_967_295, 4_294_967_296, -1, -128, -129,
    -65_536, Int64.max, Int64.min, Int64.max - 1, Int64.min + 1,
  ]

  static func value(depth: Int = 0, using generator: inout SeededGenerator) -> PropertyListValue {
    let choice = Int.random(in: 0..<(depth >= 4 ? 6 : 9), using: &generator)
    switch choice {
    case 0:
      return .integer(
        Bool.random(using: &generator)
          ? integers.randomElement(using: &generator) ?? 0
          : Int64.random(in: .min ... .max, using: &generator))
    case 1:
      let reals: [Double] = [
        0.5, -0.25, 1e-300, -1.5e300, .infinity, -.infinity, 3.141592653589793, 1.0 / 3.0,
        Double.leastNonzeroMagnitude,
      ]
      if Bool.random(using: &generator) { return .real(reals.randomElement(using: &generator) ?? 0.5) }
      return .real(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)) + 0.375)
    case 2: return .bool(Bool.random(using: &generator))
    case 3:
      // Seconds since 2001 with fractions, before and after it.
      let seconds = Double(Int.random(in: -2_000_000_000...2_000_000_000, using: &generator))
      let fraction = Double(Int.random(in: 0..<1024, using: &generator)) / 1024
      return .date(Date(timeIntervalSinceReferenceDate: seconds + fraction))
    case 4:
      let counts = [0, 1, 14, 15, 16, 255, 300]
      let count = counts.randomElement(using: &generator) ?? 0
      return .data(Data((0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }))
    case 5:
      return .string(strings.randomElement(using: &generator) ?? "")
    case 6, 7:
      let count =
        Int.random(in: 0...3, using: &generator) == 0
        ? Int.random(in: 13...17, using: &generator)
        : Int.random(in: 0...3, using: &generator)
      return .array((0..<count).map { _ in value(depth: depth + 1, using: &generator) })
    default:
      var dictionary = PropertyListDictionary()
      let count =
        Int.random(in: 0...4, using: &generator) == 0 ? 16 : Int.random(in: 0...3, using: &generator)
      for _ in 0..<count {
        dictionary[key(using: &generator)] = value(depth: depth + 1, using: &generator)
      }
      return .dictionary(dictionary)
    }
  }

  static func key(using generator: inout SeededGenerator) -> String {
    let stems = ["Key", "NSExtension", "a<b", "q\"uote", "Ünï", "k&v", "space key", "鍵", ""]
    return (stems.randomElement(using: &generator) ?? "Key")
      + String(Int.random(in: 0...30, using: &generator))
  }

  /// Whether `value` holds a date anywhere (OpenStep cannot).
  static func containsDate(_ value: PropertyListValue) -> Bool {
    switch value {
    case .date: true
    case .array(let elements): elements.contains(where: containsDate)
    case .dictionary(let dictionary): dictionary.entries.contains { containsDate($0.value) }
    default: false
    }
  }

  /// What an OpenStep file written from `value` reads back as: every scalar but data becomes its text.
  static func openStepReading(of value: PropertyListValue) -> PropertyListValue {
    switch value {
    case .integer(let number): .string(String(number))
    case .real(let number): .string(PropertyListScalars.text(of: number))
    case .bool(let flag): .string(flag ? "YES" : "NO")
    case .array(let elements): .array(elements.map(openStepReading))
    case .dictionary(let dictionary):
      .dictionary(
        PropertyListDictionary(
          dictionary.entries.map { .init(key: $0.key, value: openStepReading(of: $0.value)) }))
    case .string, .data, .date: value
    }
  }
}
