// Parse time per rule over the real-rule corpus:
// `swift run -c release --package-path Benchmarks PredicateSyntaxBenchmark [iterations] [parse|workload]`.
// Prints nanoseconds per parse for each of the 15 corpus rules and their mean, then the same for printing
// (`parse` as the second argument skips printing, so a profiler sees the parser alone). `workload` parses
// the 71 short predicates of the peer workload (Benchmarks/Peers/workload.json) instead, without printing:
// a fixed number of parses each, so instruction counts of two builds compare (PeerWorkload times by the clock).
// `tree` and `workload-tree` time `PredicateParser.parseSyntaxTree` (the flat tree) on the same inputs instead.
// Times are this thread's CPU time, so other processes on a shared machine do not inflate them.
import Foundation
import PredicateSyntax

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let corpus = packageRoot.appendingPathComponent("Tests/Fixtures/real-rules")
let iterations = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 2_000
let mode = CommandLine.arguments.dropFirst(2).first
let flatTree = mode == "tree" || mode == "workload-tree"
let parseOnly = mode == "parse" || mode == "workload" || flatTree

let names =
  ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
  .filter { $0.hasSuffix(".predicate") }.sorted()
guard !names.isEmpty else {
  FileHandle.standardError.write(Data("no .predicate files in \(corpus.path)\n".utf8))
  exit(66)
}

/// CPU time of this thread, in nanoseconds.
func cpuNanoseconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
  return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

func measure(_ body: () -> Void) -> Double {
  let start = cpuNanoseconds()
  body()
  return cpuNanoseconds() - start
}

/// The predicates of the peer workload, named by their position.
func workloadPredicates() throws -> [(name: String, text: String)] {
  let path = packageRoot.appendingPathComponent("Benchmarks/Peers/workload.json")
  let root = try JSONSerialization.jsonObject(with: try Data(contentsOf: path)) as? [String: Any]
  let cases = root?["cases"] as? [[String: Any]] ?? []
  return cases.enumerated().compactMap { index, entry in
    (entry["predicate"] as? String).map { (name: "w\(index)", text: $0) }
  }
}

let inputs =
  mode == "workload" || mode == "workload-tree"
  ? try workloadPredicates()
  : try names.map {
    (name: $0, text: try String(contentsOf: corpus.appendingPathComponent($0), encoding: .utf8))
  }

var parseTotal = 0.0
var printTotal = 0.0
var parsedCount = 0
print("rule          bytes   ns/parse   ns/print")
for (name, text) in inputs {
  // Workload predicates the parser rejects (none at present) are left out rather than timed as errors.
  guard var tree = try? PredicateParser.parse(text) else { continue }
  parsedCount += 1
  var nodes = 0
  let parseTime = measure {
    if flatTree {
      for _ in 0..<iterations { nodes &+= (try? PredicateParser.parseSyntaxTree(text))?.nodeCount ?? 0 }
    } else {
      for _ in 0..<iterations { tree = (try? PredicateParser.parse(text)) ?? tree }
    }
  }
  precondition(!flatTree || nodes > 0)
  var printed = ""
  let printTime = measure {
    for _ in 0..<(parseOnly ? 1 : iterations) { printed = PredicatePrinter.canonical(tree) }
  }
  precondition(!printed.isEmpty)
  let perParse = parseTime / Double(iterations)
  let perPrint = printTime / Double(parseOnly ? 1 : iterations)
  parseTotal += perParse
  printTotal += perPrint
  print(
    name.padding(toLength: 12, withPad: " ", startingAt: 0),
    String(text.utf8.count).leftPadded(6), String(Int(perParse)).leftPadded(10),
    String(Int(perPrint)).leftPadded(10))
}
print(
  "mean".padding(toLength: 12, withPad: " ", startingAt: 0), "      ",
  String(Int(parseTotal / Double(max(parsedCount, 1)))).leftPadded(10),
  String(Int(printTotal / Double(max(parsedCount, 1)))).leftPadded(10))
print(
  "\(parsedCount) \(mode?.hasPrefix("workload") == true ? "workload predicates" : "rules"), "
    + "\(iterations) iterations each\(flatTree ? ", to a PredicateSyntaxTree" : "")")

extension String {
  func leftPadded(_ width: Int) -> String { String(repeating: " ", count: max(0, width - count)) + self }
}
