// RuleKit's side of the peer benchmark (scripts/bench-peers builds this with -c release and runs it).
//
//   PeerWorkload PREPARED.json
//
// PREPARED.json is the array scripts/bench-peers writes: {"predicate", "object", "expected"} per entry,
// with a null object and expectation for the corpus rules (timed for parsing only). For every entry
// this prints one tab-separated line, in the same shape as gnustep_bench.m plus two columns:
//
//   index  parse(ok|rejected)  eval(right|wrong|error|none)  ns-per-parse  ns-per-walk  ns-per-compiled
//   ns-per-syntax-tree-parse
//
// ns-per-parse is `PredicateParser.parse` (the `PredicateNode` tree); ns-per-syntax-tree-parse is
// `PredicateParser.parseSyntaxTree` (the flat tree the parser records, which `parse` builds nodes from).
// Entries that fail to parse or evaluate correctly report 0 for the times they lack.
import Foundation
import PredicateEvaluation
import PredicateSyntax
import UniformTypes

/// One workload entry.
struct Entry {
  var predicate: String
  var object: PredicateValue
  /// Apple's answer; `nil` for parse-only entries.
  var expected: Bool?
}

enum WorkloadError: Error, CustomStringConvertible {
  case malformed(String)
  var description: String {
    switch self {
    case .malformed(let reason): "PeerWorkload: \(reason)"
    }
  }
}

func readEntries(path: String) throws -> [Entry] {
  let text = try String(contentsOfFile: path, encoding: .utf8)
  guard case .array(let items) = try PredicateValue(json: text) else {
    throw WorkloadError.malformed("\(path) is not a JSON array")
  }
  return try items.enumerated().map { index, item in
    guard case .dictionary(let fields) = item, case .string(let predicate)? = fields["predicate"] else {
      throw WorkloadError.malformed("entry \(index) has no predicate string")
    }
    var expected: Bool?
    if case .bool(let answer)? = fields["expected"] { expected = answer }
    return Entry(predicate: predicate, object: fields["object"] ?? .null, expected: expected)
  }
}

/// Same policy as the peer harnesses: the best of five runs, each repeating the call for about 20 ms.
func nanosecondsPerCall(_ body: () -> Void) -> Double {
  let clock = ContinuousClock()
  func seconds(_ duration: Duration) -> Double {
    Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
  }
  let estimate = seconds(clock.measure(body)) * 1e9
  let iterations = max(3, min(1_000_000, Int(20e6 / max(estimate, 1))))
  var best = Double.infinity
  for _ in 0..<5 {
    let elapsed = clock.measure {
      for _ in 0..<iterations { body() }
    }
    best = min(best, seconds(elapsed) * 1e9 / Double(iterations))
  }
  return best
}

/// Keeps results alive so the optimizer cannot drop the measured calls.
nonisolated(unsafe) var sink = 0

func report(path: String) throws {
  let registry = TypeRegistry.system
  for (index, entry) in try readEntries(path: path).enumerated() {
    guard let tree = try? PredicateParser.parse(entry.predicate) else {
      print("\(index)\trejected\tnone\t0.0\t0.0\t0.0\t0.0")
      continue
    }
    let parseTime = nanosecondsPerCall {
      if (try? PredicateParser.parse(entry.predicate)) != nil { sink &+= 1 }
    }
    // The same parse into the flat `PredicateSyntaxTree`, without building `PredicateNode`s from it.
    let syntaxTreeTime = nanosecondsPerCall {
      if let tree = try? PredicateParser.parseSyntaxTree(entry.predicate) { sink &+= tree.nodeCount }
    }
    var evaluation = "none"
    var walkTime = 0.0
    var compiledTime = 0.0
    if let expected = entry.expected {
      let compiled = PredicateEvaluator.compile(tree, registry: registry)
      let walked = try? PredicateEvaluator.evaluate(tree, on: entry.object, registry: registry)
      let fromCompiled = try? compiled.evaluate(on: entry.object)
      if walked == nil || fromCompiled == nil {
        evaluation = "error"
      } else if walked == expected && fromCompiled == expected {
        evaluation = "right"
        walkTime = nanosecondsPerCall {
          if (try? PredicateEvaluator.evaluate(tree, on: entry.object, registry: registry)) == true {
            sink &+= 1
          }
        }
        compiledTime = nanosecondsPerCall {
          if (try? compiled.evaluate(on: entry.object)) == true { sink &+= 1 }
        }
      } else {
        evaluation = "wrong"
      }
    }
    print(
      "\(index)\tok\t\(evaluation)\t\(String(format: "%.1f", parseTime))\t\(String(format: "%.1f", walkTime))\t"
        + "\(String(format: "%.1f", compiledTime))\t\(String(format: "%.1f", syntaxTreeTime))")
  }
}

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
  FileHandle.standardError.write(Data("usage: PeerWorkload PREPARED.json\n".utf8))
  exit(2)
}
do {
  try report(path: arguments[1])
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(65)
}
