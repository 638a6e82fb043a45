// Exact `diff` (ExactRuleAnalysis through SemanticDiff.decide) against the bounded enumeration it replaced
// (SemanticDiff.compare, 3 attachments in 2 items), side by side in one run:
// `swift run -c release --package-path Benchmarks ExactDiffBenchmark [repetitions [prefix [folder [pairing
// [effort]]]]]`.
// Each real rule in Tests/Fixtures/real-rules (or in `folder`, e.g. Tests/Fixtures/real-rules-holdout) is
// compared with its Intune-injected form (a predicate's text edit; a dictionary's apple conversion against
// its injected intune conversion, as CorpusTests do), then, for the default folder only, two rules naming
// 32 types with `@count <= 10`. Pairing `apple-twins` compares, for dictionaries only, the apple conversion
// with twins injected against the injected intune conversion: the two Intune forms a team may hold (RuleKit's
// that keeps the dictionary's meaning, Microsoft's), where the exact search meets its limits. Effort
// `exhaustive` (fifth argument) searches past the default bound (`rulekit diff --exhaustive`). Times are this thread's CPU time, the median of the repetitions, so other
// processes on a shared machine inflate them less.
import ActivationRules
import Foundation
import PredicateSyntax

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let repetitions = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 5
/// Only the rows whose name starts with this (second argument), e.g. `14` or `32 types`; `""` for all.
let only = CommandLine.arguments.dropFirst(2).first ?? ""
/// The folder of rules (third argument), relative to the package root unless absolute.
let folderArgument = CommandLine.arguments.dropFirst(3).first
let corpus =
  folderArgument.map { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : packageRoot.appendingPathComponent($0) }
  ?? packageRoot.appendingPathComponent("Tests/Fixtures/real-rules")
/// `injected` (default) or `apple-twins` (fourth argument; see above).
let pairing = CommandLine.arguments.dropFirst(4).first ?? "injected"
guard ["injected", "apple-twins"].contains(pairing) else {
  FileHandle.standardError.write(Data("pairing must be injected or apple-twins, not \(pairing)\n".utf8))
  exit(64)
}
/// `standard` (default) or `exhaustive` (fifth argument): ExactRuleAnalysis.Effort.
let effortArgument = CommandLine.arguments.dropFirst(5).first ?? "standard"
guard ["standard", "exhaustive"].contains(effortArgument) else {
  FileHandle.standardError.write(Data("effort must be standard or exhaustive, not \(effortArgument)\n".utf8))
  exit(64)
}
let effort: ExactRuleAnalysis.Effort = effortArgument == "exhaustive" ? .exhaustive : .standard
/// Writes a row at once, even into a pipe: a slow row should not hide the ones before it.
func emit(_ line: String) { FileHandle.standardOutput.write(Data((line + "\n").utf8)) }

func cpuNanoseconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
  return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

/// The median CPU time of `body` in milliseconds.
func median(_ body: () -> Void) -> Double {
  var times: [Double] = []
  for _ in 0..<repetitions {
    let start = cpuNanoseconds()
    body()
    times.append((cpuNanoseconds() - start) / 1e6)
  }
  return times.sorted()[times.count / 2]
}

/// Each row's exact time and whether it was decided exactly, for the summary.
nonisolated(unsafe) var results: [(name: String, milliseconds: Double, exact: Bool)] = []

func row(_ name: String, _ first: PredicateNode, _ second: PredicateNode) {
  guard name.hasPrefix(only) else { return }
  var decision: SemanticDiff.Decision?
  let exact = median { decision = try? SemanticDiff.decide(first, second, effort: effort) }
  let bounded = median { _ = try? SemanticDiff.compare(first, second) }
  let verdict: String
  switch decision?.exactness {
  case .exact?: verdict = decision?.report.rulesAgree == true ? "exact, agree" : "exact, differ"
  case .bounded(let reason)?: verdict = "bounded: \(reason.prefix(40))"
  case nil: verdict = "refused"
  }
  let ratio = bounded / exact
  results.append((name, exact, decision?.exactness == .exact))
  emit(
    name.padding(toLength: 22, withPad: " ", startingAt: 0)
      + String(format: "%10.2f %12.2f %8.1f×   ", exact, bounded, ratio) + verdict)
}

emit("rule                   exact (ms)  bounded (ms)  speed-up  outcome")
let names = ((try? FileManager.default.contentsOfDirectory(atPath: corpus.path)) ?? [])
  .filter { $0.hasSuffix(".predicate") || $0.hasSuffix(".plist") }.sorted()
/// Files that did not load or inject, named in the summary.
var notCompared: [String] = []
for name in names {
  let rule: ActivationRule
  do {
    (_, rule) = try ActivationRule.load(corpus.appendingPathComponent(name))
  } catch {
    // A rule that does not load is a row too, so a folder's table accounts for every file.
    if name.hasPrefix(only) {
      emit(name.padding(toLength: 22, withPad: " ", startingAt: 0) + "does not load: \(error)")
      notCompared.append(name)
    }
    continue
  }
  switch rule {
  case .predicate where pairing == "apple-twins":
    continue
  case .predicate(let tree, let text):
    guard let injected = try? TwinInjector.inject(text: text) else {
      if name.hasPrefix(only) {
        emit(name.padding(toLength: 22, withPad: " ", startingAt: 0) + "not injected")
        notCompared.append(name)
      }
      continue
    }
    row(name, tree, injected.tree)
  case .dictionary where pairing == "apple-twins":
    row(
      name, TwinInjector.injectedTree(rule.predicate(style: .apple)),
      TwinInjector.injectedTree(rule.predicate(style: .intune)))
  case .dictionary:
    row(name, rule.predicate(style: .apple), TwinInjector.injectedTree(rule.predicate(style: .intune)))
  }
}

// Two rules naming 32 system types, at most 10 matching attachments per item; the second drops one type.
let types = [
  "public.jpeg", "public.png", "public.tiff", "com.compuserve.gif", "public.heic", "public.heif",
  "com.microsoft.bmp",
  "public.mpeg-4", "com.apple.quicktime-movie", "public.avi", "public.mp3", "public.mpeg-4-audio",
  "com.microsoft.waveform-audio", "public.aiff-audio", "com.adobe.pdf", "public.rtf", "public.html",
  "public.xml",
  "public.json", "public.plain-text", "public.url", "public.file-url", "public.vcard", "com.apple.pkpass",
  "public.zip-archive", "org.gnu.gnu-zip-archive", "public.comma-separated-values-text",
  "public.python-script",
  "public.shell-script", "com.apple.ical.ics", "org.openxmlformats.wordprocessingml.document",
  "org.openxmlformats.spreadsheetml.sheet",
]
func wide(_ types: [String]) throws -> PredicateNode {
  let tests = types.map { "ANY $a.registeredTypeIdentifiers UTI-CONFORMS-TO \"\($0)\"" }
  return try PredicateParser.parse(
    "SUBQUERY(extensionItems, $e, SUBQUERY($e.attachments, $a, \(tests.joined(separator: " OR "))).@count "
      + "BETWEEN {1, 10} AND $e.attachments.@count <= 10).@count == 1")
}
if folderArgument == nil && pairing == "injected" {
  row("32 types, agree", try wide(types), try wide(types.reversed()))
  row("32 types, differ", try wide(types), try wide(Array(types.dropLast()) + ["public.image"]))
}

// The targets of issue 18: every real rule exact and under 20 ms; the 32-type rules under 50 ms.
let real = results.filter { !$0.name.hasPrefix("32 types") }
let wide = results.filter { $0.name.hasPrefix("32 types") }
if !real.isEmpty {
  emit(
    "real rules: \(real.filter(\.exact).count) of \(real.count) exact, "
      + "\(real.filter { $0.exact && $0.milliseconds < 20 }.count) of \(real.count) exact under 20 ms (target: all)"
  )
}
if !notCompared.isEmpty {
  emit("not compared (do not load or inject): \(notCompared.joined(separator: ", "))")
}
if !wide.isEmpty {
  emit(
    "32-type rules: \(wide.filter { $0.exact && $0.milliseconds < 50 }.count) of \(wide.count) exact under 50 ms "
      + "(target: all)")
}
