#if canImport(XCTest)
  // The XCTAssert prefix is XCTest's convention for assertions, so these names break the camel-case rule.
  import ActivationRules
  import XCTest

  /// Asserts that `rule` activates the extension when `preset`'s host shares its items; the failure
  /// message holds the explanation and the smallest context on which the rule does activate.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  public func XCTAssertActivates(
    _ rule: RuleUnderTest, for preset: HostPreset, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    fail(rule.check(activates: true, for: preset), message(), file: file, line: line)
  }

  /// Asserts that `rule` does not activate the extension when `preset`'s host shares its items.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  public func XCTAssertDoesNotActivate(
    _ rule: RuleUnderTest, for preset: HostPreset, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    fail(rule.check(activates: false, for: preset), message(), file: file, line: line)
  }

  /// Asserts that `rule` activates the extension for a custom `context`.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  public func XCTAssertActivates(
    _ rule: RuleUnderTest, on context: ExtensionContext, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    fail(rule.check(activates: true, on: context), message(), file: file, line: line)
  }

  /// Asserts that `rule` does not activate the extension for a custom `context`.
  // swift-format-ignore: AlwaysUseLowerCamelCase
  public func XCTAssertDoesNotActivate(
    _ rule: RuleUnderTest, on context: ExtensionContext, _ message: @autoclosure () -> String = "",
    file: StaticString = #filePath, line: UInt = #line
  ) {
    fail(rule.check(activates: false, on: context), message(), file: file, line: line)
  }

  /// Reports a failed result at the caller's file and line, the user's message first.
  private func fail(_ result: RuleExpectationResult, _ message: String, file: StaticString, line: UInt) {
    guard !result.passed else { return }
    XCTFail(message.isEmpty ? result.message : "\(message)\n\(result.message)", file: file, line: line)
  }
#endif
