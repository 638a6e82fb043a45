import ArgumentParser
import IntuneConfigurator
import PropertyLists
import XcodeProjects

/// `rulekit configure --project P --target APP`: the app and every extension it embeds, through the
/// project's build settings.
extension ConfigureRun {
  func executeProject(_ path: String, target named: String?) throws {
    let xcodeProject: XcodeProject
    do {
      xcodeProject = try XcodeProject(path: path)
    } catch {
      throw BuildSettingsCommand.fail(error)
    }
    let options = configuratorOptions
    let configurator = AppConfigurator(options: options)
    let plan: ProjectConfigurationPlan
    do {
      // Without --target, the project's only iOS app (the report names it).
      let target: String
      if let named {
        target = named
      } else {
        target = try configurator.iOSAppTarget(in: xcodeProject, sdk: sdk)
      }
      plan = try configurator.plan(project: xcodeProject, appTarget: target, sdk: sdk)
    } catch {
      throw Self.fail(error)
    }
    let blocked = plan.isBlocked
    var written: [String] = []
    if !dryRun && !blocked {
      do {
        written = try plan.write()
      } catch {
        throw RulesCLI.fail(InputDiagnostic(error, source: []), code: RulesCLI.Exit.ioError)
      }
    }
    let shown = written.map(Self.displayPath)
    do {
      switch format {
      case .json:
        Console.result(
          try ProjectConfigurationReport.json(plan, written: shown, displayPath: Self.displayPath))
      case .text:
        if diff {
          let text = try ProjectConfigurationReport.diff(plan, displayPath: Self.displayPath)
          if !text.isEmpty { Console.result(text, terminator: text.hasSuffix("\n") ? "" : "\n") }
        }
        let report = try ProjectConfigurationReport.text(plan, displayPath: Self.displayPath)
        if blocked {
          Console.diagnostic(report, records: [])
          Console.diagnostic("nothing written: fix the errors above and run again", records: [])
        } else {
          Console.info(report)
          if dryRun { Console.info("dry run: nothing written") }
          for path in shown { Console.info("wrote \(path)") }
        }
      }
    } catch {
      throw RulesCLI.fail(InputDiagnostic(error, source: []), code: RulesCLI.Exit.invalidInput)
    }
    if blocked { throw ExitCode(1) }
  }

  /// A ``ConfiguratorError`` of a project run, with the exit status its kind calls for.
  static func fail(_ error: ConfiguratorError) -> ExitCode {
    if let projectError = error.projectError { return BuildSettingsCommand.fail(projectError) }
    if let fileError = error.propertyListError {
      let code =
        fileError.kind == .fileNotFound
        ? RulesCLI.Exit.missingInput
        : fileError.kind == .io ? RulesCLI.Exit.ioError : RulesCLI.Exit.invalidInput
      return RulesCLI.fail(InputDiagnostic(fileError, source: []), code: code)
    }
    return RulesCLI.fail(diagnostic(error), code: RulesCLI.Exit.invalidInput)
  }
}
