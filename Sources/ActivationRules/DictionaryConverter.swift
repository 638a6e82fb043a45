import PredicateSyntax
import UniformTypes

/// Converts the dictionary form of `NSExtensionActivationRule` to a predicate.
///
/// Both styles use the key → type table of ``DictionaryModel``.
public enum DictionaryConversionStyle: String, Sendable, Hashable, CaseIterable, Codable {
  /// The shape IntuneMAMConfigurator emits (spec real-rules.md Appendix B), twins included:
  ///
  /// - a category is `((clause(T)) || (clause(twin T)))`;
  /// - `clause(T)` is "some item has an attachment of type T"
  ///   (`SUBQUERY(extensionItems, …, SUBQUERY(…, ANY … UTI-CONFORMS-TO T).@count > 0).@count > 0`)
  ///   AND-ed, when the category has a limit N, with "no item has more than N"
  ///   (`SUBQUERY(…, SUBQUERY(…).@count > N).@count == 0`); web URLs test
  ///   `(ANY … public.url && NONE … public.file-url)`;
  /// - categories are OR-ed; the attachment min/max clauses
  ///   (`SUBQUERY(extensionItems, $extensionItem, $extensionItem.attachments.@count <= N).@count > 0`) are
  ///   AND-ed after them. How the configurator joins categories is not public: OR is ASSUMED.
  case intune
  /// This package's model of Apple's own matching (``DictionaryModel``), strict or fuzzy, without twins.
  /// The predicate accepts exactly the contexts ``DictionaryModel/accepts(_:conforms:)`` accepts.
  case apple
}

/// Dictionary → predicate conversion.
public enum DictionaryConverter {
  /// The predicate for `dictionary` in `style`.
  public static func predicate(for dictionary: ActivationDictionary, style: DictionaryConversionStyle)
    -> PredicateNode
  {
    let model = DictionaryModel(dictionary)
    switch style {
    case .intune: return intunePredicate(model)
    case .apple: return applePredicate(model)
    }
  }

  // MARK: intune

  /// IntuneMAMConfigurator's shape; `twins: false` leaves out the twins' clauses (what the shape means for the
  /// dictionary's own types, see ``meaningChange(of:registry:)``).
  static func intunePredicate(_ model: DictionaryModel, twins: Bool = true) -> PredicateNode {
    var clauses: [PredicateNode] = []
    if !model.categories.isEmpty {
      clauses.append(
        RuleBuilder.or(
          model.categories.map { category in
            let twin = DictionaryModel.Category(
              key: category.key, type: IntuneTwin.twinIfNeeded(category.type),
              excludedType: category.excludedType.map(IntuneTwin.twinIfNeeded), maximum: category.maximum)
            return twins
              ? RuleBuilder.or([intuneClause(category), intuneClause(twin)]) : intuneClause(category)
          }))
    }
    if let maximum = model.maximumAttachments {
      clauses.append(anyItemWithAttachmentCount(.lessThanOrEqualTo, maximum))
    }
    if let minimum = model.minimumAttachments {
      clauses.append(anyItemWithAttachmentCount(.greaterThanOrEqualTo, minimum))
    }
    // A dictionary that enables nothing supports nothing.
    return clauses.isEmpty ? PredicateNode(.falsePredicate) : RuleBuilder.and(clauses)
  }

  private static func attachmentTest(_ category: DictionaryModel.Category) -> PredicateNode {
    let supports = RuleBuilder.conforms(category.type)
    guard let excluded = category.excludedType else { return supports }
    return RuleBuilder.and([supports, RuleBuilder.conforms(excluded, quantifier: .none)])
  }

  private static func intuneClause(_ category: DictionaryModel.Category) -> PredicateNode {
    let test = attachmentTest(category)
    let present = RuleBuilder.compare(
      RuleBuilder.itemSubqueryCount(
        RuleBuilder.compare(RuleBuilder.attachmentSubqueryCount(test), .greaterThan, RuleBuilder.integer(0))),
      .greaterThan, RuleBuilder.integer(0))
    guard let maximum = category.maximum else { return present }
    let withinLimit = RuleBuilder.compare(
      RuleBuilder.itemSubqueryCount(
        RuleBuilder.compare(
          RuleBuilder.attachmentSubqueryCount(test), .greaterThan, RuleBuilder.integer(maximum))),
      .equalTo, RuleBuilder.integer(0))
    return RuleBuilder.and([present, withinLimit])
  }

  private static func anyItemWithAttachmentCount(_ op: ComparisonOperator, _ bound: Int) -> PredicateNode {
    RuleBuilder.compare(
      RuleBuilder.itemSubqueryCount(
        RuleBuilder.compare(RuleBuilder.attachmentCount, op, RuleBuilder.integer(bound))),
      .greaterThan, RuleBuilder.integer(0))
  }

  // MARK: apple

  static func applePredicate(_ model: DictionaryModel) -> PredicateNode {
    guard !model.categories.isEmpty || model.acceptsAnyAttachment else {
      return PredicateNode(.falsePredicate)
    }
    var bounds: [PredicateNode] = []
    if let maximum = model.maximumAttachments {
      bounds.append(
        RuleBuilder.compare(RuleBuilder.attachmentCount, .lessThanOrEqualTo, RuleBuilder.integer(maximum)))
    }
    if let minimum = model.minimumAttachments {
      bounds.append(
        RuleBuilder.compare(RuleBuilder.attachmentCount, .greaterThanOrEqualTo, RuleBuilder.integer(minimum)))
    }
    func matchCount(_ category: DictionaryModel.Category) -> ExpressionNode {
      RuleBuilder.attachmentSubqueryCount(attachmentTest(category))
    }
    let someAttachmentInItem = RuleBuilder.compare(
      RuleBuilder.attachmentCount, .greaterThan, RuleBuilder.integer(0))
    if model.acceptsAnyAttachment {
      // Every attachment matches: only the counts are tested (DictionaryModel, "limits only the count").
      guard model.isStrict else {
        return RuleBuilder.compare(
          RuleBuilder.itemSubqueryCount(RuleBuilder.and([someAttachmentInItem] + bounds)), .greaterThan,
          RuleBuilder.integer(0))
      }
      return RuleBuilder.and([
        RuleBuilder.compare(
          RuleBuilder.itemSubqueryCount(RuleBuilder.and(bounds)), .equalTo, RuleBuilder.extensionItemCount),
        RuleBuilder.compare(
          RuleBuilder.itemSubqueryCount(someAttachmentInItem), .greaterThan, RuleBuilder.integer(0)),
      ])
    }
    if model.isStrict {
      let everyAttachmentCovered = RuleBuilder.compare(
        RuleBuilder.attachmentSubqueryCount(RuleBuilder.or(model.categories.map(attachmentTest))),
        .equalTo, RuleBuilder.attachmentCount)
      let limits = model.categories.compactMap { category in
        category.maximum.map {
          RuleBuilder.compare(matchCount(category), .lessThanOrEqualTo, RuleBuilder.integer($0))
        }
      }
      let itemAccepted = RuleBuilder.and([everyAttachmentCovered] + limits + bounds)
      let everyItemAccepted = RuleBuilder.compare(
        RuleBuilder.itemSubqueryCount(itemAccepted), .equalTo, RuleBuilder.extensionItemCount)
      let someAttachment = RuleBuilder.compare(
        RuleBuilder.itemSubqueryCount(someAttachmentInItem), .greaterThan, RuleBuilder.integer(0))
      return RuleBuilder.and([everyItemAccepted, someAttachment])
    }
    let someCategory = RuleBuilder.or(
      model.categories.map { category in
        let present = RuleBuilder.compare(matchCount(category), .greaterThan, RuleBuilder.integer(0))
        guard let maximum = category.maximum else { return present }
        return RuleBuilder.and([
          present,
          RuleBuilder.compare(matchCount(category), .lessThanOrEqualTo, RuleBuilder.integer(maximum)),
        ])
      })
    return RuleBuilder.compare(
      RuleBuilder.itemSubqueryCount(RuleBuilder.and([someCategory] + bounds)), .greaterThan,
      RuleBuilder.integer(0))
  }
}
