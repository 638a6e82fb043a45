import PropertyLists
import TestSupport
import Testing

@Suite("Unified diff")
struct UnifiedDiffTests {
  @Test("equal texts have no diff")
  func equal() {
    #expect(UnifiedDiff.make(from: "a\nb\n", to: "a\nb\n") == "")
  }

  @Test("hunks, context and line numbers as diff -u prints them")
  func hunks() {
    let old = (1...20).map { "line \($0)" }.joined(separator: "\n") + "\n"
    var lines = (1...20).map { "line \($0)" }
    lines[1] = "changed 2"
    lines.insert("inserted after 15", at: 15)
    lines.remove(at: 20)
    let new = lines.joined(separator: "\n") + "\n"
    let expected = """
      --- old
      +++ new
      @@ -1,5 +1,5 @@
       line 1
      -line 2
      +changed 2
       line 3
       line 4
       line 5
      @@ -13,8 +13,8 @@
       line 13
       line 14
       line 15
      +inserted after 15
       line 16
       line 17
       line 18
       line 19
      -line 20

      """
    #expect(UnifiedDiff.make(from: old, to: new, oldName: "old", newName: "new") == expected)
  }

  @Test("nearby changes share a hunk; empty sides use the line before")
  func mergedAndEmpty() {
    #expect(
      UnifiedDiff.make(from: "", to: "a\n")
        == "--- a\n+++ b\n@@ -0,0 +1 @@\n+a\n")
    #expect(
      UnifiedDiff.make(from: "a\nb\nc\n", to: "a\nc\n")
        == "--- a\n+++ b\n@@ -1,3 +1,2 @@\n a\n-b\n c\n")
  }

  @Test("a missing final line break is marked")
  func noFinalNewline() {
    #expect(
      UnifiedDiff.make(from: "a\nb", to: "a\nb\n")
        == "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n")
  }

  @Test("CRLF lines are lines")
  func crlf() {
    #expect(
      UnifiedDiff.make(from: "a\r\nb\r\n", to: "a\r\nc\r\n")
        == "--- a\n+++ b\n@@ -1,2 +1,2 @@\n a\r\n-b\r\n+c\r\n")
  }

  @Test(
    "property: applying the printed hunks to the old lines gives the new lines",
    arguments: [1, 2, 3, 4, 5] as [UInt64])
  func reconstructs(seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    for _ in 0..<50 {
      let old = (0..<Int.random(in: 0...30, using: &generator)).map { _ in
        "l\(Int.random(in: 0...6, using: &generator))"
      }
      var new = old
      for _ in 0..<Int.random(in: 0...5, using: &generator) {
        if !new.isEmpty, Bool.random(using: &generator) {
          new.remove(at: Int.random(in: 0..<new.count, using: &generator))
        } else {
          new.insert(
            "n\(Int.random(in: 0...6, using: &generator))",
            at: Int.random(in: 0...new.count, using: &generator))
        }
      }
      let oldText = old.map { $0 + "\n" }.joined()
      let newText = new.map { $0 + "\n" }.joined()
      let diff = UnifiedDiff.make(from: oldText, to: newText, context: 1)
      #expect(apply(diff, to: old) == new, "seed \(seed): \(old) → \(new)")
    }
  }

  /// A minimal patch: walks the hunks, checks context and removed lines, builds the result.
  func apply(_ diff: String, to old: [String]) -> [String]? {
    var result: [String] = []
    var oldIndex = 0
    for line in diff.split(separator: "\n", omittingEmptySubsequences: false).dropFirst(2) where !line.isEmpty
    {
      if line.hasPrefix("@@") {
        let start = line.dropFirst(4).prefix { $0 != "," && $0 != " " }
        guard let number = Int(start) else { return nil }
        // An empty old range names the line before it; otherwise the range's first line.
        let target = line.dropFirst(4).prefix { $0 != " " }.hasSuffix(",0") ? number : number - 1
        guard target <= old.count else { return nil }
        while oldIndex < target {
          result.append(old[oldIndex])
          oldIndex += 1
        }
        continue
      }
      let text = String(line.dropFirst())
      switch line.first {
      case " ", "-":
        guard oldIndex < old.count, old[oldIndex] == text else { return nil }
        if line.first == " " { result.append(text) }
        oldIndex += 1
      case "+":
        result.append(text)
      default:
        return nil
      }
    }
    return result + old[oldIndex...]
  }
}
