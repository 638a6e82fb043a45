#if canImport(Testing)
  import ActivationRules
  import Testing

  /// Expects `rule` to activate the extension when `preset`'s host shares its items; records an issue
  /// at the caller with the explanation otherwise.
  ///
  /// ```swift
  /// @Test func sharesWebPages() throws {
  ///   let share = try RuleUnderTest(contentsOf: "../../ShareExtension/Info.plist")
  ///   expectActivation(share, for: .safariPage)
  /// }
  /// ```
  @discardableResult
  public func expectActivation(
    _ rule: RuleUnderTest, for preset: HostPreset, sourceLocation: SourceLocation = #_sourceLocation
  ) -> RuleExpectationResult {
    record(rule.check(activates: true, for: preset), at: sourceLocation)
  }

  /// Expects `rule` not to activate the extension when `preset`'s host shares its items.
  @discardableResult
  public func expectNoActivation(
    _ rule: RuleUnderTest, for preset: HostPreset, sourceLocation: SourceLocation = #_sourceLocation
  ) -> RuleExpectationResult {
    record(rule.check(activates: false, for: preset), at: sourceLocation)
  }

  /// Expects `rule` to activate the extension for a custom `context`.
  ///
  /// - Parameters:
  ///   - rule: the rule under test.
  ///   - context: what the host shares.
  ///   - name: how a failure message refers to the context.
  ///   - sourceLocation: where a failure is recorded; leave the default (the caller's line).
  @discardableResult
  public func expectActivation(
    _ rule: RuleUnderTest, on context: ExtensionContext, named name: String = "the given context",
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> RuleExpectationResult {
    record(rule.check(activates: true, on: context, named: name), at: sourceLocation)
  }

  /// Expects `rule` not to activate the extension for a custom `context`.
  @discardableResult
  public func expectNoActivation(
    _ rule: RuleUnderTest, on context: ExtensionContext, named name: String = "the given context",
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> RuleExpectationResult {
    record(rule.check(activates: false, on: context, named: name), at: sourceLocation)
  }

  /// Records a failed result as an issue at `sourceLocation` (the caller's line, not this file's).
  private func record(_ result: RuleExpectationResult, at sourceLocation: SourceLocation)
    -> RuleExpectationResult
  {
    if !result.passed {
      Issue.record(Comment(rawValue: result.message), sourceLocation: sourceLocation)
    }
    return result
  }
#endif

#if canImport(Testing)
  /// Presets as `@Test(arguments:)` name them in test results: by their name, not their whole context.
  extension HostPreset: CustomTestStringConvertible {
    /// The preset's name, as the test's argument shows in results.
    public var testDescription: String { name }
  }
#endif
