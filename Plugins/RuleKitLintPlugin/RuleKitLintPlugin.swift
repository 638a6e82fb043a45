import Foundation
import PackagePlugin

/// `swift package rulekit-lint [--target NAME…] [rulekit lint options]`: lints the activation rules of every
/// Info.plist and `.predicate` file in the package's targets (or the ones named), with compiler-style
/// `file:line:column: severity: message` output; fails when `rulekit lint` finds a problem.
@main
struct RuleKitLintPlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    var extractor = ArgumentExtractor(arguments)
    let names = extractor.extractOption(named: "target")
    let targets = names.isEmpty ? context.package.targets : try context.package.targets(named: names)
    let files = targets.flatMap { RuleFiles.find(in: $0.directoryURL) }
    try RuleFiles.lint(files, tool: context.tool(named: "rulekit").url, extra: extractor.remainingArguments)
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension RuleKitLintPlugin: XcodeCommandPlugin {
    func performCommand(context: XcodePluginContext, arguments: [String]) throws {
      let files = context.xcodeProject.targets.flatMap { target in
        target.inputFiles.map(\.url).filter(RuleFiles.isRuleFile)
      }
      try RuleFiles.lint(files, tool: context.tool(named: "rulekit").url, extra: arguments)
    }
  }
#endif

/// The files the plugins read, and one run of `rulekit lint` on them.
enum RuleFiles {
  static func isRuleFile(_ url: URL) -> Bool {
    url.lastPathComponent == "Info.plist" || url.pathExtension == "predicate"
  }

  /// Info.plist and `.predicate` files under `directory`, sorted.
  static func find(in directory: URL) -> [URL] {
    let walker = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)
    let urls = (walker?.allObjects as? [URL] ?? []).filter(isRuleFile)
    return urls.sorted { $0.path < $1.path }
  }

  static func lint(_ files: [URL], tool: URL, extra: [String]) throws {
    guard !files.isEmpty else {
      Diagnostics.remark("rulekit-lint: no Info.plist or .predicate file in the targets")
      return
    }
    let process = Process()
    process.executableURL = tool
    process.arguments =
      ["lint", "--skip-files-without-rule", "--format", "xcode"] + extra + files.map(\.path)
    try process.run()
    process.waitUntilExit()
    if process.terminationStatus != 0 {
      Diagnostics.error("rulekit lint found problems (exit status \(process.terminationStatus))")
      throw LintFailed()
    }
  }

  struct LintFailed: Error, CustomStringConvertible {
    var description: String { "rulekit lint found problems" }
  }
}
