import Foundation
import PredicateSyntax
import Testing
import UniformTypes

@testable import ActivationRules

/// `DictionaryConverter.meaningChange(of:)`: where IntuneMAMConfigurator's shape of a dictionary rule accepts
/// other shares than the dictionary (the `apple` form), twins aside.
@Suite struct DictionaryMeaningChangeTests {
  /// Checks each witness against both forms with the evaluator: the Intune form as written, twins included.
  static func checkWitnesses(_ change: DictionaryMeaningChange, of dictionary: ActivationDictionary) {
    let meaning = RuleEvaluator(DictionaryConverter.predicate(for: dictionary, style: .apple))
    let intune = RuleEvaluator(DictionaryConverter.predicate(for: dictionary, style: .intune))
    if let context = change.acceptedOnlyByIntuneForm {
      #expect(intune.accepts(context) && !meaning.accepts(context), "\(context.summary)")
    }
    if let context = change.acceptedOnlyByDictionary {
      #expect(meaning.accepts(context) && !intune.accepts(context), "\(context.summary)")
    }
  }

  @Test("a web URL limit read per item: the dictionary accepts a second item with more, the Intune form not")
  func perItemLimit() throws {
    let dictionary = ActivationDictionary([.dictionaryVersion: 2, .webURLMaxCount: 1])
    let change = try #require(DictionaryConverter.meaningChange(of: dictionary))
    #expect(change.exactness == .exact)
    #expect(change.acceptedOnlyByIntuneForm == nil)
    #expect(change.acceptedOnlyByDictionary?.summary == "[[public.url]] | [[public.url], [public.url]]")
    #expect(
      change.summary.hasPrefix("it does not activate for [[public.url]] | [[public.url], [public.url]]"))
    Self.checkWitnesses(change, of: dictionary)
  }

  @Test("strict matching: the Intune form accepts an attachment of a type the dictionary does not support")
  func strictMatchingIgnored() throws {
    let dictionary = ActivationDictionary([.imageMaxCount: 3])
    let change = try #require(DictionaryConverter.meaningChange(of: dictionary))
    #expect(change.exactness == .exact)
    let widened = try #require(change.acceptedOnlyByIntuneForm)
    // One item: an image beside an attachment that is no image.
    #expect(widened.extensionItems.count == 1)
    #expect(widened.extensionItems.first?.attachments.count == 2)
    #expect(change.summary.contains("which the dictionary does not"))
    // The smallest attachment that is no image registers no type at all; the summary says what that stands for.
    let attachments = widened.extensionItems.first?.attachments ?? []
    #expect(attachments.contains { $0.registeredTypeIdentifiers.isEmpty })
    #expect(change.summary.hasSuffix("([] is an attachment of no type, or of any type neither form tests)"))
    Self.checkWitnesses(change, of: dictionary)
  }

  @Test(
    "text alone, fuzzy: both forms accept exactly the shares with a text attachment",
    arguments: [
      ActivationDictionary([.dictionaryVersion: 2, .text: 1]),
      ActivationDictionary([.dictionaryVersion: 2, .imageMaxCount: 0, .text: 1]),
    ])
  func sameMeaning(dictionary: ActivationDictionary) {
    #expect(DictionaryConverter.meaningChange(of: dictionary) == nil)
  }

  @Test(
    "every real dictionary rule: decided exactly, each witness a real difference",
    arguments: Fixtures.dictionaryFiles)
  func corpusDictionaries(name: String) throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data(name))
    guard let change = DictionaryConverter.meaningChange(of: dictionary) else { return }
    #expect(change.exactness == .exact)
    #expect(change.acceptedOnlyByIntuneForm != nil || change.acceptedOnlyByDictionary != nil)
    Self.checkWitnesses(change, of: dictionary)
  }

  /// Past the exact search's bounds (a maximum above `LevelStates.maximumCompared`), the enumeration within
  /// 3 attachments in 2 items answers, and the summary says so.
  @Test func boundedWhenTheSearchGivesUp() throws {
    let dictionary = ActivationDictionary([
      .dictionaryVersion: 2, .webURLMaxCount: 1, .imageMaxCount: LevelStates.maximumCompared + 1,
    ])
    let change = try #require(DictionaryConverter.meaningChange(of: dictionary))
    guard case .bounded(let reason) = change.exactness else {
      Issue.record("decided exactly under limits of 0")
      return
    }
    #expect(change.summary.hasSuffix("(compared within 3 attachments in 2 items: \(reason))"))
    #expect(change.acceptedOnlyByDictionary != nil)
    Self.checkWitnesses(change, of: dictionary)
  }

  /// What configure and convert write is unambiguous: RuleKit's printer parenthesises an AND inside an OR,
  /// so its own lint has no AND-inside-OR note (RK014) on any conversion, either layout, twins or not.
  @Test(arguments: Fixtures.dictionaryFiles)
  func printedConversionsReadTheSameUnderEitherPrecedence(name: String) throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data(name))
    for style in DictionaryConversionStyle.allCases {
      let tree = DictionaryConverter.predicate(for: dictionary, style: style)
      for tree in [tree, TwinInjector.injectedTree(tree)] {
        for text in [PredicatePrinter.pretty(tree), PredicatePrinter.canonical(tree)] {
          // The check behind RK014, on the printed text's own ranges.
          let offsets = RuleLinter.unparenthesizedConjunctions(in: try PredicateParser.parse(text))
          #expect(offsets.isEmpty, "\(name) \(style)")
        }
      }
    }
  }
}
