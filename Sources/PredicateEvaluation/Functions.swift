import PredicateSyntax

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif
#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Sums, averages and the other statistics shared by collection operators and functions.
enum Aggregates {
  static func numbers(_ values: [PredicateValue], at range: SourceRange) throws(EvaluationError) -> [Double] {
    var numbers: [Double] = []
    numbers.reserveCapacity(values.count)
    for value in values {
      guard let number = value.numericValue else {
        throw EvaluationError(
          .typeMismatch, "expected numbers, found \(value.typeNameWithArticle)", at: range)
      }
      numbers.append(number)
    }
    return numbers
  }

  /// An integer sum while every operand is an integer and nothing overflows, else a double.
  static func sum(_ values: [PredicateValue], at range: SourceRange) throws(EvaluationError) -> PredicateValue
  {
    var integerSum = 0
    var allIntegers = true
    for value in values {
      guard case .integer(let integer) = value else {
        allIntegers = false
        break
      }
      let (partial, overflow) = integerSum.addingReportingOverflow(integer)
      if overflow {
        allIntegers = false
        break
      }
      integerSum = partial
    }
    if allIntegers { return .integer(integerSum) }
    return .double(try numbers(values, at: range).reduce(0, +))
  }

  static func average(_ values: [PredicateValue], at range: SourceRange) throws(EvaluationError)
    -> PredicateValue
  {
    let numbers = try numbers(values, at: range)
    guard !numbers.isEmpty else { return .null }
    return .double(numbers.reduce(0, +) / Double(numbers.count))
  }

  /// The least or greatest value (numbers, strings or dates, as `compare:` orders them); null when empty.
  static func extreme(_ values: [PredicateValue], wantMaximum: Bool, at range: SourceRange)
    throws(EvaluationError) -> PredicateValue
  {
    guard var best = values.first else { return .null }
    for value in values.dropFirst() {
      let order = try ValueSemantics.order(value, best, StringComparison([]), at: range)
      if order == (wantMaximum ? .orderedDescending : .orderedAscending) { best = value }
    }
    return best
  }

  /// Elements without repeats (under predicate equality), in the order they first appear.
  static func distinct(_ values: [PredicateValue]) -> [PredicateValue] {
    var result: [PredicateValue] = []
    for value in values
    where !result.contains(where: { ValueSemantics.isEqual($0, value, StringComparison([])) }) {
      result.append(value)
    }
    return result
  }
}

/// Arithmetic as `NSExpression` does it: integers stay integers for `+ - *` until they overflow; `/` and `**`
/// are floating point.
enum Arithmetic {
  static func apply(
    _ op: ArithmeticOperator, _ lhs: PredicateValue, _ rhs: PredicateValue, at range: SourceRange
  ) throws(EvaluationError) -> PredicateValue {
    if case .integer(let left) = lhs, case .integer(let right) = rhs {
      switch op {
      case .add:
        let (result, overflow) = left.addingReportingOverflow(right)
        if !overflow { return .integer(result) }
      case .subtract:
        let (result, overflow) = left.subtractingReportingOverflow(right)
        if !overflow { return .integer(result) }
      case .multiply:
        let (result, overflow) = left.multipliedReportingOverflow(by: right)
        if !overflow { return .integer(result) }
      case .divide, .power: break
      }
    }
    guard let left = lhs.numericValue, let right = rhs.numericValue else {
      let offender = lhs.numericValue == nil ? lhs : rhs
      throw EvaluationError(
        .typeMismatch, "arithmetic '\(op.rawValue)' needs numbers, found \(offender.typeNameWithArticle)",
        at: range)
    }
    switch op {
    case .add: return .double(left + right)
    case .subtract: return .double(left - right)
    case .multiply: return .double(left * right)
    case .divide:
      guard right != 0 else { throw EvaluationError(.arithmetic, "division by zero", at: range) }
      return .double(left / right)
    case .power: return .double(pow(left, right))
    }
  }

  static func negate(_ value: PredicateValue, at range: SourceRange) throws(EvaluationError) -> PredicateValue
  {
    switch value {
    case .integer(let integer):
      let (result, overflow) = Int(0).subtractingReportingOverflow(integer)
      return overflow ? .double(-Double(integer)) : .integer(result)
    case .double(let double): return .double(-double)
    case .bool(let flag): return .integer(flag ? -1 : 0)
    default:
      throw EvaluationError(.typeMismatch, "cannot negate \(value.typeNameWithArticle)", at: range)
    }
  }
}

/// The functions Apple documents for `NSExpression`, and nothing else: `FUNCTION` with any other selector is
/// refused, never looked up, because arbitrary selectors are how NSPredicate sandbox escapes work.
enum PredicateFunctions {
  /// A documented function by its selector name.
  enum Function: String, Sendable, CaseIterable {
    case sum = "sum:"
    case count = "count:"
    case min = "min:"
    case max = "max:"
    case average = "average:"
    case median = "median:"
    case mode = "mode:"
    case stddev = "stddev:"
    case add = "add:to:"
    case subtract = "from:subtract:"
    case multiply = "multiply:by:"
    case divide = "divide:by:"
    case modulus = "modulus:by:"
    case sqrt = "sqrt:"
    case log = "log:"
    case ln = "ln:"
    case raise = "raise:toPower:"
    case exp = "exp:"
    case floor = "floor:"
    case ceiling = "ceiling:"
    case abs = "abs:"
    case trunc = "trunc:"
    case uppercase = "uppercase:"
    case lowercase = "lowercase:"
    case canonical = "canonical:"
    case length = "length:"
    case random = "random"
    case randomElement = "random:"
    case randomBelow = "randomn:"
    case now = "now"
    case noindex = "noindex:"
    case bitwiseAnd = "bitwiseAnd:with:"
    case bitwiseOr = "bitwiseOr:with:"
    case bitwiseXor = "bitwiseXor:with:"
    case leftShift = "leftshift:by:"
    case rightShift = "rightshift:by:"
    case onesComplement = "onesComplement:"

    /// Functions of a whole collection: in call form `sum(1, 2, 3)` and `sum({1, 2, 3})` mean the same.
    var takesCollection: Bool {
      switch self {
      case .sum, .count, .min, .max, .average, .median, .mode, .stddev, .randomElement: true
      default: false
      }
    }

    /// How many arguments the selector takes: one per colon.
    var arity: Int { rawValue.filter { $0 == ":" }.count }

    /// Results that change from one evaluation to the next.
    var isNondeterministic: Bool {
      self == .random || self == .randomElement || self == .randomBelow || self == .now
    }
  }

  /// The function a call-form name such as `sum`, `MAX` or `now` stands for (keywords are case-insensitive),
  /// or a name as Apple spells it, `sum:` or `add:to:` (a selector: exact, case-sensitive).
  static func function(callFormName name: String) -> Function? {
    if name.utf8.last == UInt8(ascii: ":") { return Function(rawValue: name) }
    let lowered = name.lowercased()
    return Function.allCases.first { function in
      function.rawValue.split(separator: ":").first.map { $0.lowercased() == lowered } ?? false
    }
  }

  /// Evaluates `function` on already-evaluated arguments; `range` is the call's source range.
  static func call(_ function: Function, _ arguments: [PredicateValue], at range: SourceRange)
    throws(EvaluationError) -> PredicateValue
  {
    if function.takesCollection {
      let elements: [PredicateValue]
      if arguments.count == 1, let collection = arguments[0].collectionElements {
        elements = collection
      } else if arguments.count == 1, arguments[0].isNull {
        elements = []
      } else {
        elements = arguments
      }
      return try aggregate(function, elements, at: range)
    }
    guard arguments.count == function.arity else {
      throw EvaluationError(
        .invalidArgument,
        "\(function.rawValue) takes \(function.arity) argument\(function.arity == 1 ? "" : "s"), found \(arguments.count)",
        at: range)
    }
    switch function {
    case .random: return .double(Double.random(in: 0..<1))
    case .now: return .date(Date())
    case .noindex: return arguments[0]
    case .uppercase, .lowercase, .canonical, .length:
      guard case .string(let text) = arguments[0] else {
        if arguments[0].isNull { return .null }
        throw EvaluationError(
          .typeMismatch, "\(function.rawValue) needs a string, found \(arguments[0].typeNameWithArticle)",
          at: range)
      }
      switch function {
      case .uppercase: return .string(text.uppercased())
      case .lowercase: return .string(text.lowercased())
      case .canonical:
        return .string(UnicodeFolding.fold(text, case: true, diacritics: true))
      default: return .integer(text.utf16.count)
      }
    case .add: return try Arithmetic.apply(.add, arguments[0], arguments[1], at: range)
    case .subtract: return try Arithmetic.apply(.subtract, arguments[0], arguments[1], at: range)
    case .multiply: return try Arithmetic.apply(.multiply, arguments[0], arguments[1], at: range)
    case .divide: return try Arithmetic.apply(.divide, arguments[0], arguments[1], at: range)
    case .raise: return try Arithmetic.apply(.power, arguments[0], arguments[1], at: range)
    case .modulus:
      if case .integer(let left) = arguments[0], case .integer(let right) = arguments[1] {
        guard right != 0 else { throw EvaluationError(.arithmetic, "modulus by zero", at: range) }
        let (remainder, overflow) = left.remainderReportingOverflow(dividingBy: right)
        return .integer(overflow ? 0 : remainder)
      }
      let (left, right) = try twoNumbers(arguments, function, at: range)
      guard right != 0 else { throw EvaluationError(.arithmetic, "modulus by zero", at: range) }
      return .double(left.truncatingRemainder(dividingBy: right))
    case .bitwiseAnd, .bitwiseOr, .bitwiseXor, .leftShift, .rightShift:
      guard case .integer(let left) = arguments[0], case .integer(let right) = arguments[1] else {
        throw EvaluationError(.typeMismatch, "\(function.rawValue) needs two integers", at: range)
      }
      switch function {
      case .bitwiseAnd: return .integer(left & right)
      case .bitwiseOr: return .integer(left | right)
      case .bitwiseXor: return .integer(left ^ right)
      case .leftShift: return .integer(left << right)
      default: return .integer(left >> right)
      }
    case .onesComplement:
      guard case .integer(let integer) = arguments[0] else {
        throw EvaluationError(.typeMismatch, "onesComplement: needs an integer", at: range)
      }
      return .integer(~integer)
    case .randomBelow:
      guard case .integer(let bound) = arguments[0], bound > 0 else {
        throw EvaluationError(.invalidArgument, "randomn: needs a positive integer", at: range)
      }
      return .integer(Int.random(in: 0..<bound))
    case .abs:
      if case .integer(let integer) = arguments[0], integer != Int.min { return .integer(Swift.abs(integer)) }
      return .double(Swift.abs(try number(arguments[0], function, at: range)))
    case .floor, .ceiling, .trunc:
      if case .integer = arguments[0] { return arguments[0] }
      let value = try number(arguments[0], function, at: range)
      let rule: FloatingPointRoundingRule =
        function == .floor ? .down : (function == .ceiling ? .up : .towardZero)
      return .double(value.rounded(rule))
    case .sqrt, .log, .ln, .exp:
      let value = try number(arguments[0], function, at: range)
      switch function {
      case .sqrt: return .double(value.squareRoot())
      case .log: return .double(log10(value))
      case .ln: return .double(log(value))
      default: return .double(exp(value))
      }
    case .sum, .count, .min, .max, .average, .median, .mode, .stddev, .randomElement:
      return try aggregate(function, arguments, at: range)
    }
  }

  private static func number(_ value: PredicateValue, _ function: Function, at range: SourceRange)
    throws(EvaluationError) -> Double
  {
    guard let number = value.numericValue else {
      throw EvaluationError(
        .typeMismatch, "\(function.rawValue) needs a number, found \(value.typeNameWithArticle)", at: range)
    }
    return number
  }

  private static func twoNumbers(_ arguments: [PredicateValue], _ function: Function, at range: SourceRange)
    throws(EvaluationError) -> (Double, Double)
  {
    (try number(arguments[0], function, at: range), try number(arguments[1], function, at: range))
  }

  private static func aggregate(_ function: Function, _ elements: [PredicateValue], at range: SourceRange)
    throws(EvaluationError) -> PredicateValue
  {
    switch function {
    case .count: return .integer(elements.count)
    case .sum: return try Aggregates.sum(elements, at: range)
    case .average: return try Aggregates.average(elements, at: range)
    case .min: return try Aggregates.extreme(elements, wantMaximum: false, at: range)
    case .max: return try Aggregates.extreme(elements, wantMaximum: true, at: range)
    case .randomElement: return elements.randomElement() ?? .null
    case .median:
      let sorted = try Aggregates.numbers(elements, at: range).sorted()
      guard !sorted.isEmpty else { return .null }
      let middle = sorted.count / 2
      return .double(sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2)
    case .stddev:
      let numbers = try Aggregates.numbers(elements, at: range)
      guard !numbers.isEmpty else { return .null }
      let mean = numbers.reduce(0, +) / Double(numbers.count)
      let variance = numbers.reduce(0) { $0 + ($1 - mean) * ($1 - mean) } / Double(numbers.count)
      return .double(variance.squareRoot())
    case .mode:
      // Apple's mode: returns an array, since several values can be equally frequent.
      var counts: [(value: PredicateValue, count: Int)] = []
      for element in elements {
        if let index = counts.firstIndex(where: {
          ValueSemantics.isEqual($0.value, element, StringComparison([]))
        }) {
          counts[index].count += 1
        } else {
          counts.append((element, 1))
        }
      }
      let highest = counts.map(\.count).max() ?? 0
      return .array(counts.filter { $0.count == highest }.map(\.value))
    default:
      throw EvaluationError(.unsupported, "\(function.rawValue) does not take a collection", at: range)
    }
  }

  /// The error for a selector outside the whitelist.
  static func refusal(selector: String, at range: SourceRange) -> EvaluationError {
    EvaluationError(
      .unsupported,
      "FUNCTION selector '\(selector)' is not one of the functions Apple documents for NSExpression; RuleKit does not call arbitrary methods",
      at: range)
  }
}

/// `CAST(value, 'ClassName')` for the value classes a predicate can meaningfully convert between.
enum Cast {
  enum Target: String, Sendable {
    case number = "NSNumber"
    case string = "NSString"
    case date = "NSDate"
  }

  static func target(_ name: PredicateValue, at range: SourceRange) throws(EvaluationError) -> Target {
    guard case .string(let className) = name, let target = Target(rawValue: className) else {
      throw EvaluationError(
        .unsupported, "CAST supports only 'NSNumber', 'NSString' and 'NSDate', found \(name)", at: range)
    }
    return target
  }

  static func apply(_ value: PredicateValue, to target: Target, at range: SourceRange) throws(EvaluationError)
    -> PredicateValue
  {
    switch (target, value) {
    case (_, .null): return .null
    case (.number, .integer), (.number, .double), (.number, .bool): return value
    case (.number, .date(let date)): return .double(date.timeIntervalSinceReferenceDate)
    case (.number, .string(let text)):
      // NSString's numeric conversion reads a leading number and gives 0 when there is none.
      let trimmed = text.trimming(while: \.isSpaceOrTab)
      if let integer = Int(trimmed) { return .integer(integer) }
      return .double(Double(trimmed) ?? 0)
    case (.string, .string): return value
    case (.string, .integer(let integer)): return .string(String(integer))
    case (.string, .double(let double)): return .string(String(double))
    case (.string, .bool(let flag)): return .string(flag ? "1" : "0")
    case (.string, .date(let date)): return .string(date.formatted(.iso8601))
    case (.date, .date): return value
    case (.date, _):
      guard let seconds = value.numericValue else { break }
      return .date(Date(timeIntervalSinceReferenceDate: seconds))
    default: break
    }
    throw EvaluationError(
      .typeMismatch, "cannot CAST \(value.typeNameWithArticle) to \(target.rawValue)", at: range)
  }
}
