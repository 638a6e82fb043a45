import ActivationRules
import Foundation
import Testing
import XcodeProjects

@testable import IntuneConfigurator

/// Rocket.Chat's React Native project has two apps, RocketChatRN and Rocket.Chat, that embed the same share
/// and notification extensions and build with one Info.plist; irccloud's two apps embed one share extension
/// (a blind trial). Each change was reported once per app, the two findings differing only in the
/// `configure --target` of their fix.
@Suite("lint --project: a change that configuring either of two apps makes is one finding")
struct ProjectLintSharedTargetsTests {
  @Test("one finding per change, its fix naming each app whose configure makes it")
  func rocketChat() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "rocket-chat-rn" })
    let project = try XcodeProject(path: try corpus.copy())
    let findings = try ProjectLinter().lint(project).findings.map(\.finding)
    let places = findings.map { "\($0.file):\($0.line):\($0.column) \($0.message)" }
    #expect(Set(places).count == places.count, "\(places)")
    let scheme = try #require(findings.first { $0.check == "url-scheme-twin" })
    #expect(
      scheme.fix?.hasSuffix("--target RocketChatRN (or --target Rocket.Chat) makes this change") == true,
      "\(scheme.fix ?? "")")
    // What differs between the apps stays apart: each extension names one containing app per finding.
    let containing = findings.filter { $0.check == "containing-app-bundle-id" }
    #expect(containing.count == 4, "\(containing.map(\.message))")
    #expect(containing.allSatisfy { $0.fix?.contains("(or") == false })
  }

  /// "run again with --fix-entitlements" is configure's option: `lint --fix-entitlements` is a usage error
  /// (a blind trial on AwgScale, octo-ios and HackerFeed ran it). The lint spells out the command.
  @Test("a fix naming configure's --fix-entitlements names the configure command in lint")
  func fixEntitlementsFix() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "limit" })
    let project = try XcodeProject(path: try corpus.copy())
    let keychain = try ProjectLinter().lint(project).findings.map(\.finding).filter {
      $0.check == "keychain-groups-missing"
    }
    #expect(!keychain.isEmpty)
    for finding in keychain {
      #expect(finding.fix?.hasPrefix("run rulekit configure --project ") == true, "\(finding.fix ?? "")")
      #expect(finding.fix?.contains(" --target Limit --fix-entitlements, or add them") == true)
    }
  }

  /// A blind trial's enterprise test app has a TRUEPREDICATE action rule: the rule check's RK001 error and
  /// the configurator's warning reported it twice, at two places.
  @Test("a TRUEPREDICATE rule is one finding, the rule check's error")
  func truePredicateOnce() throws {
    let corpus = try #require(CorpusProject.all.first { $0.name == "limit" })
    let path = try corpus.copy()
    let info = URL(fileURLWithPath: path).deletingLastPathComponent().appendingPathComponent(
      "ShareExtension/Info.plist")
    let text = try String(contentsOf: info, encoding: .utf8)
    let start = try #require(text.range(of: "<key>NSExtensionActivationRule</key>"))
    let end = try #require(text.range(of: "</dict>", range: start.upperBound..<text.endIndex))
    try
      (text[..<start.lowerBound]
      + "<key>NSExtensionActivationRule</key>\n\t\t\t<string>TRUEPREDICATE</string>"
      + text[end.upperBound...]).write(to: info, atomically: true, encoding: .utf8)
    let findings = try ProjectLinter().lint(try XcodeProject(path: path)).findings.map(\.finding)
    let about = findings.filter { $0.message.contains("TRUEPREDICATE") }
    #expect(about.map(\.id) == ["RK001"], "\(about.map(\.message))")
  }
}
