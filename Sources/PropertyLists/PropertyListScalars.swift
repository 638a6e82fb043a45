#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// Text forms of integers, reals and dates as XML plists write them.
enum PropertyListScalars {
  /// A decimal or `0x` hexadecimal integer with an optional sign, as CoreFoundation accepts.
  static func integer(from text: String) -> Int64? {
    var digits = Substring(text)
    var negative = false
    if digits.hasPrefix("-") || digits.hasPrefix("+") {
      negative = digits.hasPrefix("-")
      digits = digits.dropFirst()
    }
    guard !digits.isEmpty else { return nil }
    var radix = 10
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      radix = 16
      digits = digits.dropFirst(2)
    }
    guard !digits.isEmpty, digits.allSatisfy({ $0.isHexDigit }), let magnitude = UInt64(digits, radix: radix)
    else { return nil }
    if negative {
      if magnitude == UInt64(Int64.max) + 1 { return Int64.min }
      return magnitude <= UInt64(Int64.max) ? -Int64(magnitude) : nil
    }
    return magnitude <= UInt64(Int64.max) ? Int64(magnitude) : nil
  }

  /// A real number; also the spellings of infinity and NaN that CoreFoundation reads.
  static func real(from text: String) -> Double? {
    switch text.lowercased() {
    case "nan": return .nan
    case "inf", "infinity", "+inf", "+infinity": return .infinity
    case "-inf", "-infinity": return -.infinity
    default: break
    }
    guard !text.isEmpty, text.allSatisfy({ $0.isNumber || "+-.eE".contains($0) }) else { return nil }
    return Double(text)
  }

  /// The text of a real as Apple's tools write it: shortest round-tripping digits, integers without `.0`.
  static func text(of real: Double) -> String {
    if real.isNaN { return "nan" }
    if real.isInfinite { return real < 0 ? "-infinity" : "+infinity" }
    if real == real.rounded(), abs(real) < 1e15 { return String(Int64(real)) }
    return "\(real)"
  }

  /// `YYYY-MM-DDTHH:MM:SSZ` in UTC.
  static func date(from text: String) -> Date? {
    let scalars = Array(text.utf8)
    guard scalars.count == 20, scalars[19] == UInt8(ascii: "Z") else { return nil }
    func number(_ range: Range<Int>) -> Int? {
      var value = 0
      for index in range {
        let byte = scalars[index]
        guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
        value = value * 10 + Int(byte - UInt8(ascii: "0"))
      }
      return value
    }
    let separators: [(Int, Character)] = [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")]
    for (offset, character) in separators where scalars[offset] != character.asciiValue { return nil }
    guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
      let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
      (1...12).contains(month), (1...31).contains(day), hour < 24, minute < 60, second < 61
    else { return nil }
    let days = daysFromCivil(year: year, month: month, day: day)
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second
    return Date(timeIntervalSince1970: TimeInterval(seconds))
  }

  /// The seconds from 2001-01-01 of the dates an XML plist can write (its years have four digits):
  /// 0000-01-01T00:00:00Z to 9999-12-31T23:59:59Z.
  static let writableDateRange: ClosedRange<Double> = -63_145_526_400...252_423_993_599

  /// The `YYYY-MM-DDTHH:MM:SSZ` text of a date (fractions of a second are dropped, as Apple's writer does).
  static func text(of date: Date) -> String {
    // Only a date made in code can lie outside the range (every reader refuses one); it is written as the
    // nearest date the format can hold rather than trapping on the conversion to Int.
    let seconds = date.timeIntervalSinceReferenceDate
    let clamped =
      seconds.isNaN
      ? 0 : min(max(seconds, writableDateRange.lowerBound), writableDateRange.upperBound)
    let total = Int((clamped + 978_307_200).rounded(.down))
    let days = total >= 0 ? total / 86_400 : -((-total + 86_399) / 86_400)
    let secondsOfDay = total - days * 86_400
    let (year, month, day) = civilFromDays(days)
    func pad(_ value: Int, _ width: Int) -> String {
      let digits = String(value)
      return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
    return "\(pad(year, 4))-\(pad(month, 2))-\(pad(day, 2))T\(pad(secondsOfDay / 3_600, 2)):"
      + "\(pad(secondsOfDay % 3_600 / 60, 2)):\(pad(secondsOfDay % 60, 2))Z"
  }

  // Howard Hinnant's days-from-civil algorithms: exact for the proleptic Gregorian calendar, no Calendar
  // or time-zone database needed.
  static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
    let shiftedYear = month <= 2 ? year - 1 : year
    let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
    let yearOfEra = shiftedYear - era * 400
    let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
    let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
    return era * 146_097 + dayOfEra - 719_468
  }

  static func civilFromDays(_ days: Int) -> (Int, Int, Int) {
    let shifted = days + 719_468
    let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
    let dayOfEra = shifted - era * 146_097
    let yearOfEra = (dayOfEra - dayOfEra / 1_460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
    let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
    let monthIndex = (5 * dayOfYear + 2) / 153
    let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
    let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
    return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
  }
}
