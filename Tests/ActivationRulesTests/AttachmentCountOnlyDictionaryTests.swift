import Foundation
import PredicateSyntax
import Testing

@testable import ActivationRules

/// Real rule 02 (Pocket Casts: only `…SupportsAttachmentsWithMaxCount = 1`) read the same way by every
/// command: lint's exact never-activates check, `explain` and `diff` (the apple conversion) and `convert`'s
/// default intune conversion all accept one extension item with one attachment of any type.
@Suite struct AttachmentCountOnlyDictionaryTests {
  static func dictionary() throws -> ActivationDictionary {
    try ActivationDictionary(plistData: Fixtures.data("02.plist"))
  }

  @Test(arguments: [["org.opml.opml"], ["public.jpeg", "public.data"], []] as [[String]])
  func bothConversionsAcceptOneAttachment(types: [String]) throws {
    let context = ExtensionContext(attachments: [types])
    for style in DictionaryConversionStyle.allCases {
      let predicate = DictionaryConverter.predicate(for: try Self.dictionary(), style: style)
      #expect(RuleEvaluator(predicate).accepts(context), "\(style)")
    }
  }

  @Test func exactAnalysisFindsTheSmallestAcceptedContext() throws {
    let apple = DictionaryConverter.predicate(for: try Self.dictionary(), style: .apple)
    let activation = try ExactRuleAnalysis.activation(apple)
    let accepted = try #require(activation.smallestAccepted)
    #expect(accepted.extensionItems.map(\.attachments.count) == [1])
    #expect(RuleEvaluator(apple).accepts(accepted))
    let rejected = try #require(activation.smallestRejected)
    #expect(!RuleEvaluator(apple).accepts(rejected))
    // Two attachments in one item exceed the maximum.
    #expect(
      !RuleEvaluator(apple).accepts(ExtensionContext(attachments: [["org.opml.opml"], ["org.opml.opml"]])))
  }
}
