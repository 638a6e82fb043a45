import Testing

@testable import ActivationRules

/// Exact fractions reduce to lowest terms with a positive denominator, whether their parts fit 64 bits
/// (reduced with 64-bit arithmetic) or not (128-bit), at the edges of both.
@Suite struct ExactFractionTests {
  static func reference(_ numerator: Int128, _ denominator: Int128) -> (Int128, Int128) {
    var (a, b) = (numerator.magnitude, denominator.magnitude)
    while b != 0 { (a, b) = (b, a % b) }
    let divisor = Int128(a == 0 ? 1 : a)
    let sign: Int128 = denominator < 0 ? -1 : 1
    return (sign * numerator / divisor, sign * denominator / divisor)
  }

  @Test(
    arguments: [
      (6, 4), (-6, 4), (6, -4), (0, 5), (0, -5), (7, 1), (1, 7), (Int.max, 1), (Int.max, Int.max),
      (Int.min, 2), (Int.min, -2), (Int.min, Int.min), (Int.min + 1, Int.max), (1 << 62, 1 << 40),
      (-(1 << 62), 3 << 40), (Int.max, 3), (Int.min, 3),
    ])
  func quotientsOfIntegersReduce(numerator: Int, denominator: Int) throws {
    let quotient = try ExactFraction(integer: numerator).divided(by: ExactFraction(integer: denominator))
    let (top, bottom) = Self.reference(Int128(numerator), Int128(denominator))
    #expect(quotient.numerator == top)
    #expect(quotient.denominator == bottom)
  }

  /// Products past 64 bits take the 128-bit path and still reduce.
  @Test func productsPastSixtyFourBitsReduce() throws {
    let large = try ExactFraction(integer: Int.max).multiplied(by: ExactFraction(integer: 6))
    let quotient = try large.divided(by: ExactFraction(integer: 4))
    let (top, bottom) = Self.reference(Int128(Int.max) * 6, 4)
    #expect(quotient.numerator == top)
    #expect(quotient.denominator == bottom)
    #expect(try quotient.multiplied(by: ExactFraction(integer: 4)).divided(by: large) == .one)
  }
}
