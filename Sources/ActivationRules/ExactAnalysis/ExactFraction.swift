/// An exact rational number for the integer-program step of the exact analysis.
///
/// The linear programs it solves are tiny (a row per count, a column per class of children, 0/1
/// coefficients), so 128-bit numerators and denominators are far more than they need; still, every operation
/// checks for overflow and reports it instead of wrapping, so an answer is exact or absent, never wrong.
struct ExactFraction: Sendable, Hashable, Comparable {
  /// Always reduced, with a positive denominator.
  private(set) var numerator: Int128
  private(set) var denominator: Int128

  /// The value as an `Int`, when it is a whole number that fits one.
  var integerValue: Int? { denominator == 1 ? Int(exactly: numerator) : nil }

  /// Arithmetic past 128 bits.
  struct Overflow: Error {}

  static let zero = ExactFraction(integer: 0)
  static let one = ExactFraction(integer: 1)
  static let minusOne = ExactFraction(integer: -1)

  init(integer: Int) {
    numerator = Int128(integer)
    denominator = 1
  }

  private init(reducing numerator: Int128, _ denominator: Int128) throws(Overflow) {
    guard denominator != 0, numerator != .min, denominator != .min else { throw Overflow() }
    var top: Int128
    var bottom: Int128
    if let smallTop = Int64(exactly: numerator), let smallBottom = Int64(exactly: denominator),
      smallTop != .min, smallBottom != .min
    {
      // Both fit 64 bits (the usual case): 64-bit remainders and quotients, not 128-bit library calls.
      let divisor = Int64(Self.gcd(smallTop.magnitude, smallBottom.magnitude))
      top = Int128(smallTop / divisor)
      bottom = Int128(smallBottom / divisor)
    } else {
      let divisor = Self.gcd(numerator.magnitude, denominator.magnitude)
      top = numerator / Int128(divisor)
      bottom = denominator / Int128(divisor)
    }
    if bottom < 0 {
      top = -top
      bottom = -bottom
    }
    self.numerator = top
    self.denominator = bottom
  }

  private static func gcd(_ a: UInt128, _ b: UInt128) -> UInt128 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a == 0 ? 1 : a
  }

  /// The 64-bit greatest common divisor (1 for two zeros): 64-bit remainders are one instruction, 128-bit
  /// ones a library call, which was most of the simplex's time under callgrind.
  private static func gcd(_ a: UInt64, _ b: UInt64) -> UInt64 {
    var (a, b) = (a, b)
    while b != 0 { (a, b) = (b, a % b) }
    return a == 0 ? 1 : a
  }

  var isZero: Bool { numerator == 0 }
  var isInteger: Bool { denominator == 1 }
  var signum: Int { numerator > 0 ? 1 : (numerator < 0 ? -1 : 0) }

  /// The largest integer not above this number.
  var floor: Int128 {
    let quotient = numerator / denominator
    return numerator < 0 && quotient * denominator != numerator ? quotient - 1 : quotient
  }

  /// The smallest integer not below this number.
  var ceiling: Int128 { isInteger ? numerator : floor + 1 }

  private static func checked(_ result: (partialValue: Int128, overflow: Bool)) throws(Overflow) -> Int128 {
    guard !result.overflow else { throw Overflow() }
    return result.partialValue
  }

  func adding(_ other: ExactFraction) throws(Overflow) -> ExactFraction {
    if other.isZero { return self }
    if isZero { return other }
    // Most entries of these tableaux stay integers: no common divisor to look for.
    if denominator == 1 && other.denominator == 1 {
      var sum = self
      sum.numerator = try Self.checked(numerator.addingReportingOverflow(other.numerator))
      return sum
    }
    if denominator == other.denominator {
      return try ExactFraction(
        reducing: Self.checked(numerator.addingReportingOverflow(other.numerator)), denominator)
    }
    let left = try Self.checked(numerator.multipliedReportingOverflow(by: other.denominator))
    let right = try Self.checked(other.numerator.multipliedReportingOverflow(by: denominator))
    return try ExactFraction(
      reducing: Self.checked(left.addingReportingOverflow(right)),
      Self.checked(denominator.multipliedReportingOverflow(by: other.denominator)))
  }

  func subtracting(_ other: ExactFraction) throws(Overflow) -> ExactFraction {
    try adding(other.negated)
  }

  var negated: ExactFraction {
    var result = self
    result.numerator = -numerator
    return result
  }

  func multiplied(by other: ExactFraction) throws(Overflow) -> ExactFraction {
    if isZero || other.isZero { return .zero }
    if other == .one { return self }
    if self == .one { return other }
    // Tableau entries of 0/1 rows are mostly ±1.
    if other == .minusOne { return negated }
    if self == .minusOne { return other.negated }
    if denominator == 1 && other.denominator == 1 {
      var product = self
      if let left = Int64(exactly: numerator), let right = Int64(exactly: other.numerator) {
        // Two 64-bit factors cannot overflow 128 bits: a wrapping multiply is two instructions, where the
        // overflow-checked 128-bit one is a library call (the simplex's most frequent operation).
        product.numerator = Int128(left) &* Int128(right)
      } else {
        product.numerator = try Self.checked(numerator.multipliedReportingOverflow(by: other.numerator))
      }
      return product
    }
    return try ExactFraction(
      reducing: Self.checked(numerator.multipliedReportingOverflow(by: other.numerator)),
      Self.checked(denominator.multipliedReportingOverflow(by: other.denominator)))
  }

  func divided(by other: ExactFraction) throws(Overflow) -> ExactFraction {
    guard !other.isZero else { throw Overflow() }
    return try multiplied(by: ExactFraction(reducing: other.denominator, other.numerator))
  }

  static func < (lhs: ExactFraction, rhs: ExactFraction) -> Bool {
    // Both denominators are positive; compare the cross products, widening through the sign when they
    // would overflow (they do not for the programs solved here, but the order must never be wrong).
    let left = lhs.numerator.multipliedFullWidth(by: rhs.denominator)
    let right = rhs.numerator.multipliedFullWidth(by: lhs.denominator)
    return (left.high, left.low) < (right.high, right.low)
  }
}
