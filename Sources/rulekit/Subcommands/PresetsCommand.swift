import ActivationRules
import ArgumentParser

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// `rulekit presets`: the host presets (what real apps share), with their sources.
struct PresetsCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "presets",
    abstract: "List the host presets (what Safari, Photos, Files, Firefox… share) usable as contexts.",
    discussion: """
      Any photos-N (1 to 100) works besides the listed photos-1 and photos-3.

      Examples:
        rulekit presets
        rulekit presets firefox-url-text safari-page --format json
      """)

  @Argument(help: "Show only these presets.")
  var names: [String] = []

  @OptionGroup var outputOptions: ResultOutputOptions<RulesOutputFormat>

  var format: RulesOutputFormat { outputOptions.format }
  var consoleSettings: ConsoleSettings { outputOptions.consoleSettings }

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
      Console.json(["presets": try Console.jsonObject(presets)])
    case .text, .xcode:
      for preset in presets {
        Console.result("\(preset.name): \(preset.summary)")
        Console.result("  shares: \(preset.context.summary)")
        Console.result("  source: \(preset.source)")
      }
    }
  }
}
