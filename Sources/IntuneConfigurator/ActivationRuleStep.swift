import ActivationRules
import PredicateSyntax
import PropertyLists
import UniformTypes

extension Planner {
  static let rulePath: PropertyListPath = [
    "NSExtension", "NSExtensionAttributes", "NSExtensionActivationRule",
  ]

  /// Makes an extension's activation rule accept Intune twins (guide §1.5–§1.6): a predicate gets the twins
  /// inserted as a minimal text edit; a dictionary is converted to the predicate IntuneMAMConfigurator emits
  /// (twins included), with a warning where that accepts other shares, or with
  /// `IntuneConfiguratorOptions.dictionaryRuleStyle` `.apple` to its own meaning with twins; an Open-In extension gets the single-file rule over the containing app's document
  /// types, twins only (§1.4 A).
  mutating func planActivationRule() throws(ConfiguratorError) {
    guard target.isExtension else { return }
    if settings["OpenInActionExtension"] == .bool(true) {
      planOpenInRule()
      return
    }
    guard let rule = PropertyListValue.dictionary(info).value(at: Self.rulePath) else { return }
    switch rule {
    case .string(let text):
      try planPredicateRule(text)
    case .dictionary(let entries):
      let dictionary = ActivationDictionary(propertyList: entries)
      let keepsMeaning = options.dictionaryRuleStyle == .apple
      let predicate =
        keepsMeaning
        ? TwinInjector.injectedTree(DictionaryConverter.predicate(for: dictionary, style: .apple))
        : DictionaryConverter.predicate(for: dictionary, style: .intune)
      if case .falsePredicate = predicate.kind {
        // No key the system reads (an empty <dict/>, Leitmotif's): the extension never activates, and
        // FALSEPREDICATE in its place would say the same while the change line claimed Intune types.
        let ignored = dictionary.undocumentedKeys.map { ActivationDictionary.escapedKey($0.name) }
        finding(
          "activation-rule-never-activates", .warning, at: Self.rulePath,
          "the dictionary rule has no key the system reads"
            + (ignored.isEmpty ? "" : " (" + ignored.joined(separator: ", ") + " is not one)")
            + ", so the extension never activates; left as it is",
          fix: "add the NSExtensionActivationSupports… keys of the types the extension handles, then run "
            + "configure again")
        return
      }
      if let first = dictionary.undocumentedKeys.first {
        // dokus lists its types under …SupportsFileWithTypeIdentifiers, which iOS does not read: a predicate
        // of what the system reads would accept any file and drop the list the user wrote. What the rule
        // should say is the user's call; nothing is rewritten until they make it.
        let names = dictionary.undocumentedKeys.map { ActivationDictionary.escapedKey($0.name) }
        let one = names.count == 1
        finding(
          "dictionary-rule-unread-keys", .warning, at: Self.rulePath.appending(.key(first.name)),
          "the dictionary rule holds \(names.joined(separator: ", ")), which the system does not read (it "
            + "reads the NSExtensionActivationSupports… keys only), so converting it to a predicate with "
            + "Intune types would drop \(one ? "that key" : "those keys") and what \(one ? "it says" : "they say")"
            + "; the rule is left as it is, without Intune types",
          fix:
            "remove \(one ? "the key" : "the keys") if the rule means what the system reads, or replace the "
            + "dictionary with a predicate that says what \(one ? "it" : "they") meant (rulekit convert --rule "
            + "on this Info.plist prints the dictionary as a predicate to start from), then run configure again"
        )
        return
      }
      if !keepsMeaning, let change = DictionaryConverter.meaningChange(of: dictionary) {
        reportMeaningChange(change)
      }
      let text = PredicatePrinter.pretty(predicate)
      changes.append(
        ConfiguratorChange(
          .activationRule, at: Self.rulePath,
          "convert the dictionary rule to a predicate that "
            + (keepsMeaning ? "keeps its meaning and " : "") + "also accepts Intune types",
          edits: [.set(Self.rulePath, .string(text))]))
    default:
      finding(
        "activation-rule-type", .error, at: Self.rulePath,
        "NSExtensionActivationRule is <\(rule.elementName)>; it must be a predicate <string> or a <dict>")
    }
  }

  /// Says where the form IntuneMAMConfigurator gives a dictionary rule, which `configure` writes, accepts
  /// other contexts than the dictionary (twins aside), with the smallest context each way.
  private mutating func reportMeaningChange(_ change: DictionaryMeaningChange) {
    // The fix reads the same in a dry run, a real one and a lint: it cannot know whether the predicate has
    // been written yet, so it says what to do in either case.
    finding(
      "dictionary-rule-meaning-changed", .warning, at: Self.rulePath,
      "the predicate IntuneMAMConfigurator makes of this dictionary rule, which configure writes, does not "
        + "accept the same shares as the dictionary (as RuleKit models Apple's matching), twins aside: "
        + change.summary + " (a share is written as its extension items, separated by |, each a list of "
        + "attachments, each attachment the list of its types)",
      fix: "to keep the dictionary's meaning, configure with --dictionary-style apple instead; if configure "
        + "has already replaced the dictionary with this predicate, put the dictionary back first (the style "
        + "applies to dictionary rules only)")
  }

  private mutating func planPredicateRule(_ text: String) throws(ConfiguratorError) {
    let tree: PredicateNode
    do {
      tree = try PredicateParser.parse(text)
    } catch {
      throw ruleSyntaxError(error)
    }
    if case .truePredicate = tree.kind {
      finding(
        "activation-rule-truepredicate", .warning, at: Self.rulePath,
        "the activation rule is TRUEPREDICATE: the App Store rejects extensions that activate for everything",
        fix: "write a rule naming the types the extension handles")
      return
    }
    let result: TwinInjector.Result
    do {
      result = try TwinInjector.inject(text: text, tree: tree) { try PredicateParser.parse($0) }
    } catch {
      throw ConfiguratorError(
        .activationRule, "cannot add Intune types to the rule: \(error)",
        location: ConfiguratorError.Location(file: infoFile.path ?? "Info.plist"), underlying: error)
    }
    guard result.text != text else { return }
    changes.append(
      ConfiguratorChange(
        .activationRule, at: Self.rulePath, "accept " + result.addedTwins.joined(separator: ", "),
        edits: [.set(Self.rulePath, .string(result.text))]))
  }

  private mutating func planOpenInRule() {
    guard let app = options.containingApp?.infoPlist?.value.dictionaryValue else {
      finding(
        "open-in-app-unknown", .error, at: Self.rulePath,
        "an Open-In extension's rule lists the containing app's document types, and the containing app is unknown",
        fix: "pass --containing-app-plist App/Info.plist")
      return
    }
    var contentTypes: [String] = []
    var unexpanded = false
    for (typeIndex, documentType) in (app["CFBundleDocumentTypes"]?.arrayValue ?? []).enumerated() {
      let identifiers = documentType.dictionaryValue?["LSItemContentTypes"]?.arrayValue ?? []
      for (index, identifier) in identifiers.enumerated() {
        guard let identifier = identifier.stringValue else { continue }
        contentTypes.append(identifier)
        // Xcode expands the extension's Info.plist with the extension's settings: a type such as
        // $(PRODUCT_BUNDLE_IDENTIFIER).note copied into its rule would name another type there.
        guard let setting = URLSchemeValidator.buildSetting(in: identifier) else { continue }
        unexpanded = true
        finding(
          "open-in-type-build-setting", .error, .containingApp,
          at: ["CFBundleDocumentTypes", .index(typeIndex), "LSItemContentTypes", .index(index)],
          "the document type \"\(identifier)\" uses the build setting \(setting); the Open-In rule cannot "
            + "copy it, because the extension's build would expand it with the extension's own settings",
          fix: "write the expanded type identifier in the app's LSItemContentTypes, then run again")
      }
    }
    guard !unexpanded else { return }
    guard let text = OpenInRuleGenerator.text(contentTypes: contentTypes),
      let wanted = OpenInRuleGenerator.predicate(contentTypes: contentTypes)
    else {
      finding(
        "open-in-no-document-types", .error, .containingApp, at: ["CFBundleDocumentTypes"],
        "the containing app declares no CFBundleDocumentTypes, so an Open-In extension can accept nothing",
        fix: "declare the document types the app opens (LSItemContentTypes)")
      return
    }
    if case .string(let current) = PropertyListValue.dictionary(info).value(at: Self.rulePath),
      let tree = try? PredicateParser.parse(current), tree == wanted
    {
      return
    }
    changes.append(
      ConfiguratorChange(
        .openInActivationRule, at: Self.rulePath,
        "set the Open-In rule: one file of "
          + OpenInRuleGenerator.twinTypes(contentTypes).joined(separator: ", "),
        edits: [.set(Self.rulePath, .string(text))]))
  }

  /// A syntax error in the rule, at its position in the Info.plist when the file is XML (otherwise the
  /// message gives the position in the predicate).
  private func ruleSyntaxError(_ error: PredicateSyntaxError) -> ConfiguratorError {
    let file = infoFile.path ?? "Info.plist"
    if let document = infoFile.document, let node = document.node(at: Self.rulePath),
      let position = document.sourcePosition(
        ofStringNode: node, decodedUTF8Offset: error.diagnostic.range.start.offset)
    {
      // The fix stays in the message, as every report has printed it.
      return ConfiguratorError(
        .activationRule,
        error.diagnostic.message + (error.diagnostic.fix.map { " (fix: \($0.title))" } ?? ""),
        location: ConfiguratorError.Location(file: file, line: position.line, column: position.column),
        underlying: error)
    }
    return ConfiguratorError(
      .activationRule,
      "NSExtensionActivationRule \(error.diagnostic.range.start): \(error.diagnostic.message)",
      location: ConfiguratorError.Location(file: file), underlying: error)
  }
}
