import Foundation
import UniformTypes

// Benchmarks for UniformTypes (run in release: scripts/benchmark-uti). Prints CPU nanoseconds per
// operation; the figures live in README.md under "Performance".

/// CPU time of this thread in nanoseconds: unlike wall time, it does not count the time other processes
/// on a shared machine hold the CPU.
func threadCPUNanoseconds() -> UInt64 {
  var time = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
  return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
}

/// Times `body` over `iterations` calls and returns CPU nanoseconds per call.
func nanosecondsPerCall(iterations: Int, _ body: () -> Int) -> (Double, Int) {
  let start = threadCPUNanoseconds()
  var sink = 0
  for _ in 0..<iterations { sink &+= body() }
  let elapsed = threadCPUNanoseconds() - start
  return (Double(elapsed) / Double(iterations), sink)
}

func padded(_ name: String) -> String {
  name + String(repeating: " ", count: max(1, 56 - name.count))
}

func report(_ name: String, _ measurement: (Double, Int), perCall calls: Int = 1) {
  let perOperation = measurement.0 / Double(calls)
  print(padded(name) + String(format: "%10.1f ns/op", perOperation) + "  (checksum \(measurement.1))")
}

// `UniformTypesBenchmark load` only builds the system registry and `… nothing` does nothing, so
// `perf stat -e instructions:u` on the two shows the registry's load cost independently of machine load.
switch CommandLine.arguments.dropFirst().first {
case "nothing":
  exit(0)
case "dyn":
  // Profiling aid: only the dyn.* path, e.g. under `perf record`.
  var count = 0
  for _ in 0..<20_000 where TypeRegistry.system.conforms("dyn.ah62d4rv4ge80s6d2", to: "public.data") {
    count += 1
  }
  exit(count == 20_000 ? 0 : 1)
case "load":
  exit(TypeRegistry.system.conforms("public.heic", to: "public.image") ? 0 : 1)
default:
  break
}

let loadStart = threadCPUNanoseconds()
let registry = TypeRegistry.system
_ = registry.conforms("public.heic", to: "public.image")
let loadNanoseconds = threadCPUNanoseconds() - loadStart
print(
  padded("TypeRegistry.system first use (parse + build)")
    + String(format: "%10.3f ms", Double(loadNanoseconds) / 1e6))

// Pairs shaped like activation-rule checks: attachment types against the UTIs rules name.
let attachmentTypes = [
  "public.jpeg", "public.heic", "public.png", "public.file-url", "public.url", "public.plain-text",
  "public.utf8-plain-text", "com.adobe.pdf", "public.mpeg-4", "com.apple.quicktime-movie", "public.vcard",
  "com.apple.pkpass",
]
let ruleTypes = [
  "public.image", "public.movie", "public.url", "public.file-url", "public.text", "com.adobe.pdf",
  "public.data",
  "public.content",
]
let pairs = attachmentTypes.flatMap { type in ruleTypes.map { (type, $0) } }
let iterations = 20_000

report(
  "conforms(String, String), exact spelling",
  nanosecondsPerCall(iterations: iterations) {
    var count = 0
    for (type, supertype) in pairs where registry.conforms(type, to: supertype) { count += 1 }
    return count
  }, perCall: pairs.count)

let upperPairs = pairs.map { ($0.0.uppercased(), $0.1.uppercased()) }
report(
  "conforms(String, String), other case (lowercases)",
  nanosecondsPerCall(iterations: iterations / 4) {
    var count = 0
    for (type, supertype) in upperPairs where registry.conforms(type, to: supertype) { count += 1 }
    return count
  }, perCall: upperPairs.count)

// Two parallel arrays, as a compiled rule holds them (a tuple array would measure generic tuple copies).
let resolvedTypes = pairs.map { registry.resolve($0.0) }
let resolvedSupertypes = pairs.map { registry.resolve($0.1) }
report(
  "conforms(ResolvedType, ResolvedType)",
  nanosecondsPerCall(iterations: iterations * 5) {
    var count = 0
    // Unsafe buffers lend their elements without a copy, so this measures the call, not array access.
    resolvedTypes.withUnsafeBufferPointer { types in
      resolvedSupertypes.withUnsafeBufferPointer { supertypes in
        for index in types.indices where registry.conforms(types[index], to: supertypes[index]) { count += 1 }
      }
    }
    return count
  }, perCall: resolvedTypes.count)

report(
  "resolve(String), exact spelling",
  nanosecondsPerCall(iterations: iterations) {
    var count = 0
    for type in attachmentTypes where registry.resolve(type).isKnown { count += 1 }
    return count
  }, perCall: attachmentTypes.count)

let twinRegistry = registry.withTwinPolicy(.mirrored)
let twinPairs = pairs.map { (IntuneTwin.twin(of: $0.0), IntuneTwin.twin(of: $0.1)) }
let twinTypes = twinPairs.map { twinRegistry.resolve($0.0) }
let twinSupertypes = twinPairs.map { twinRegistry.resolve($0.1) }
report(
  "conforms(ResolvedType, ResolvedType), twins, mirrored",
  nanosecondsPerCall(iterations: iterations * 5) {
    var count = 0
    twinTypes.withUnsafeBufferPointer { types in
      twinSupertypes.withUnsafeBufferPointer { supertypes in
        for index in types.indices where twinRegistry.conforms(types[index], to: supertypes[index]) {
          count += 1
        }
      }
    }
    return count
  }, perCall: twinTypes.count)

report(
  "conforms(String, String), dyn.* type",
  nanosecondsPerCall(iterations: iterations / 4) {
    registry.conforms("dyn.ah62d4rv4ge80s6d2", to: "public.data") ? 1 : 0
  })
