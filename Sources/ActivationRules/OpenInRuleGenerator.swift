import PredicateSyntax
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The activation rule of Intune's "Open in" action extension (Intune App SDK guide, spec
/// intune-guide-requirements.md §1.3 step 6 and §1.4 A): exactly one extension item with exactly one
/// attachment whose types conform to one of the app's document types — the Intune twins only, because the
/// stub extension exists for managed data.
public enum OpenInRuleGenerator {
  /// The app's document content types: every `LSItemContentTypes` entry of every `CFBundleDocumentTypes`
  /// element, in order, without repeats (case-insensitive).
  public static func documentContentTypes(infoPlist: [String: Any]) -> [String] {
    let documentTypes = infoPlist["CFBundleDocumentTypes"] as? [Any] ?? []
    var seen = Set<String>()
    var result: [String] = []
    for case let documentType as [String: Any] in documentTypes {
      for case let type as String in documentType["LSItemContentTypes"] as? [Any] ?? []
      where seen.insert(type.lowercased()).inserted {
        result.append(type)
      }
    }
    return result
  }

  /// The twins the rule accepts: each type's twin, repeats removed (a twin listed beside its base
  /// type appears once).
  public static func twinTypes(_ contentTypes: [String]) -> [String] {
    var seen = Set<String>()
    return contentTypes.map(IntuneTwin.twinIfNeeded).filter { seen.insert($0.lowercased()).inserted }
  }

  /// The rule as a tree, or `nil` when the app declares no document types (no rule can be right then).
  public static func predicate(contentTypes: [String]) -> PredicateNode? {
    let twins = twinTypes(contentTypes)
    guard !twins.isEmpty else { return nil }
    let single = RuleBuilder.compare(
      RuleBuilder.attachmentSubqueryCount(RuleBuilder.or(twins.map { RuleBuilder.conforms($0) })), .equalTo,
      RuleBuilder.integer(1))
    return RuleBuilder.compare(RuleBuilder.itemSubqueryCount(single), .equalTo, RuleBuilder.integer(1))
  }

  /// The rule as text, laid out exactly like the guide's example A (four-space indentation, the inner
  /// SUBQUERY closed on the last clause's line), or `nil` when the app declares no document types.
  public static func text(contentTypes: [String]) -> String? {
    let twins = twinTypes(contentTypes)
    guard !twins.isEmpty else { return nil }
    let clauses = twins.map { "        ANY $attachment.registeredTypeIdentifiers UTI-CONFORMS-TO \"\($0)\"" }
    return """
      SUBQUERY (
          extensionItems,
          $extensionItem,
          SUBQUERY (
              $extensionItem.attachments,
              $attachment,
      \(clauses.joined(separator: " ||\n"))).@count == 1
      ).@count == 1
      """
  }
}
