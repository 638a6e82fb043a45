import ArgumentParser
import OpenInIcons
import PNGImages

/// `rulekit open-in-icons`: the Open-In action extension's template icons from the app's icon, as
/// IntuneMAMConfigurator's `-generateOpenInIcons` makes them.
struct OpenInIconsCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "open-in-icons",
    abstract: "Make the Open-In action extension's template icons from the app's icon.",
    discussion: """
      Reads the largest icon of a built APP.app or .ipa (Info.plist CFBundleIcons and the PNGs beside it), of an \
      AppIcon.appiconset (its Contents.json; the single 1024 pt image of Xcode 14 and later works) or of an \
      icon PNG; Apple's CgBI PNGs in built apps are read too. Writes black template images whose alpha \
      carries the design, at 60 pt @2x/@3x and 76 pt @1x/@2x and 83.5 pt @2x, named for the extension's \
      CFBundleIconFiles, and prints the Info.plist entries that declare them. Nothing is written on an \
      error, and no file is replaced without --force. IntuneMAMConfigurator -generateOpenInIcons APP.app \
      -o DIR does the same.

      Examples:
        rulekit open-in-icons Examples/OpenInIcons/AppIcon.appiconset \\
          -o /tmp/open-in-icons --dry-run
        rulekit open-in-icons Tests/Fixtures/open-in-icons/Sample.app \\
          -o /tmp/open-in-icons --dry-run --format json
      """)

  @Argument(
    help: ArgumentHelp(
      "The app's icon: a built APP.app or .ipa, an AppIcon.appiconset (or the .xcassets holding it) or a PNG.",
      valueName: "input"))
  var input: String

  @Option(name: .shortAndLong, help: ArgumentHelp("The folder to write the icons into.", valueName: "dir"))
  var output: String

  @Flag(help: "Also write OpenInIcon.appiconset (the same images and a Contents.json) for an asset catalog.")
  var appiconset = false

  @Flag(help: "List what would be written; write nothing.")
  var dryRun = false

  @Flag(help: "Replace files that exist in the output folder.")
  var force = false

  @OptionGroup var outputOptions: OutputOptions<OutputFormat>

  var consoleSettings: ConsoleSettings { outputOptions.consoleSettings }

  func validate() throws {
    if output.isEmpty { throw ValidationError("-o needs a folder") }
  }

  func run() throws {
    try Self.generate(
      input: input, output: output, appIconSet: appiconset, dryRun: dryRun, force: force,
      json: outputOptions.format == .json)
  }

  /// Makes, writes (unless `dryRun`) and reports the icons; `IntuneMAMConfigurator -generateOpenInIcons`
  /// runs this too.
  static func generate(
    input: String, output: String, appIconSet: Bool, dryRun: Bool, force: Bool, json: Bool
  ) throws {
    let generator: OpenInIconGenerator
    do {
      generator = try OpenInIconGenerator(input: input, outputDirectory: output, appIconSet: appIconSet)
      if !dryRun { try generator.write(force: force) }
    } catch {
      throw fail(error)
    }
    if json {
      Console.json(document(generator, input: input, output: output, dryRun: dryRun))
      return
    }
    let source = generator.source
    Console.info(
      "source icon: \(source.path) (\(source.image.width) × \(source.image.height)"
        + (source.image.source?.isAppleCgBI == true ? ", Apple CgBI" : "") + "), shape from "
        + (generator.coverage.method == .alpha
          ? "its alpha"
          : "contrast with its background"
            + (generator.coverage.backgroundFollowsEdges ? " (a gradient, followed from its edges)" : "")
            + (generator.coverage.flatBackground.isEmpty
              ? "" : " (\(generator.coverage.flatBackground.count) flat colours along its edges)"))
    )
    for warning in generator.warnings { Console.info("warning: " + warning) }
    let verb = dryRun ? "would write" : "wrote"
    let lines = generator.files.map { file in
      "\(verb) \(file.path)" + (file.size.map { " (\($0.pixels) × \($0.pixels))" } ?? "")
        + (file.exists ? " (replacing the existing file)" : "")
    }
    Console.result(lines.joined(separator: "\n"))
    if dryRun { Console.info("dry run: nothing written") }
    Console.info(
      """
      Next: add the PNG files to the Open-In extension target (Copy Bundle Resources) and declare them at the \
      top level of its Info.plist:
      \(OpenInIconSet.infoPlistXML)
      """
        + (appIconSet
          ? "\nor add OpenInIcon.appiconset to the extension's asset catalog and set its build setting "
            + "ASSETCATALOG_COMPILER_APPICON_NAME = OpenInIcon." : ""))
  }

  static func document(
    _ generator: OpenInIconGenerator, input: String, output: String, dryRun: Bool
  ) -> [String: Any] {
    let source = generator.source
    var sourceRecord: [String: Any] = [
      "path": source.path, "kind": source.origin.rawValue, "width": source.image.width,
      "height": source.image.height, "appleCgBI": source.image.source?.isAppleCgBI ?? false,
      "candidates": source.candidates,
    ]
    sourceRecord["shapeFrom"] = generator.coverage.method.rawValue
    if let threshold = generator.coverage.threshold { sourceRecord["threshold"] = threshold }
    if let background = generator.coverage.background {
      sourceRecord["background"] = [Int(background.red), Int(background.green), Int(background.blue)]
      sourceRecord["backgroundFromEdges"] = generator.coverage.backgroundFollowsEdges
      if !generator.coverage.flatBackground.isEmpty {
        sourceRecord["flatBackground"] = generator.coverage.flatBackground.map {
          [Int($0.red), Int($0.green), Int($0.blue)]
        }
      }
    }
    sourceRecord["covered"] = (generator.coverage.coveredFraction * 1000).rounded() / 1000
    let files: [[String: Any]] = generator.files.map { file in
      var record: [String: Any] = ["path": file.path, "replaced": file.exists && !dryRun]
      if let size = file.size {
        record["pixels"] = size.pixels
        record["points"] = size.points
        record["scale"] = size.scale
        record["idiom"] = size.idiom.rawValue
      }
      return record
    }
    func icons(_ names: [String]) -> [String: Any] { ["CFBundlePrimaryIcon": ["CFBundleIconFiles": names]] }
    return [
      "input": input, "output": output, "dryRun": dryRun, "source": sourceRecord, "files": files,
      "warnings": generator.warnings,
      "infoPlist": [
        "CFBundleIcons": icons(OpenInIconSet.iPhoneIconFiles),
        "CFBundleIcons~ipad": icons(OpenInIconSet.iPadIconFiles),
      ],
    ]
  }

  /// Reports `error` with the contract's exit status: 66 missing input, 65 unreadable or iconless input,
  /// 2 an input kind rulekit does not read (a folder that is no app or icon set), 1 files in the way (nothing written), 74 I/O.
  static func fail(_ error: OpenInIconError) -> ExitCode {
    var diagnostic: InputDiagnostic
    if let png = error.png {
      diagnostic = InputDiagnostic(message: png.inFile(nil).description, file: png.file)
    } else {
      diagnostic = InputDiagnostic(message: error.message, file: error.path)
    }
    diagnostic.hint = error.hint
    let code: ExitCode
    switch error.kind {
    case .notFound: code = RulesCLI.Exit.missingInput
    case .invalidInput, .noIcon: code = RulesCLI.Exit.invalidInput
    case .unsupportedInput: code = RulesCLI.Exit.usage
    case .outputExists: code = RulesCLI.Exit.problemsFound
    case .io: code = RulesCLI.Exit.ioError
    }
    return RulesCLI.fail(diagnostic, code: code)
  }
}
