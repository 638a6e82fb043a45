// Reading Xcode projects and resolving their build settings:
// `swift run -c release --package-path Benchmarks XcodeProjectsBenchmark [iterations]`.
//
// Side by side in one run, each the median over `iterations` (default 5) of this thread's CPU time, so
// other processes on a shared machine do not inflate them:
//   (a) the largest project.pbxproj in Tests/Fixtures/xcode-projects (by size): read it, then resolve every
//       target in every configuration of its list;
//   (b) a synthetic project.pbxproj of about 1 MB this program writes to a temporary folder (many targets
//       and configurations, project and target xcconfig levels with #include, `$(inherited)` chains,
//       `[sdk=…]`, `[config=…]` and `[arch=…]` conditions): the same;
//   (c) `AppConfigurator.plan(project:)` of the largest corpus project's app and its extensions, end to end
//       (reading the project included), as `rulekit configure --project … --dry-run` does it.
import Foundation
import IntuneConfigurator
import XcodeProjects

let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
  .deletingLastPathComponent()
let corpus = packageRoot.appendingPathComponent("Tests/Fixtures/xcode-projects")
let iterations = max(1, CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 5)

/// CPU time of this thread, in nanoseconds.
func cpuNanoseconds() -> Double {
  var now = timespec()
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now)
  return Double(now.tv_sec) * 1e9 + Double(now.tv_nsec)
}

/// The median CPU time of `iterations` runs of `body`, in milliseconds.
func medianMilliseconds(_ body: () throws -> Void) rethrows -> Double {
  var times: [Double] = []
  for _ in 0..<iterations {
    let start = cpuNanoseconds()
    try body()
    times.append((cpuNanoseconds() - start) / 1e6)
  }
  times.sort()
  return times[times.count / 2]
}

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("XcodeProjectsBenchmark: \(message)\n".utf8))
  exit(1)
}

/// Every target × configuration of `project`, resolved; returns how many.
@discardableResult
func resolveAll(_ project: XcodeProject) throws -> (resolutions: Int, settings: Int) {
  var resolutions = 0
  var settings = 0
  for target in project.targets {
    for name in project.configurationNames(for: target) {
      let resolved = try project.buildSettings(target: target, configuration: name)
      resolutions += 1
      settings += resolved.all.count
    }
  }
  return (resolutions, settings)
}

func report(_ label: String, pbxproj: String) throws {
  let bytes = (try FileManager.default.attributesOfItem(atPath: pbxproj)[.size] as? Int) ?? 0
  let project = try XcodeProject(path: pbxproj)
  let counts = try resolveAll(project)
  let read = try medianMilliseconds { _ = try XcodeProject(path: pbxproj) }
  let resolve = try medianMilliseconds { try resolveAll(project) }
  let both = try medianMilliseconds { try resolveAll(XcodeProject(path: pbxproj)) }
  print("\(label): \(pbxproj.replacingOccurrences(of: packageRoot.path + "/", with: ""))")
  print(
    "  \(bytes) bytes, \(project.objects.count) objects, \(project.targets.count) targets, "
      + "\(counts.resolutions) target × configuration resolutions, \(counts.settings) settings resolved")
  print(String(format: "  read                 %9.2f ms", read))
  print(
    String(
      format: "  resolve all          %9.2f ms  (%.3f ms per target × configuration)", resolve,
      resolve / Double(max(1, counts.resolutions))))
  print(String(format: "  read + resolve all   %9.2f ms", both))
}

// (a) The largest corpus project.
let enumerator = FileManager.default.enumerator(atPath: corpus.path)
var largest: (path: String, size: Int)?
while let relative = enumerator?.nextObject() as? String {
  guard relative.hasSuffix("/project.pbxproj") else { continue }
  let path = corpus.appendingPathComponent(relative).path
  let size = (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
  if size > largest?.size ?? -1 { largest = (path, size) }
}
guard let largest else { fail("no project.pbxproj under \(corpus.path)") }
print("\(iterations) iterations each; medians of this thread's CPU time")
try report("(a) largest corpus project", pbxproj: largest.path)

// (b) A synthetic project of about 1 MB.
let synthetic = try SyntheticProject.write(minimumBytes: 1_000_000)
try report("(b) synthetic project", pbxproj: synthetic.path + "/Synthetic.xcodeproj/project.pbxproj")
print(
  "  (\(SyntheticProject.configurations.count) configurations, project and target xcconfigs with #include, "
    + "$(inherited) chains \(SyntheticProject.chainLength) deep, sdk/config/arch conditions)")
try? FileManager.default.removeItem(at: synthetic)

// (c) AppConfigurator.plan(project:) of the largest corpus project's app, end to end.
let project = try XcodeProject(path: largest.path)
guard
  let app = project.targets.first(where: { $0.isApplication && !project.embeddedTargets(of: $0).isEmpty })
else { fail("no app with extensions in \(largest.path)") }
let configurator = AppConfigurator(options: IntuneConfiguratorOptions(fixEntitlements: true))
let plan = try configurator.plan(project: project, appTarget: app.name)
let planTime = try medianMilliseconds {
  _ = try configurator.plan(project: XcodeProject(path: largest.path), appTarget: app.name)
}
print(
  "(c) AppConfigurator.plan(project:), app \(app.name) and \(project.embeddedTargets(of: app).count) extensions"
)
print(
  "  \(plan.targets.count) targets planned, \(plan.buildSettings.count) build-setting edits, "
    + "\(plan.findings.count) findings")
print(String(format: "  read + plan          %9.2f ms", planTime))
