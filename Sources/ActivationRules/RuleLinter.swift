import PredicateEvaluation
import PredicateSyntax
import PropertyLists
import UniformTypes

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One problem the linter found.
public struct LintFinding: Sendable, Hashable, Codable {
  /// How bad a finding is.
  public enum Severity: String, Sendable, Hashable, Codable, Comparable {
    case note, warning, error

    /// Orders severities from least to most serious: note, warning, error.
    public static func < (lhs: Severity, rhs: Severity) -> Bool {
      let order: [Severity] = [.note, .warning, .error]
      return (order.firstIndex(of: lhs) ?? 0) < (order.firstIndex(of: rhs) ?? 0)
    }
  }

  /// The stable identifier, e.g. `RK001`; never reused for another check.
  public var id: String
  /// The check's name, e.g. `true-predicate`.
  public var check: String
  /// How bad it is.
  public var severity: Severity
  /// What is wrong, in one sentence.
  public var message: String
  /// The file it is in.
  public var file: String
  /// 1-based line and column in `file`.
  public var line: Int
  /// The 1-based column, in Unicode scalars.
  public var column: Int
  /// What to do about it, when there is a known fix.
  public var fix: String?

  /// A finding of `check` (stable code `id`) at `file:line:column`, with a fix when one is known.
  public init(
    id: String, check: String, severity: Severity, message: String, file: String, line: Int, column: Int,
    fix: String? = nil
  ) {
    self.id = id
    self.check = check
    self.severity = severity
    self.message = message
    self.file = file
    self.line = line
    self.column = column
    self.fix = fix
  }
}

/// The checks of `rulekit lint`, each with a stable id.
public enum LintCheck: String, Sendable, Hashable, CaseIterable, Codable {
  case syntaxError = "RK000"
  case truePredicate = "RK001"
  case neverActivates = "RK002"
  case alwaysActivates = "RK003"
  case unknownType = "RK004"
  case redundantClause = "RK005"
  case undocumentedKey = "RK006"
  case mistypedValue = "RK007"
  case strictMatchingOutsideRule = "RK008"
  case webPageWithoutPreprocessing = "RK009"
  case missingIntuneTwins = "RK010"
  case buildSettingVariable = "RK011"
  case notExhaustivelyChecked = "RK012"
  case duplicateKey = "RK013"
  case mixedAndOr = "RK014"
  case countAdmitsZero = "RK015"
  case activationKeyOutsideRule = "RK016"

  /// The check's name as printed beside its id.
  public var name: String {
    switch self {
    case .syntaxError: "syntax-error"
    case .truePredicate: "true-predicate"
    case .neverActivates: "never-activates"
    case .alwaysActivates: "always-activates"
    case .unknownType: "unknown-type"
    case .redundantClause: "redundant-clause"
    case .undocumentedKey: "undocumented-key"
    case .mistypedValue: "mistyped-value"
    case .strictMatchingOutsideRule: "strict-matching-outside-rule"
    case .webPageWithoutPreprocessing: "web-page-without-preprocessing"
    case .missingIntuneTwins: "missing-intune-twins"
    case .buildSettingVariable: "build-setting-variable"
    case .notExhaustivelyChecked: "not-exhaustively-checked"
    case .duplicateKey: "duplicate-key"
    case .mixedAndOr: "mixed-and-or"
    case .countAdmitsZero: "count-admits-zero"
    case .activationKeyOutsideRule: "activation-key-outside-rule"
    }
  }

  /// How bad a finding of this check is.
  public var severity: LintFinding.Severity {
    switch self {
    case .syntaxError, .truePredicate, .neverActivates: .error
    case .alwaysActivates, .unknownType, .undocumentedKey, .mistypedValue, .strictMatchingOutsideRule,
      .missingIntuneTwins, .notExhaustivelyChecked, .duplicateKey, .activationKeyOutsideRule:
      .warning
    // The extension is still offered for web pages and receives the page's URL, only no preprocessing
    // results: a choice many shipping apps make (docs/language.md, "RK009").
    // An upper bound alone on a SUBQUERY's count is sometimes meant (every attachment an image, and at most
    // 20): a note, like the precedence one.
    case .redundantClause, .buildSettingVariable, .webPageWithoutPreprocessing, .mixedAndOr, .countAdmitsZero:
      .note
    }
  }
}

/// Checks an activation rule for what gets apps rejected, rules that cannot work, and Intune gaps.
public struct RuleLinter: Sendable {
  /// Answers "is this type known" and conformance for redundancy.
  public var registry: TypeRegistry
  /// How far "never/always activates" enumerates a rule the exact analysis (``ExactRuleAnalysis``) cannot
  /// decide.
  public var bounds: SemanticDiff.Bounds
  /// How long "never/always activates" may search a rule exactly before falling back to `bounds`.
  public var effort: ExactRuleAnalysis.Effort

  /// A linter that looks types up in `registry`, decides "never/always activates" exactly with `effort`,
  /// and enumerates contexts within `bounds` where the exact analysis gives no answer.
  public init(
    registry: TypeRegistry = .system, bounds: SemanticDiff.Bounds = .init(),
    effort: ExactRuleAnalysis.Effort = .standard
  ) {
    self.registry = registry
    self.bounds = bounds
    self.effort = effort
  }

  /// Every finding for `file`, in file order. `parse` reads predicate text.
  public func lint(_ file: RuleFile, parse: (String) throws(ActivationRuleError) -> PredicateNode)
    -> [LintFinding]
  {
    var findings: [LintFinding] = []
    func add(_ check: LintCheck, _ message: String, at position: SourcePosition, fix: String? = nil) {
      findings.append(
        LintFinding(
          id: check.rawValue, check: check.name, severity: check.severity, message: message, file: file.path,
          line: position.line, column: position.column, fix: fix))
    }
    // The file is read as the device reads it (the last of two equal keys wins); a repeated key is
    // nearly always an edit gone wrong, and the value that loses is invisible otherwise.
    for duplicate in file.duplicateKeys {
      add(
        .duplicateKey,
        "the key \(ActivationDictionary.escapedKey(duplicate.key)) appears twice in one dictionary (first at "
          + "line \(duplicate.first.line), column \(duplicate.first.column)); the system uses this later value "
          + "and ignores the first",
        at: SourcePosition(
          line: duplicate.duplicate.line, column: duplicate.duplicate.column,
          offset: duplicate.duplicate.offset),
        fix: "remove one of the two entries")
    }
    let isPredicate: Bool
    if case .predicate = file.value { isPredicate = true } else { isPredicate = false }
    if file.facts.strictMatchingOutsideRule {
      // Strict matching is a setting of dictionary rules; after `convert` (Cordova's openwith template keeps
      // the key beside the rule) there is no dictionary to move it into.
      add(
        .strictMatchingOutsideRule,
        "NSExtensionActivationUsesStrictMatching is beside NSExtensionActivationRule, where the system ignores it",
        at: file.position(ofKey: "NSExtensionActivationUsesStrictMatching"),
        fix: isPredicate
          ? "the rule is a predicate, to which strict matching does not apply: remove the key"
          : "move the key into the NSExtensionActivationRule dictionary")
    }
    // Seen in shipping apps (Leitmotif, Rocket.Chat, Seafile, swift-paperless): keys written beside the
    // rule, which the system reads only inside it; an empty rule beside them then activates for nothing.
    for path in file.facts.activationKeysOutsideRule {
      guard case .key(let key)? = path.components.last else { continue }
      let place = path.components.count == 2 ? "in NSExtension" : "beside NSExtensionActivationRule"
      add(
        .activationKeyOutsideRule,
        "\(ActivationDictionary.escapedKey(key)) is \(place), where the system does not read it",
        at: file.position(ofEntry: path) ?? file.position(ofKey: key),
        fix: isPredicate
          ? "the rule is a predicate, which says this itself: express it there, or remove the key"
          : "move the key into the NSExtensionActivationRule dictionary")
    }
    let tree: PredicateNode
    switch file.value {
    case .dictionary(let dictionary):
      lintDictionary(dictionary, file: file, add: add)
      tree = DictionaryConverter.predicate(for: dictionary, style: .apple)
      if file.facts.hasIntuneMAMSettings {
        add(
          .missingIntuneTwins,
          "the plist uses Intune (IntuneMAMSettings) but a rule dictionary cannot accept Intune twin types",
          at: file.rulePosition, fix: "rulekit convert --style intune, then use the predicate as the rule")
      }
      lintActivation(tree, text: nil, file: file, add: add)
    case .predicate(let text):
      if let offset = Self.utf8Offset(ofASCIICaseInsensitive: "TRUEPREDICATE", in: text) {
        add(
          .truePredicate,
          "TRUEPREDICATE activates for everything; the App Store rejects extensions whose rule contains it",
          at: file.filePosition(ofPredicateOffset: offset),
          fix:
            "write a rule for the types the extension handles (rulekit convert makes one from a dictionary)")
      }
      if let range = text.utf8.firstRange(of: "$(".utf8) {
        let offset = text.utf8.distance(from: text.utf8.startIndex, to: range.lowerBound)
        add(
          .buildSettingVariable,
          "the rule uses a build setting ($(…)), which Xcode expands at build time; it cannot be checked here",
          at: file.filePosition(ofPredicateOffset: offset),
          fix: "lint the built product's Info.plist, where the setting is expanded")
        return findings
      }
      do {
        tree = try parse(text)
      } catch {
        add(
          .syntaxError, error.summary,
          at: file.filePosition(ofPredicateOffset: error.position?.offset ?? 0))
        return findings
      }
      lintTypes(tree, file: file, add: add)
      for offset in Self.unparenthesizedConjunctions(in: tree) {
        add(
          .mixedAndOr,
          "AND inside OR without parentheses: RuleKit, like C and SQL, reads `a OR b AND c` as "
            + "`a OR (b AND c)`, but Apple documents no precedence and other NSPredicate grammars read it "
            + "as `(a OR b) AND c`",
          at: file.filePosition(ofPredicateOffset: offset),
          fix: "put parentheses around the AND (or around the OR, if that is what the rule means)")
      }
      for bound in Self.countsAdmittingZero(in: tree) {
        add(
          .countAdmitsZero,
          "\(bound.written) also holds at 0, so it accepts \(bound.collection) (one holding only other "
            + "types, or nothing)",
          at: file.filePosition(ofPredicateOffset: bound.offset),
          fix:
            "if at least one is meant, write BETWEEN {1, \(bound.most)} (or add AND SUBQUERY(…).@count >= 1)")
      }
      if file.facts.hasIntuneMAMSettings {
        let missing = TwinInjector.missingTwins(tree)
        if !missing.isEmpty {
          add(
            .missingIntuneTwins,
            "the plist uses Intune (IntuneMAMSettings) but the rule lacks \(missing.count) twin type"
              + (missing.count == 1 ? "" : "s") + ": " + missing.joined(separator: ", "),
            at: file.rulePosition, fix: "rulekit inject --in-place")
        }
      }
      lintActivation(tree, text: text, file: file, add: add)
    }
    return findings.sorted { ($0.line, $0.column, $0.id) < ($1.line, $1.column, $1.id) }
  }

  private func lintDictionary(
    _ dictionary: ActivationDictionary, file: RuleFile,
    add: (LintCheck, String, SourcePosition, String?) -> Void
  ) {
    for key in dictionary.undocumentedKeys {
      let shown = ActivationDictionary.escapedKey(key.name)
      let message = "\(shown) is not a documented NSExtensionActivationRule key; the system ignores it"
      // A documented key with a line break or a space in its <key> (a shipping app's image limit): "did
      // you mean" the same-looking spelling would hide what to change.
      if let invisible = key.invisibleCharacters {
        let what = key.invisibleCharactersAreWhitespace ? "the whitespace" : "the invisible characters"
        add(
          .undocumentedKey, message + ": it is \(invisible.documented.rawValue) \(invisible.placement)",
          file.position(ofKey: key.name),
          "remove \(what) inside <key>, so that it reads \(invisible.documented.rawValue)")
        continue
      }
      add(
        .undocumentedKey, message, file.position(ofKey: key.name),
        key.likelyMeant.map { "did you mean \($0.rawValue)? Only that spelling is read" }
          ?? "use a predicate rule to express this")
    }
    for finding in dictionary.typingFindings {
      let expected = finding.key.isBoolean ? "a Boolean" : "an integer"
      let suggestion =
        finding.key.isBoolean
        ? ((finding.readAs ?? 0) != 0 ? "<true/>" : "<false/>") : "<integer>\(finding.readAs ?? 0)</integer>"
      let reading = finding.readAs.map { "read as \($0)" } ?? "ignored"
      add(
        .mistypedValue,
        "\(finding.key.rawValue) is written as \(finding.written.rawValue) but Apple documents \(expected) "
          + "(\(reading))",
        file.position(ofKey: finding.key.rawValue), finding.readAs == nil ? nil : "write \(suggestion)")
    }
    if (dictionary.count(.webPageMaxCount) ?? 0) > 0, file.form == .infoPlist,
      file.facts.javaScriptPreprocessingFile == nil
    {
      add(
        .webPageWithoutPreprocessing,
        "NSExtensionActivationSupportsWebPageWithMaxCount is set but NSExtensionJavaScriptPreprocessingFile is not,"
          + " so the extension receives the page's URL but no JavaScript preprocessing results",
        file.position(ofKey: ActivationDictionary.Key.webPageMaxCount.rawValue),
        "add NSExtensionJavaScriptPreprocessingFile, or use NSExtensionActivationSupportsWebURLWithMaxCount")
    }
  }

  private func lintTypes(
    _ tree: PredicateNode, file: RuleFile, add: (LintCheck, String, SourcePosition, String?) -> Void
  ) {
    // Types the plist itself declares are known too, beside those of the registry (which a project's lint
    // gives the containing app's declarations).
    let known = file.facts.typeDeclarations.map { registry.adding($0) } ?? registry
    let tests = RuleAnalysis.utiTests(tree)
    let testedTypes = Set(tests.compactMap { TwinInjector.utiLiteral($0.comparison)?.lowercased() })
    for test in tests {
      guard let type = TwinInjector.utiLiteral(test.comparison) else { continue }
      let twinBase = IntuneTwin.base(ofTwin: type)
      let base = twinBase ?? type
      // A twin is known when its base is; when the base is unknown and tested too, the note is on the base.
      if let twinBase, testedTypes.contains(twinBase.lowercased()) { continue }
      if !known.resolve(base).isKnown {
        add(
          .unknownType, "\(type) is neither a system type nor declared in this plist",
          file.filePosition(ofPredicateOffset: test.comparison.rhs.range.start.offset),
          known.closestDeclaredType(to: base).map {
            "did you mean \($0)? Or declare \(base) under UTImportedTypeDeclarations"
          }
            ?? "check the spelling, or declare it under UTImportedTypeDeclarations")
      }
    }
    // Only whole chains: the nested OR nodes inside a chain would report the same tests again.
    var insideChain = Set<SourceRange>()
    var syntactic: [(node: PredicateNode, message: String, fix: String)] = []
    RuleAnalysis.visit(tree) { node in
      guard case .or(let lhs, let rhs) = node.kind else { return }
      for operand in [lhs, rhs] {
        if case .or = operand.kind { insideChain.insert(operand.range) }
      }
      guard !insideChain.contains(node.range) else { return }
      syntactic += redundancies(in: node)
    }
    // Redundancy decided over every context when the engine can (a narrower type test keeps its syntactic
    // explanation); the syntactic check alone otherwise.
    if let clauses = try? ExactRedundancy.redundantClauses(in: tree, registry: registry) {
      let tested = Set(RuleAnalysis.mentionedTypes(tree).map { $0.lowercased() })
      for clause in clauses where !Self.isTwinOfTestedType(clause, tested: tested) {
        let explained = syntactic.first { $0.node.range == clause.range }
        add(
          .redundantClause,
          explained?.message
            ?? "this clause changes nothing: the rule accepts exactly the same contexts without it (decided exactly)",
          file.filePosition(ofPredicateOffset: clause.range.start.offset), explained?.fix ?? "remove it")
      }
      return
    }
    for finding in syntactic {
      add(
        .redundantClause, finding.message,
        file.filePosition(ofPredicateOffset: finding.node.range.start.offset),
        finding.fix)
    }
  }

  /// Whether `clause` tests the Intune twin of a type the rule tests too, as `inject` writes it. Such a test
  /// can be redundant as iOS matches (a twin conforms only to itself: irccloud's `$uti UTI-CONFORMS-TO
  /// "public.url" AND NOT ($uti UTI-CONFORMS-TO "public.file-url" || … twin)`, where no one type is both),
  /// yet `inject` adds it back, since under the mirrored policy the exclusion must exclude the twin too:
  /// "remove it" would have the two commands undo each other.
  /// `tested` holds the rule's types in lower case (type identifiers compare without case).
  static func isTwinOfTestedType(_ clause: PredicateNode, tested: Set<String>) -> Bool {
    guard case .comparison(let comparison) = clause.kind, let type = TwinInjector.utiLiteral(comparison),
      let base = IntuneTwin.base(ofTwin: type)
    else { return false }
    return tested.contains(base.lowercased())
  }

  /// In one `||` chain of ANY-tests on the same key path, a test whose type conforms to another test's
  /// type adds nothing (`public.image` beside `public.data`).
  /// The UTF-8 offsets of each AND (or `&&`) that is an operand of an OR without parentheses of its own,
  /// anywhere in `tree` (SUBQUERY predicates included). The parser widens a parenthesised node's range to
  /// its `(`, so a grouped AND starts before its left operand and an ungrouped one where it does (`(a) AND b`
  /// is ungrouped: the parentheses are its operand's).
  static func unparenthesizedConjunctions(in tree: PredicateNode) -> [Int] {
    var offsets: [Int] = []
    RuleAnalysis.visit(tree) { node in
      guard case .or(let lhs, let rhs) = node.kind else { return }
      for operand in [lhs, rhs] {
        guard case .and(let first, _) = operand.kind, operand.range != .synthesized,
          operand.range.start.offset == first.range.start.offset
        else { continue }
        offsets.append(operand.range.start.offset)
      }
    }
    return offsets
  }

  private func redundancies(in chain: PredicateNode) -> [(node: PredicateNode, message: String, fix: String)]
  {
    func leaves(_ node: PredicateNode) -> [PredicateNode] {
      if case .or(let lhs, let rhs) = node.kind { return leaves(lhs) + leaves(rhs) }
      return [node]
    }
    let tests: [(node: PredicateNode, comparison: Comparison, type: String)] = leaves(chain).compactMap {
      node in
      guard case .comparison(let comparison) = node.kind, comparison.op == .utiConformsTo,
        comparison.quantifier != .all, comparison.quantifier != Quantifier.none,
        let type = TwinInjector.utiLiteral(comparison)
      else { return nil }
      return (node, comparison, type)
    }
    return tests.compactMap { test in
      guard
        let wider = tests.first(where: {
          $0.comparison.lhs == test.comparison.lhs && $0.comparison.quantifier == test.comparison.quantifier
            && !registry.isEqual($0.type, test.type) && registry.conforms(test.type, to: $0.type)
        })
      else { return nil }
      return (
        test.node, "\(test.type) conforms to \(wider.type), which the same condition already accepts",
        "remove the \(test.type) test, or narrow \(wider.type)"
      )
    }
  }

  private func lintActivation(
    _ tree: PredicateNode, text: String?, file: RuleFile,
    add: (LintCheck, String, SourcePosition, String?) -> Void
  ) {
    let rulePosition = text == nil ? file.rulePosition : file.filePosition(ofPredicateOffset: 0)
    let missingQuantifier = text.flatMap { Self.missingQuantifier(in: tree, text: $0) }
    // A dictionary has no @count to check: say which keys let content in (a hold-out app set every key
    // to 0 or <false/>, real-rules-holdout/18.plist).
    let neverFix =
      text == nil
      ? "give a …WithMaxCount key a count above 0, or NSExtensionActivationSupportsText <true/>, for what the "
        + "extension accepts (a …WithMinCount above its …WithMaxCount allows nothing either)"
      : missingQuantifier?.fix ?? "check the counts (@count == … vs > …) and the types"
    let inexact: String
    // A rule inside the fragment whose search passed its time bound: more effort decides it.
    var exhaustiveFix: String?
    do {
      let activation = try ExactRuleAnalysis.activationAnswers(tree, registry: registry, effort: effort)
      if !activation.accepts {
        add(
          .neverActivates, "the rule accepts no extension context, of any size (decided exactly)",
          rulePosition, neverFix)
      } else if !activation.rejects, !tree.isTruePredicate {
        add(
          .alwaysActivates,
          "the rule accepts every extension context, even one with no attachment (decided exactly)",
          rulePosition, nil)
      }
      return
    } catch {
      inexact = error.reason
      if error.searchLimitReached {
        exhaustiveFix =
          "decide it exactly with rulekit lint --exhaustive (RuleLinter.effort .exhaustive); it can take a minute"
      }
    }
    // Contexts vary only the items, attachments and types: a rule reading anything else is never tried on
    // what would change its answer (an item with content text), and "accepts none" would be a claim about
    // the sample alone.
    let unvaried = RuleAnalysis.keysBeyondEnumeratedContexts(tree)
    if !unvaried.isEmpty {
      add(
        .notExhaustivelyChecked,
        "never/always-activates not checked: the rule reads " + unvaried.joined(separator: ", ")
          + ", which the enumerated contexts (items, attachments and their types) never set (not decided "
          + "exactly: \(inexact))", rulePosition,
        "keep the rule to counts and type tests over extensionItems, attachments and registeredTypeIdentifiers"
      )
      return
    }
    let types = RuleAnalysis.mentionedTypes(tree)
    let shapes = ContextEnumerator.shapes(mentioning: types)
    // A rule naming many types, or bounds with many items, make the enumeration explode: check fewer
    // attachments (and items), and say so.
    let reduction = ContextEnumerator(
      shapes: shapes, maximumAttachments: bounds.maximumAttachments, maximumItems: bounds.maximumItems
    ).reducedToLimits()
    // A subtype of each tested type, where the limits allow: a conformance test and an equality test on one
    // type part only there, and without it "accepts none" was said of a rule accepting a file URL.
    let enumerator = reduction.enumerator.addingSubtypes(of: types, in: registry)
    let requested = reduction.requested
    if !requested.isWithinLimits {
      let fewerItems = enumerator.maximumItems < bounds.maximumItems
      let scope =
        "\(requested.contexts) contexts of up to \(bounds.maximumAttachments) attachments"
        + (fewerItems ? " in up to \(bounds.maximumItems) items" : "")
        + " over \(shapes.count) attachment types"
      let excess =
        requested.contexts.exceeds(ContextEnumerator.maximumContexts)
        ? "exceed the limit of \(ContextEnumerator.maximumContexts) (ContextEnumerator.maximumContexts)"
        : "hold \(requested.objects) extension items and attachments, more than the limit of "
          + "\(ContextEnumerator.maximumObjects) (ContextEnumerator.maximumObjects)"
      add(
        .notExhaustivelyChecked,
        "never/always-activates not exhaustively checked: \(scope) \(excess); checked up to "
          + "\(enumerator.maximumAttachments) attachments"
          + (fewerItems ? " in up to \(enumerator.maximumItems) items" : "")
          + " (not decided exactly: \(inexact))",
        rulePosition,
        exhaustiveFix
          ?? (fewerItems
            ? "lint with fewer items (RuleLinter.bounds.maximumItems)"
            : "split the rule's type list, or check it with rulekit diff and smaller bounds"))
    } else {
      add(
        .notExhaustivelyChecked,
        "never/always-activates checked by enumeration only, up to \(enumerator.maximumAttachments) attachments "
          + "in up to \(enumerator.maximumItems) items: not decided exactly: \(inexact)", rulePosition,
        exhaustiveFix
          ?? "keep the rule to counts and type tests over extensionItems, attachments and registeredTypeIdentifiers"
      )
    }
    let contexts = enumerator.contexts()
    let evaluator = RuleEvaluator(tree, registry: registry)
    var accepted = 0
    var failures: [EvaluationError] = []
    for context in contexts {
      do {
        if try evaluator.evaluate(context) { accepted += 1 }
      } catch {
        failures.append(error)
      }
    }
    let scope =
      "\(contexts.count) contexts of up to \(enumerator.maximumAttachments) attachments in up to "
      + "\(enumerator.maximumItems) items"
    // A context RuleKit cannot evaluate (FUNCTION with a selector it does not call, say) is no evidence
    // that the rule refuses it.
    if let failure = failures.first {
      // A UTI operator on the whole list stops the evaluation (it needs a string); the cause is the missing ANY.
      let offset = failure.range.start.offset
      let causedByMissingQuantifier = missingQuantifier.map {
        $0.range.start.offset <= offset && offset < $0.range.end.offset
      }
      add(
        .notExhaustivelyChecked,
        "never/always-activates not checked: RuleKit cannot evaluate the rule on \(failures.count) of \(scope): "
          + failure.message, rulePosition,
        causedByMissingQuantifier == true
          ? missingQuantifier?.fix : "rulekit eval --rule FILE shows where the evaluation stops")
      return
    }
    if accepted == 0 {
      add(
        .neverActivates, "the rule accepts none of \(scope)", rulePosition, neverFix)
    } else if accepted == contexts.count, !tree.isTruePredicate {
      add(
        .alwaysActivates, "the rule accepts all of \(scope), even one with no attachment", rulePosition, nil)
    }
  }

  /// The fix for a rule that never activates because it compares an attachment's list of types as a
  /// whole (`$attachment.registeredTypeIdentifiers UTI-CONFORMS-TO "public.url"`, no `ANY`): a list is never
  /// a type, equal to a string or in a list of strings, so the comparison is always false and the generic
  /// "check the counts and the types" would not say where. Returns the comparison's range with the fix;
  /// `nil` when the rule has no such comparison.
  static func missingQuantifier(in tree: PredicateNode, text: String) -> (range: SourceRange, fix: String)? {
    var found: Comparison?
    RuleAnalysis.visit(tree) { node in
      guard found == nil, case .comparison(let comparison) = node.kind, comparison.quantifier == nil,
        case .keyPath(_, let components) = comparison.lhs.kind,
        components.last == .key("registeredTypeIdentifiers")
      else { return }
      // CONTAINS asks whether the list holds an element, and != is true of a list: both read a list right.
      switch comparison.op {
      case .utiConformsTo, .utiEquals, .equalTo, .beginsWith, .endsWith, .like, .matches, .in:
        found = comparison
      default: break
      }
    }
    guard let comparison = found, comparison.lhs.range != .synthesized, comparison.rhs.range != .synthesized
    else { return nil }
    let range = SourceRange(start: comparison.lhs.range.start, end: comparison.rhs.range.end)
    let written = RuleExplanation.snippet(Array(text.utf8), range)
    return (
      range,
      "the left side is a list of types (registeredTypeIdentifiers), which a comparison without ANY never "
        + "matches: write `ANY \(written)`"
    )
  }

  /// The UTF-8 offset of the first occurrence of the ASCII word `needle` in `text`, ignoring ASCII case.
  static func utf8Offset(ofASCIICaseInsensitive needle: String, in text: String) -> Int? {
    let bytes = Array(text.utf8)
    let pattern = Array(needle.uppercased().utf8)
    guard bytes.count >= pattern.count else { return nil }
    // Clearing bit 5 upper-cases an ASCII letter and can never turn another byte into one.
    return (0...(bytes.count - pattern.count)).first { start in
      pattern.indices.allSatisfy { bytes[start + $0] & 0xDF == pattern[$0] }
    }
  }
}

extension PredicateNode {
  var isTruePredicate: Bool {
    if case .truePredicate = kind { return true }
    return false
  }
}
