import Testing

@testable import IntuneConfigurator

/// The audit reports planner findings about a built app, which has no `rulekit configure` options: fixes
/// naming those options are said for the project instead (`AppAuditor.auditFix(for:)` is internal: the
/// fixture app that would produce the containing-app findings through the public API has no project).
@Suite("Audit fixes are said for a built app")
struct AuditFixTests {
  @Test(
    "a fix naming configure's options points at the project and a rebuild; others pass through",
    arguments: [
      (
        "keychain-groups-missing",
        "run again with --fix-entitlements, or add them in Xcode's Keychain Sharing capability",
        "add them in Xcode's Keychain Sharing capability (or run `rulekit configure --fix-entitlements` on the "
          + "project), then rebuild"
      ),
      (
        "containing-app-unknown", "pass --containing-app BUNDLE_ID or --containing-app-plist App/Info.plist",
        "when running `rulekit configure` on the project: pass --containing-app BUNDLE_ID or "
          + "--containing-app-plist App/Info.plist; then rebuild"
      ),
      (
        "containing-app-inferred", "pass --containing-app BUNDLE_ID (or --project) if the app is not a.b",
        "when running `rulekit configure` on the project: pass --containing-app BUNDLE_ID (or --project) if "
          + "the app is not a.b; then rebuild"
      ),
      (
        "open-in-icons-missing", "run 'rulekit open-in-icons APP.app -o DIR'",
        "run 'rulekit open-in-icons APP.app -o DIR'"
      ),
    ])
  func fixIsForABuiltApp(id: String, fix: String, expected: String) {
    let finding = ConfiguratorFinding(id: id, .warning, at: [], "message", fix: fix)
    #expect(AppAuditor.auditFix(for: finding) == expected)
  }

  @Test("no fix stays no fix")
  func noFix() {
    #expect(
      AppAuditor.auditFix(for: ConfiguratorFinding(id: "containing-app-unknown", .error, at: [], "m")) == nil)
  }
}
