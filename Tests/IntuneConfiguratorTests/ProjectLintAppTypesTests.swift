import ActivationRules
import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// Pocket Casts' share extension tests `unofficial.opml`, `public.opml` and `org.opml.opml`; the app's
/// Info.plist exports `unofficial.opml` (UTExportedTypeDeclarations). Installing the app registers that
/// type with the system, so the extension's rule knows it; the other two nothing declares.
@Suite("lint --project: an extension's rule knows the types its containing app declares")
struct ProjectLintAppTypesTests {
  @Test("a type the app exports is not unknown; the ones nothing declares still are")
  func pocketCasts() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "pocket-casts" })
    let project = try XcodeProject(path: try corpus.copy())
    let report = try ProjectLinter().lint(project, targets: ["podcasts"])
    let unknown = report.findings.filter { $0.finding.id == LintCheck.unknownType.rawValue }
    let messages = unknown.map(\.finding.message)
    #expect(!messages.contains { $0.hasPrefix("unofficial.opml ") }, "\(messages)")
    #expect(messages.contains { $0.hasPrefix("public.opml ") }, "\(messages)")
    #expect(messages.contains { $0.hasPrefix("org.opml.opml ") }, "\(messages)")
    #expect(unknown.allSatisfy { $0.target == "Share Extension" })
  }

  @Test("the extension linted alone (--target) still learns its app's types")
  func extensionAlone() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "pocket-casts" })
    let project = try XcodeProject(path: try corpus.copy())
    let report = try ProjectLinter().lint(project, targets: ["Share Extension"])
    let messages = report.findings.filter { $0.finding.id == LintCheck.unknownType.rawValue }
      .map(\.finding.message)
    #expect(!messages.contains { $0.hasPrefix("unofficial.opml ") }, "\(messages)")
    #expect(messages.count == 2, "\(messages)")
  }
}
