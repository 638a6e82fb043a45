import Foundation
import Testing

@testable import ActivationRules

@Suite struct OpenInRuleGeneratorTests {
  /// The guide's example A (spec intune-guide-requirements.md §1.4 A, V2020), verbatim.
  static let ruleA = Fixtures.guideRule("A")

  nonisolated(unsafe) static let appInfoPlist: [String: Any] = [
    "CFBundleDocumentTypes": [
      ["CFBundleTypeName": "Text", "LSItemContentTypes": ["public.text"]],
      ["CFBundleTypeName": "Images", "LSItemContentTypes": ["public.image", "PUBLIC.TEXT"]],
    ]
  ]

  @Test func textAndImageYieldRuleA() {
    let types = OpenInRuleGenerator.documentContentTypes(infoPlist: Self.appInfoPlist)
    #expect(types == ["public.text", "public.image"])
    #expect(OpenInRuleGenerator.text(contentTypes: types) == Self.ruleA)
  }

  @Test func alreadyPrefixedTypesAreNotPrefixedAgain() {
    #expect(
      OpenInRuleGenerator.twinTypes(["com.microsoft.intune.mam.public.text", "public.text", "public.pdf"])
        == [
          "com.microsoft.intune.mam.public.text", "com.microsoft.intune.mam.public.pdf",
        ])
  }

  @Test func noDocumentTypesNoRule() {
    #expect(OpenInRuleGenerator.documentContentTypes(infoPlist: [:]).isEmpty)
    #expect(OpenInRuleGenerator.predicate(contentTypes: []) == nil)
    #expect(OpenInRuleGenerator.text(contentTypes: []) == nil)
  }

  @Test func treeHasTheSingleFileShape() throws {
    let tree = try #require(OpenInRuleGenerator.predicate(contentTypes: ["public.text"]))
    guard case .comparison(let outer) = tree.kind else {
      Issue.record("not a comparison: \(tree)")
      return
    }
    #expect(outer.op == .equalTo)
    #expect(outer.rhs == RuleBuilder.integer(1))
  }
}

@Suite struct SampleAppOpenInTests {
  /// The sample Open-In extension's rule is exactly what the generator made from the app's first three
  /// document types; the app has declared a voice memo type since, so `rulekit configure` has to generate
  /// the rule again (SampleAppConfigureTests).
  @Test func sampleOpenInRuleIsGeneratedAndStale() throws {
    let app = Fixtures.packageRoot.appendingPathComponent("Examples/SampleApp/App/Info.plist")
    let plist = try PropertyListSerialization.propertyList(from: Data(contentsOf: app), format: nil)
    let types = OpenInRuleGenerator.documentContentTypes(infoPlist: plist as? [String: Any] ?? [:])
    #expect(types == ["public.text", "public.image", "com.adobe.pdf", "public.audio"])
    let extensionPlist = Fixtures.packageRoot.appendingPathComponent(
      "Examples/SampleApp/OpenInExtension/Info.plist")
    let file = try RuleFile(path: "Info.plist", data: Data(contentsOf: extensionPlist))
    #expect(file.predicateText == OpenInRuleGenerator.text(contentTypes: Array(types.prefix(3))))
    #expect(file.predicateText != OpenInRuleGenerator.text(contentTypes: types))
  }
}
