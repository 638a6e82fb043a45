import PredicateSyntax
import UniformTypes

/// Where IntuneMAMConfigurator's form of a dictionary rule (``DictionaryConversionStyle/intune``) accepts
/// other contexts than the dictionary itself, twins aside.
///
/// The dictionary's meaning is ``DictionaryModel``'s, the ``DictionaryConversionStyle/apple`` form. Microsoft's
/// shape reads each category in an item of its own and ignores strict matching, so, for instance, it
/// activates for a web page shared as a URL and its title (`[[public.url], [public.plain-text]]`, Firefox's
/// share) when the dictionary supports web URLs but not text, and a version 1 dictionary's "every attachment
/// is supported" is gone.
public struct DictionaryMeaningChange: Sendable, Hashable {
  /// The smallest context (fewest items, attachments, types) the Intune form accepts and the dictionary
  /// does not; nil when there is none.
  public var acceptedOnlyByIntuneForm: ExtensionContext?
  /// The smallest context the dictionary accepts and the Intune form does not; nil when there is none.
  public var acceptedOnlyByDictionary: ExtensionContext?
  /// ``ExactRuleAnalysis/Exactness/exact`` when every context was compared; bounded (the contexts of
  /// ``SemanticDiff/Bounds/init(maximumAttachments:maximumItems:)``'s default bounds) with the reason
  /// otherwise, in which case the witnesses are real but perhaps not the smallest.
  public var exactness: ExactRuleAnalysis.Exactness

  /// The differences in words, the Intune form as "it": `it activates for [[public.url], [public.plain-text]],
  /// which the dictionary does not`, and when bounded, within which contexts.
  public var summary: String {
    var differences: [String] = []
    if let context = acceptedOnlyByIntuneForm {
      differences.append("it activates for \(context.summary), which the dictionary does not")
    }
    if let context = acceptedOnlyByDictionary {
      differences.append("it does not activate for \(context.summary), which the dictionary does")
    }
    var text = differences.joined(separator: "; ")
    let attachments = [acceptedOnlyByIntuneForm, acceptedOnlyByDictionary].compactMap { $0 }
      .flatMap(\.extensionItems).flatMap(\.attachments)
    if attachments.contains(where: \.registeredTypeIdentifiers.isEmpty) {
      // The smallest witness of "an attachment the dictionary does not support" registers no type at all;
      // one of any type neither form tests answers every test alike.
      text += " ([] is an attachment of no type, or of any type neither form tests)"
    }
    switch exactness {
    case .exact: return text
    case .bounded(let reason):
      let bounds = SemanticDiff.Bounds()
      return text
        + " (compared within \(bounds.maximumAttachments) attachments in \(bounds.maximumItems) items: \(reason))"
    }
  }
}

extension DictionaryConverter {
  /// How the ``DictionaryConversionStyle/intune`` form of `dictionary` differs in meaning from the
  /// dictionary, twins aside: both forms are compared without twins, over every extension context where
  /// ``ExactRuleAnalysis`` decides them (every real dictionary rule so far), else within the default bounds.
  ///
  /// - Returns: nil when the two accept the same contexts (or, bounded, the same contexts within the bounds).
  public static func meaningChange(
    of dictionary: ActivationDictionary, registry: TypeRegistry = .system
  ) -> DictionaryMeaningChange? {
    let model = DictionaryModel(dictionary)
    let meaning = applePredicate(model)
    let intune = intunePredicate(model, twins: false)
    var change = DictionaryMeaningChange(exactness: .exact)
    do {
      let search = try ExactSearch(rules: [meaning, intune], registry: registry)
      change.acceptedOnlyByIntuneForm =
        search.classes(where: { !$0[0] && $0[1] }, keep: 1).cheapest.first?.context
      change.acceptedOnlyByDictionary =
        search.classes(where: { $0[0] && !$0[1] }, keep: 1).cheapest.first?.context
    } catch {
      change.exactness = .bounded(reason: error.reason)
      // The enumeration lists disagreements smallest first; the first of each direction is its smallest.
      guard
        let report = try? SemanticDiff.compare(
          meaning, intune, bounds: SemanticDiff.Bounds(), registry: registry, keep: .max)
      else { return nil }
      let disagreements = report.smallestDisagreements
      change.acceptedOnlyByIntuneForm = disagreements.first { $0.acceptedBySecond }?.context
      change.acceptedOnlyByDictionary = disagreements.first { $0.acceptedByFirst }?.context
    }
    return change.acceptedOnlyByIntuneForm == nil && change.acceptedOnlyByDictionary == nil ? nil : change
  }
}
