/// Unified diffs of two texts, as `diff -u` prints them, for previewing a plan of edits.
public enum UnifiedDiff {
  /// The unified diff from `old` to `new`, or the empty string when they are equal.
  ///
  /// Lines are split at `\n` (a `\r` before it stays part of the line). Hunks carry `context` unchanged
  /// lines on each side; a missing final line break is marked `\ No newline at end of file`.
  public static func make(
    from old: String, to new: String, oldName: String = "a", newName: String = "b", context: Int = 3
  ) -> String {
    guard old != new else { return "" }
    let oldLines = lines(old)
    let newLines = lines(new)
    // A final line without its line break differs from the same line with one.
    let operations = script(oldLines.map(\.comparable), newLines.map(\.comparable))
    var output = "--- \(oldName)\n+++ \(newName)\n"
    for hunk in hunks(operations, context: context) {
      output += header(hunk, operations)
      for operation in operations[hunk] {
        switch operation {
        case .same(let oldIndex, _): output += render(" ", oldLines[oldIndex])
        case .delete(let oldIndex): output += render("-", oldLines[oldIndex])
        case .insert(let newIndex): output += render("+", newLines[newIndex])
        }
      }
    }
    return output
  }

  struct Line {
    var text: Substring
    var hasLineBreak: Bool

    var comparable: Substring { hasLineBreak ? text : text + "\u{0}" }
  }

  enum Operation {
    case same(Int, Int)
    case delete(Int)
    case insert(Int)
  }

  static func lines(_ text: String) -> [Line] {
    // Split on the scalar: "\r\n" is one Character, so splitting Characters would miss CRLF line ends.
    var result = text.unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map {
      Line(text: Substring($0), hasLineBreak: true)
    }
    if let last = result.last, last.text.isEmpty {
      result.removeLast()
    } else if !result.isEmpty {
      result[result.count - 1].hasLineBreak = false
    }
    return result
  }

  static func render(_ marker: String, _ line: Line) -> String {
    marker + line.text + "\n" + (line.hasLineBreak ? "" : "\\ No newline at end of file\n")
  }

  /// An edit script: common prefix and suffix directly, the middle by longest common subsequence (edits
  /// are small, so the middle is too; a huge middle is shown as replaced rather than searched).
  static func script(_ old: [Substring], _ new: [Substring]) -> [Operation] {
    var prefix = 0
    while prefix < old.count, prefix < new.count, old[prefix] == new[prefix] { prefix += 1 }
    var suffix = 0
    while suffix < old.count - prefix, suffix < new.count - prefix,
      old[old.count - 1 - suffix] == new[new.count - 1 - suffix]
    {
      suffix += 1
    }
    var operations = (0..<prefix).map { Operation.same($0, $0) }
    let oldMiddle = Array(old[prefix..<(old.count - suffix)])
    let newMiddle = Array(new[prefix..<(new.count - suffix)])
    if oldMiddle.count * newMiddle.count <= 4_000_000 {
      var table = [[Int]](
        repeating: [Int](repeating: 0, count: newMiddle.count + 1), count: oldMiddle.count + 1)
      for oldIndex in stride(from: oldMiddle.count - 1, through: 0, by: -1) {
        for newIndex in stride(from: newMiddle.count - 1, through: 0, by: -1) {
          table[oldIndex][newIndex] =
            oldMiddle[oldIndex] == newMiddle[newIndex]
            ? table[oldIndex + 1][newIndex + 1] + 1
            : max(table[oldIndex + 1][newIndex], table[oldIndex][newIndex + 1])
        }
      }
      var oldIndex = 0
      var newIndex = 0
      while oldIndex < oldMiddle.count || newIndex < newMiddle.count {
        if oldIndex < oldMiddle.count, newIndex < newMiddle.count, oldMiddle[oldIndex] == newMiddle[newIndex]
        {
          operations.append(.same(prefix + oldIndex, prefix + newIndex))
          oldIndex += 1
          newIndex += 1
        } else if newIndex < newMiddle.count
          && (oldIndex == oldMiddle.count || table[oldIndex][newIndex + 1] > table[oldIndex + 1][newIndex])
        {
          operations.append(.insert(prefix + newIndex))
          newIndex += 1
        } else {
          operations.append(.delete(prefix + oldIndex))
          oldIndex += 1
        }
      }
    } else {
      operations += oldMiddle.indices.map { .delete(prefix + $0) }
      operations += newMiddle.indices.map { .insert(prefix + $0) }
    }
    operations += (0..<suffix).map { .same(old.count - suffix + $0, new.count - suffix + $0) }
    return operations
  }

  /// Ranges of `operations` to print: each change with `context` lines around it, close ones merged.
  static func hunks(_ operations: [Operation], context: Int) -> [Range<Int>] {
    var result: [Range<Int>] = []
    for (index, operation) in operations.enumerated() {
      if case .same = operation { continue }
      let start = max(0, index - context)
      let end = min(operations.count, index + context + 1)
      if let last = result.last, start <= last.upperBound {
        result[result.count - 1] = last.lowerBound..<max(last.upperBound, end)
      } else {
        result.append(start..<end)
      }
    }
    return result
  }

  static func header(_ hunk: Range<Int>, _ operations: [Operation]) -> String {
    var oldStart: Int?
    var newStart: Int?
    var oldCount = 0
    var newCount = 0
    var oldBefore = 0
    var newBefore = 0
    for operation in operations[..<hunk.lowerBound] {
      switch operation {
      case .same:
        oldBefore += 1
        newBefore += 1
      case .delete: oldBefore += 1
      case .insert: newBefore += 1
      }
    }
    for operation in operations[hunk] {
      switch operation {
      case .same(let oldIndex, let newIndex):
        oldStart = oldStart ?? oldIndex
        newStart = newStart ?? newIndex
        oldCount += 1
        newCount += 1
      case .delete(let oldIndex):
        oldStart = oldStart ?? oldIndex
        oldCount += 1
      case .insert(let newIndex):
        newStart = newStart ?? newIndex
        newCount += 1
      }
    }
    func range(_ start: Int?, _ before: Int, _ count: Int) -> String {
      let first = count == 0 ? before : (start ?? before) + 1
      return count == 1 ? "\(first)" : "\(first),\(count)"
    }
    return "@@ -\(range(oldStart, oldBefore, oldCount)) +\(range(newStart, newBefore, newCount)) @@\n"
  }
}
