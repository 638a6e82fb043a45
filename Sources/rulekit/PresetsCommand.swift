import ActivationRules
import ArgumentParser
import Foundation

/// `rulekit presets`: the host presets (what real apps share), with their sources.
struct PresetsCommand: ParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "presets",
    abstract: "List the host presets (what Safari, Photos, Files, Firefox… share) usable as contexts.",
    discussion: "Any photos-N (1 to 100) works besides the listed photos-1 and photos-3.")

  @Option(help: "Output format: text or json.")
  var format: RulesOutputFormat = .text

  @Argument(help: "Show only these presets.")
  var names: [String] = []

  func run() throws {
    var presets: [HostPreset] = []
    for name in names {
      guard let preset = HostPreset.named(name) else {
        throw RulesCLI.fail(
          "no preset named \(name); run 'rulekit presets' for the list", code: RulesCLI.Exit.usage)
      }
      presets.append(preset)
    }
    if names.isEmpty { presets = HostPreset.all }
    switch format {
    case .json:
      let encoder = JSONEncoder()
      encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
      print(String(decoding: try encoder.encode(presets), as: UTF8.self))
    case .text, .xcode:
      for preset in presets {
        print("\(preset.name): \(preset.summary)")
        print("  shares: \(preset.context.summary)")
        print("  source: \(preset.source)")
      }
    }
  }
}

/// Output formats of the rule subcommands; `xcode` is `file:line:column: warning: message` for build phases.
enum RulesOutputFormat: String, ExpressibleByArgument, CaseIterable {
  case text, json, xcode
}
