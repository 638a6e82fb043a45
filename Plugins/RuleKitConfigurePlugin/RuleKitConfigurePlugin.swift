import Foundation
import PackagePlugin

/// `swift package rulekit-configure [--dry-run] [rulekit configure options]`: runs `rulekit configure` with
/// the arguments given; without `-i`, once for every Info.plist in the package's targets, with the
/// `.entitlements` file beside it (`-e`), which must be the only one there. `--dry-run` writes nothing; otherwise
/// SwiftPM asks for permission to write to the package directory.
@main
struct RuleKitConfigurePlugin: CommandPlugin {
  func performCommand(context: PluginContext, arguments: [String]) async throws {
    let tool = try context.tool(named: "rulekit").url
    if arguments.contains("-i") || arguments.contains("--info-plist") {
      return try Self.configure(tool: tool, arguments)
    }
    let plists = context.package.targets.flatMap { target in
      let walker = FileManager.default.enumerator(at: target.directoryURL, includingPropertiesForKeys: nil)
      return (walker?.allObjects as? [URL] ?? []).filter { $0.lastPathComponent == "Info.plist" }
    }
    guard !plists.isEmpty else {
      Diagnostics.error("rulekit-configure: no Info.plist in the package's targets; pass -i FILE")
      throw Failed()
    }
    for plist in plists.sorted(by: { $0.path < $1.path }) {
      let folder = plist.deletingLastPathComponent()
      let beside =
        (try? FileManager.default.contentsOfDirectory(at: folder, includingPropertiesForKeys: nil)) ?? []
      let entitlements = beside.filter { $0.pathExtension == "entitlements" }
      guard entitlements.count == 1 else {
        Diagnostics.error(
          "rulekit-configure: \(plist.path) has \(entitlements.count) .entitlements files beside it, not one; "
            + "pass -i INFO.plist -e FILE.entitlements")
        throw Failed()
      }
      try Self.configure(tool: tool, ["-i", plist.path, "-e", entitlements[0].path] + arguments)
    }
  }

  static func configure(tool: URL, _ arguments: [String]) throws {
    let process = Process()
    process.executableURL = tool
    process.arguments = ["configure"] + arguments
    try process.run()
    process.waitUntilExit()
    if process.terminationStatus != 0 {
      Diagnostics.error("rulekit configure failed (exit status \(process.terminationStatus))")
      throw Failed()
    }
  }

  struct Failed: Error, CustomStringConvertible {
    var description: String { "rulekit configure failed" }
  }
}
