/// The optimal-string-alignment distance between two strings by characters — insertions, deletions,
/// substitutions and transpositions of neighbours each count one (`pfd` is one edit from `pdf`) — or nil
/// once it exceeds `limit`: callers look for near misses among many candidates and stop early on the rest.
package func editDistance<First: StringProtocol, Second: StringProtocol>(
  _ first: First, _ second: Second, limit: Int = .max
) -> Int? {
  // ASCII text (every type identifier in practice) is compared byte by byte: a byte is a character there,
  // and splitting into `Character`s costs more than the whole table for identifiers this short.
  if first.utf8.allSatisfy({ $0 < 0x80 }) && second.utf8.allSatisfy({ $0 < 0x80 }) {
    return alignmentDistance(Array(first.utf8), Array(second.utf8), limit: limit)
  }
  return alignmentDistance(Array(first), Array(second), limit: limit)
}

private func alignmentDistance<Element: Equatable>(_ first: [Element], _ second: [Element], limit: Int)
  -> Int?
{
  guard abs(first.count - second.count) <= limit else { return nil }
  // Three rows of the table: a transposition reads the row two back.
  var beforePrevious = [Int](repeating: 0, count: second.count + 1)
  var previous = Array(0...second.count)
  var current = previous
  var previousSmallest = 0
  for row in first.indices {
    current[0] = row + 1
    var smallest = current[0]
    for column in second.indices {
      var distance = min(
        previous[column + 1] + 1, current[column] + 1,
        previous[column] + (first[row] == second[column] ? 0 : 1))
      if row > 0, column > 0, first[row] == second[column - 1], first[row - 1] == second[column] {
        distance = min(distance, beforePrevious[column - 1] + 1)
      }
      current[column + 1] = distance
      smallest = min(smallest, distance)
    }
    // A row's least entry is at least the smaller of the row before's and one more than the row two
    // before's (a transposition reaches back two rows): once two rows running are past the limit, every
    // later one is.
    if smallest > limit && previousSmallest > limit { return nil }
    previousSmallest = smallest
    (beforePrevious, previous, current) = (previous, current, beforePrevious)
  }
  return previous[second.count] <= limit ? previous[second.count] : nil
}
