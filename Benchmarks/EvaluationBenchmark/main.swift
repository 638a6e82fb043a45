// Measures guide rule B (intune-guide-requirements.md §1.4 B) against a three-attachment context:
// the tree-walker, the compiled form, and a hand-written Swift function that checks the same thing.
//
//   swift run -c release --package-path Benchmarks EvaluationBenchmark
import Foundation
import PredicateEvaluation
import PredicateSyntax
import UniformTypes

/// Rule B verbatim from the guide (V2018 and V2020 alike).
let ruleBText = """
  SUBQUERY (
      extensionItems,
      $extensionItem,
      SUBQUERY (
          $extensionItem.attachments,
          $attachment,
          ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url" ||
          ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.plain-text" ||
          ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.image" ||
          ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.data"
      ).@count > 0
  ).@count > 0
  """

/// The same test written by hand against the same input, with the four types resolved once.
struct HandWrittenRuleB {
  let registry: TypeRegistry
  let targets: [ResolvedType]

  init(registry: TypeRegistry) {
    self.registry = registry
    targets = ["public.url", "public.plain-text", "public.image", "public.data"].map(registry.resolve)
  }

  func evaluate(_ context: PredicateValue) -> Bool {
    guard case .dictionary(let root) = context, case .array(let items)? = root["extensionItems"] else {
      return false
    }
    var matchingItems = 0
    for item in items {
      guard case .dictionary(let members) = item, case .array(let attachments)? = members["attachments"]
      else {
        continue
      }
      var matchingAttachments = 0
      for attachment in attachments {
        guard case .dictionary(let provider) = attachment,
          case .array(let identifiers)? = provider["registeredTypeIdentifiers"]
        else { continue }
        let matches = targets.contains { target in
          identifiers.contains { identifier in
            guard case .string(let text) = identifier else { return false }
            return registry.conforms(registry.resolve(text), to: target)
          }
        }
        if matches { matchingAttachments += 1 }
      }
      if matchingAttachments > 0 { matchingItems += 1 }
    }
    return matchingItems > 0
  }
}

/// Three Photos images in one extension item (apple-predicates-and-utis.md §B.6).
let threePhotos: PredicateValue = [
  "extensionItems": [
    [
      "attachments": [
        ["registeredTypeIdentifiers": ["public.heic", "public.jpeg"]],
        ["registeredTypeIdentifiers": ["public.heic", "public.jpeg"]],
        ["registeredTypeIdentifiers": ["public.jpeg"]],
      ]
    ]
  ]
]

/// This thread's CPU time, so other processes on a shared machine do not inflate the figures.
func cpuNanoseconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
  return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

/// CPU nanoseconds per call of one run of `iterations` calls, and how many calls answered true.
func timeOneRun(iterations: Int, _ body: () -> Bool) -> (nanoseconds: Double, answers: Int) {
  var answers = 0
  let start = cpuNanoseconds()
  for _ in 0..<iterations where body() { answers += 1 }
  return ((cpuNanoseconds() - start) / Double(iterations), answers)
}

/// The best run of each contender; rounds interleave the contenders so load on a shared machine hits all alike.
func measure(rounds: Int, iterations: Int, _ contenders: [(label: String, body: () -> Bool)]) -> [Double] {
  var best = Array(repeating: Double.infinity, count: contenders.count)
  for _ in 0..<rounds {
    for (index, contender) in contenders.enumerated() {
      let run = timeOneRun(iterations: iterations, contender.body)
      if run.answers != iterations {
        print("error: \(contender.label) rejected the three-photo context")
        exit(1)
      }
      best[index] = min(best[index], run.nanoseconds)
    }
  }
  for (contender, time) in zip(contenders, best) {
    let padded = contender.label.padding(toLength: 14, withPad: " ", startingAt: 0)
    print("\(padded) \(String(format: "%9.1f", time)) ns/evaluation")
  }
  return best
}

let registry = TypeRegistry.system
let rule: PredicateNode
do {
  rule = try PredicateParser.parse(ruleBText)
} catch {
  print("error: rule B does not parse: \(error)")
  exit(1)
}
let compiled = PredicateEvaluator.compile(rule, registry: registry)
let handWritten = HandWrittenRuleB(registry: registry)
let iterations = 200_000

func walk() -> Bool { (try? PredicateEvaluator.evaluate(rule, on: threePhotos, registry: registry)) ?? false }
func runCompiled() -> Bool { (try? compiled.evaluate(on: threePhotos)) ?? false }

guard walk(), runCompiled(), handWritten.evaluate(threePhotos) else {
  print("error: the three evaluators do not all accept the three-photo context")
  exit(1)
}
let rounds = 9
print(
  "guide rule B, three attachments, thread CPU time, best of \(rounds) interleaved runs of \(iterations) evaluations"
)
let times = measure(
  rounds: rounds, iterations: iterations,
  [("tree-walker", walk), ("compiled", runCompiled), ("hand-written", { handWritten.evaluate(threePhotos) })])
print(
  String(
    format: "compiled / hand-written = %.2fx   tree-walker / compiled = %.2fx", times[1] / times[2],
    times[0] / times[1]))
