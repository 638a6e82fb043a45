import ActivationRules
import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// HackerFeed's share extension is a target dependency of its app but in no Embed App Extensions phase: the
/// lint of the whole project never named it, so its rule went unchecked, while `--target` linted the rule
/// and said no app embeds it (a blind trial).
@Suite("lint --project: an app extension no app embeds is linted too")
struct ProjectLintUnembeddedTests {
  @Test("its rule checks and the note that no app embeds it, without --target")
  func unembeddedExtension() throws {
    let path = try #require(CorpusProject.all.first { $0.name == "limit" }).copy()
    let pbxproj = URL(fileURLWithPath: path).appendingPathComponent("project.pbxproj")
    let text = try String(contentsOf: pbxproj, encoding: .utf8)
    let embedded =
      "\t\t\t\tF0056F882E5D79AA00732830 /* ShareExtension.appex in Embed Foundation Extensions */,\n"
    #expect(text.contains(embedded))
    try text.replacing(embedded, with: "").write(to: pbxproj, atomically: true, encoding: .utf8)
    let report = try ProjectLinter().lint(try XcodeProject(path: path))
    let share = try #require(report.targets.first { $0.name == "ShareExtension" })
    #expect(share.embeddedIn.isEmpty)
    let findings = report.findings.filter { $0.target == "ShareExtension" }
    #expect(findings.contains { $0.finding.check == "extension-not-embedded" })
    // The rule is checked: the extension's Info.plist is among the files linted.
    #expect(report.ruleFiles.contains { $0.hasSuffix("ShareExtension/Info.plist") }, "\(report.ruleFiles)")
  }
}
