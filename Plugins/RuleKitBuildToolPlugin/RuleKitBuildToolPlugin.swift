import Foundation
import PackagePlugin

/// Lints the activation rule of every Info.plist in a target as part of its build: one build command per
/// file runs `rulekit lint --format xcode`, so findings are `file:line:column: error:` lines and a syntax
/// error (any error or warning) fails the build. The command's output is an empty Swift file, which makes
/// the build run it and re-run it when the Info.plist changes. Declare the Info.plist in the target's
/// `exclude` (SwiftPM does not compile it).
@main
struct RuleKitBuildToolPlugin: BuildToolPlugin {
  func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
    let walker = FileManager.default.enumerator(at: target.directoryURL, includingPropertiesForKeys: nil)
    let plists = (walker?.allObjects as? [URL] ?? []).filter { $0.lastPathComponent == "Info.plist" }
    return try plists.sorted { $0.path < $1.path }.enumerated().map { index, plist in
      try Self.command(
        tool: context.tool(named: "rulekit").url, plist: plist, output: context.pluginWorkDirectoryURL,
        index: index)
    }
  }

  /// `sh -c 'rulekit lint … && echo > stamp.swift'`: the stamp is written only when the lint passes.
  static func command(tool: URL, plist: URL, output: URL, index: Int) -> Command {
    let stamp = output.appendingPathComponent("RuleKitLint\(index).swift")
    return .buildCommand(
      displayName: "rulekit lint \(plist.lastPathComponent)",
      executable: URL(fileURLWithPath: "/bin/sh"),
      arguments: [
        "-c",
        "\"$0\" lint --skip-files-without-rule --format xcode \"$1\" && echo '// rulekit lint passed' > \"$2\"",
        tool.path, plist.path, stamp.path,
      ],
      inputFiles: [tool, plist],
      outputFiles: [stamp])
  }
}

#if canImport(XcodeProjectPlugin)
  import XcodeProjectPlugin

  extension RuleKitBuildToolPlugin: XcodeBuildToolPlugin {
    func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
      let plists = target.inputFiles.map(\.url).filter { $0.lastPathComponent == "Info.plist" }
      return try plists.enumerated().map { index, plist in
        Self.command(
          tool: try context.tool(named: "rulekit").url, plist: plist, output: context.pluginWorkDirectoryURL,
          index: index)
      }
    }
  }
#endif
