/// One Boolean per entry, 64 to a word: the answers of many children, or of every set of a few bits, to
/// one question, combined by Boolean operators a word at a time.
struct BitVector: Sendable, Hashable {
  private(set) var words: [UInt64]
  /// The number of entries.
  let size: Int

  init(size: Int, value: Bool) {
    self.size = size
    words = Array(repeating: value ? .max : 0, count: (size + 63) / 64)
    clearPadding()
  }

  /// The entries given as words, 64 to a word, entry `i` in bit `i % 64` of word `i / 64`; bits past `size`
  /// are cleared.
  init(size: Int, words: [UInt64]) {
    precondition(words.count == (size + 63) / 64, "\(words.count) words for \(size) entries")
    self.size = size
    self.words = words
    clearPadding()
  }

  /// Entry `i` is `value(i)`; the words are filled one at a time.
  init(size: Int, _ value: (Int) -> Bool) {
    self.size = size
    words = []
    words.reserveCapacity((size + 63) / 64)
    var word: UInt64 = 0
    for index in 0..<size {
      if value(index) { word |= 1 << UInt64(index & 63) }
      if index & 63 == 63 || index == size - 1 {
        words.append(word)
        word = 0
      }
    }
  }

  /// Calls `body` with the index of every true entry, in increasing order.
  func forEachTrue(_ body: (Int) -> Void) {
    for (index, word) in words.enumerated() {
      var rest = word
      while rest != 0 {
        body(index << 6 | rest.trailingZeroBitCount)
        rest &= rest - 1
      }
    }
  }

  /// Over the `2^bitCount` sets of `bitCount` bits: true on the sets holding `bit`.
  init(setsOf bitCount: Int, holding bit: Int) {
    self.init(size: 1 << bitCount, value: false)
    if bit < 6 {
      // Within a word the pattern repeats every 2^(bit+1) sets.
      let pattern = Self.wordPattern(holding: bit)
      for word in words.indices { words[word] = pattern }
    } else {
      for word in words.indices where word & (1 << (bit - 6)) != 0 { words[word] = .max }
    }
    clearPadding()
  }

  /// Of the 64 sets a word covers (the low six bits of a set's number), those holding `bit` (below 6).
  static func wordPattern(holding bit: Int) -> UInt64 { wordPatterns[bit] }

  private static let wordPatterns: [UInt64] = [
    0xAAAA_AAAA_AAAA_AAAA, 0xCCCC_CCCC_CCCC_CCCC, 0xF0F0_F0F0_F0F0_F0F0, 0xFF00_FF00_FF00_FF00,
    0xFFFF_0000_FFFF_0000, 0xFFFF_FFFF_0000_0000,
  ]

  /// The entries past `size` in the last word stay clear, so that counts and equality are right.
  private mutating func clearPadding() {
    let used = size % 64
    if used != 0, let last = words.indices.last { words[last] &= (1 << UInt64(used)) - 1 }
  }

  subscript(index: Int) -> Bool {
    get { words[index >> 6] & (1 << UInt64(index & 63)) != 0 }
    set {
      if newValue {
        words[index >> 6] |= 1 << UInt64(index & 63)
      } else {
        words[index >> 6] &= ~(1 << UInt64(index & 63))
      }
    }
  }

  /// The number of true entries.
  var count: Int { words.reduce(0) { $0 + $1.nonzeroBitCount } }

  func and(_ other: BitVector) -> BitVector {
    var result = self
    result.formAnd(other)
    return result
  }

  func or(_ other: BitVector) -> BitVector {
    var result = self
    result.formOr(other)
    return result
  }

  func not() -> BitVector {
    var result = self
    result.words.withUnsafeMutableBufferPointer { words in
      for word in words.indices { words[word] = ~words[word] }
    }
    result.clearPadding()
    return result
  }

  // In place and through buffers: the vectors run to thousands of words, and an indexed write to an array
  // checks its uniqueness each time.
  mutating func formAnd(_ other: BitVector) {
    precondition(size == other.size, "\(size) and \(other.size) entries")
    words.withUnsafeMutableBufferPointer { words in
      other.words.withUnsafeBufferPointer { others in
        for word in words.indices { words[word] &= others[word] }
      }
    }
  }

  mutating func formOr(_ other: BitVector) {
    precondition(size == other.size, "\(size) and \(other.size) entries")
    words.withUnsafeMutableBufferPointer { words in
      other.words.withUnsafeBufferPointer { others in
        for word in words.indices { words[word] |= others[word] }
      }
    }
  }
}

extension ExactFormula {
  /// The formula's answer on every entry at once, given each atom's answers.
  func answers(size: Int, atom: (Int) -> BitVector) -> BitVector {
    switch self {
    case .constant(let value): return BitVector(size: size, value: value)
    case .atom(let index): return atom(index)
    case .not(let operand): return operand.answers(size: size, atom: atom).not()
    case .and(let operands):
      // Accumulated in place: one copy of the first operand's words, not one per operator.
      guard let first = operands.first else { return BitVector(size: size, value: true) }
      var result = first.answers(size: size, atom: atom)
      for operand in operands.dropFirst() { result.formAnd(operand.answers(size: size, atom: atom)) }
      return result
    case .or(let operands):
      guard let first = operands.first else { return BitVector(size: size, value: false) }
      var result = first.answers(size: size, atom: atom)
      for operand in operands.dropFirst() { result.formOr(operand.answers(size: size, atom: atom)) }
      return result
    }
  }
}

/// A 64 × 64 matrix of bits, row `i` a word whose bit `j` is entry `(i, j)`.
enum BitMatrix {
  /// Transposes `rows` (64 words) in place: entry `(i, j)` moves to `(j, i)`. Six rounds, each swapping
  /// the off-diagonal halves of every block of `2j` rows and columns for `j` = 32, 16, …, 1. Each round is
  /// written out with its constant span, so that its loop has no test per row and its shifts are constants:
  /// a third of the instructions of one loop over the spans.
  static func transpose(_ rows: UnsafeMutableBufferPointer<UInt64>) {
    precondition(rows.count == 64, "a 64 × 64 matrix has 64 rows")
    guard let rows = rows.baseAddress else { return }
    swapHalves(rows, span: 32, low: 0x0000_0000_FFFF_FFFF)
    swapHalves(rows, span: 16, low: 0x0000_FFFF_0000_FFFF)
    swapHalves(rows, span: 8, low: 0x00FF_00FF_00FF_00FF)
    swapHalves(rows, span: 4, low: 0x0F0F_0F0F_0F0F_0F0F)
    swapHalves(rows, span: 2, low: 0x3333_3333_3333_3333)
    swapHalves(rows, span: 1, low: 0x5555_5555_5555_5555)
  }

  /// A bit table turned from columns into rows: `columns[c]` holds column `c` over `rowCount` rows (words of
  /// 64 rows, as ``BitVector/words``); the result holds each row's `width = (columns.count + 63) / 64` words,
  /// bit `c % 64` of word `c / 64` of row `r` being bit `r` of column `c`. A 64 × 64 block at a time: setting
  /// the table's bits one by one cost about four times as much at ten bits per row.
  static func rows(ofColumns columns: [[UInt64]], rowCount: Int) -> [UInt64] {
    let (width, rowWords) = ((columns.count + 63) / 64, (rowCount + 63) / 64)
    precondition(columns.allSatisfy { $0.count == rowWords }, "every column holds \(rowWords) words")
    var table = [UInt64]()
    table.reserveCapacity(columns.count * rowWords)
    for column in columns { table.append(contentsOf: column) }
    var rows = [UInt64](repeating: 0, count: rowCount * width)
    var block = [UInt64](repeating: 0, count: 64)
    table.withUnsafeBufferPointer { table in
      rows.withUnsafeMutableBufferPointer { rows in
        block.withUnsafeMutableBufferPointer { block in
          for columnBlock in 0..<width {
            let columnsHere = Swift.min(64, columns.count - columnBlock * 64)
            for rowBlock in 0..<rowWords {
              for column in 0..<columnsHere {
                block[column] = table[(columnBlock * 64 + column) * rowWords + rowBlock]
              }
              for column in columnsHere..<64 { block[column] = 0 }
              transpose(block)
              for row in 0..<Swift.min(64, rowCount - rowBlock * 64) {
                rows[(rowBlock * 64 + row) * width + columnBlock] = block[row]
              }
            }
          }
        }
      }
    }
    return rows
  }

  /// The reverse of ``rows(ofColumns:rowCount:)``: `columnCount` columns over `rowCount` rows, as the words of
  /// each, from rows of `width` words each.
  static func columns(ofRows rows: [UInt64], width: Int, rowCount: Int, columnCount: Int) -> [[UInt64]] {
    let rowWords = (rowCount + 63) / 64
    precondition(rows.count == rowCount * width, "\(rowCount) rows of \(width) words")
    var table = [UInt64](repeating: 0, count: columnCount * rowWords)
    var block = [UInt64](repeating: 0, count: 64)
    rows.withUnsafeBufferPointer { rows in
      table.withUnsafeMutableBufferPointer { table in
        block.withUnsafeMutableBufferPointer { block in
          for columnBlock in 0..<((columnCount + 63) / 64) {
            for rowBlock in 0..<rowWords {
              let rowsHere = Swift.min(64, rowCount - rowBlock * 64)
              for row in 0..<rowsHere { block[row] = rows[(rowBlock * 64 + row) * width + columnBlock] }
              for row in rowsHere..<64 { block[row] = 0 }
              transpose(block)
              for column in 0..<Swift.min(64, columnCount - columnBlock * 64) {
                table[(columnBlock * 64 + column) * rowWords + rowBlock] = block[column]
              }
            }
          }
        }
      }
    }
    return (0..<columnCount).map { Array(table[($0 * rowWords)..<(($0 + 1) * rowWords)]) }
  }

  /// One round of ``transpose(_:)``: in each block of `2 · span` rows, columns `span..<2 · span` of an upper
  /// row trade places with columns `0..<span` of the row `span` below it (`low` marks those columns).
  @inline(__always)
  private static func swapHalves(_ rows: UnsafeMutablePointer<UInt64>, span: Int, low: UInt64) {
    for block in stride(from: 0, to: 64, by: 2 * span) {
      for upper in block..<(block + span) {
        let swapped = ((rows[upper] >> UInt64(span)) ^ rows[upper + span]) & low
        rows[upper + span] ^= swapped
        rows[upper] ^= swapped << UInt64(span)
      }
    }
  }
}
