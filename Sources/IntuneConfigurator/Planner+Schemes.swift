import PropertyLists
import UniformTypes
import XcodeProjects

extension Planner {
  // MARK: URL schemes

  mutating func planURLSchemes() {
    if let declared = info["CFBundleURLTypes"], declared.arrayValue == nil {
      // iOS ignores a CFBundleURLTypes of the wrong type, so the app has no schemes to twin: say so.
      finding(
        "url-types-not-array", .warning, at: ["CFBundleURLTypes"],
        "CFBundleURLTypes is <\(declared.elementName)>, not <array>; iOS ignores it, so no URL scheme gets "
          + "an Intune twin", fix: "make it an <array> of <dict>s, each with a CFBundleURLSchemes <array>")
      return
    }
    guard case .array(let types) = info["CFBundleURLTypes"] else { return }
    // Schemes and twins of every URL type: a scheme two types declare (an Expo head's and a share menu's)
    // gets its twin once, beside its first declaration.
    var present = Set(
      types.flatMap { type in
        (type.dictionaryValue?["CFBundleURLSchemes"]?.arrayValue ?? []).compactMap {
          $0.stringValue?.lowercased()
        }
      })
    var firstDeclared: [String: Int] = [:]
    for (typeIndex, type) in types.enumerated() {
      guard case .dictionary(let urlType) = type, case .array(let schemes) = urlType["CFBundleURLSchemes"]
      else { continue }
      let path: PropertyListPath = ["CFBundleURLTypes", .index(typeIndex), "CFBundleURLSchemes"]
      let strings = schemes.compactMap(\.stringValue)
      var edits: [PropertyListEdit] = []
      var added: [String] = []
      for (index, scheme) in strings.enumerated() where !IntuneSchemes.isTwin(scheme) {
        if let first = firstDeclared[scheme.lowercased()], first != typeIndex {
          finding(
            "url-scheme-declared-twice", .note, at: path.appending(.index(index)),
            "URL scheme \"\(scheme)\" is also declared in CFBundleURLTypes[\(first)]; its twin goes beside that one "
              + "only")
          continue
        }
        firstDeclared[scheme.lowercased()] = typeIndex
        var note = ""
        if let problem = URLSchemeValidator.problem(with: scheme), !expandsToValidSchemes(scheme) {
          switch preprocessorMacro(scheme) {
          case .expands(let expansions)?:
            // cpp replaces the name inside the twin too: `NAME-intunemam` becomes `value-intunemam`.
            note = " (the preprocessor macro \(scheme) is \(expansions.joined(separator: " or ")))"
          case .undefined(let configurations, let missingPrefixHeader)?:
            let header = missingPrefixHeader.map {
              "; the prefix header \($0) (INFOPLIST_PREFIX_HEADER) is not in the checkout, so a build step probably "
                + "writes it"
            }
            finding(
              "url-scheme-macro", .warning, at: path.appending(.index(index)),
              "URL scheme \"\(scheme)\" \(problem.message), unless it is a preprocessor macro: the target "
                + "preprocesses its Info.plist (INFOPLIST_PREPROCESS = YES), but neither "
                + "INFOPLIST_PREPROCESSOR_DEFINITIONS nor the prefix header defines \(scheme) in "
                + configurations.joined(separator: ", ") + (header ?? ""),
              fix:
                "if \(scheme) is a macro that expands to a URL scheme, add \"\(IntuneSchemes.twin(of: scheme))\" "
                + "beside it: the preprocessor replaces the name inside the twin too")
            continue
          case .invalid(let expansion, let configuration, let expansionProblem)?:
            finding(
              "url-scheme-invalid", .warning, at: path.appending(.index(index)),
              "URL scheme \"\(scheme)\" is the preprocessor macro \(scheme), which is \"\(expansion)\" in "
                + "\(configuration); that \(expansionProblem.message)")
            continue
          case nil:
            let id =
              if case .buildSetting = problem { "url-scheme-build-setting" } else { "url-scheme-invalid" }
            finding(
              id, .warning, at: path.appending(.index(index)), "URL scheme \"\(scheme)\" \(problem.message)")
            continue
          }
        }
        let twin = IntuneSchemes.twin(of: scheme)
        guard present.insert(twin.lowercased()).inserted else { continue }
        edits.append(.append(.string(twin), to: path))
        added.append(twin + note)
      }
      if !edits.isEmpty {
        changes.append(
          ConfiguratorChange(.urlSchemeTwin, at: path, "add " + added.joined(separator: ", "), edits: edits))
      }
    }
  }

  /// Whether `scheme` is a build-setting reference that every configuration of a project run expands to a
  /// valid scheme: then `$(SCHEME)-intunemam` is the twin in every configuration, as Xcode expands both.
  func expandsToValidSchemes(_ scheme: String) -> Bool {
    guard !options.buildConfigurations.isEmpty, URLSchemeValidator.buildSetting(in: scheme) != nil else {
      return false
    }
    return options.buildConfigurations.allSatisfy { build in
      let expanded = build.expand(scheme)
      return !expanded.isEmpty && URLSchemeValidator.problem(with: expanded) == nil
    }
  }

  /// What a URL scheme written as a C identifier becomes when Xcode preprocesses the Info.plist.
  enum MacroScheme: Equatable {
    /// Every configuration defines the macro as a valid scheme (each distinct expansion, in order).
    case expands([String])
    /// Some configurations define no such macro (`missingPrefixHeader`: a prefix header not in the
    /// checkout, which might).
    case undefined(configurations: [String], missingPrefixHeader: String?)
    /// The macro expands to something that is not a scheme in `configuration`.
    case invalid(expansion: String, configuration: String, problem: URLSchemeProblem)
  }

  /// What `scheme` becomes when it is a name the C preprocessor would replace: every configuration of a
  /// project run preprocesses the Info.plist (`INFOPLIST_PREPROCESS = YES`) and `scheme` is an identifier.
  /// Xcode preprocesses first and expands build settings after (swift-build's Info.plist task), so a
  /// macro's value may hold `$(…)` references. Nil when neither holds.
  func preprocessorMacro(_ scheme: String) -> MacroScheme? {
    let builds = options.buildConfigurations
    guard !builds.isEmpty, builds.allSatisfy({ $0.preprocessing != nil }), Self.isIdentifier(scheme) else {
      return nil
    }
    var expansions: [String] = []
    var undefined: [String] = []
    for build in builds {
      guard let macro = build.preprocessing?.expansion(ofMacro: scheme) else {
        undefined.append(build.configuration)
        continue
      }
      // cpp drops the blanks around a replacement.
      let trimmed = macro.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()
      let expansion = build.expand(String(trimmed))
      if let problem = URLSchemeValidator.problem(with: expansion) {
        return .invalid(expansion: expansion, configuration: build.configuration, problem: problem)
      }
      if !expansions.contains(expansion) { expansions.append(expansion) }
    }
    guard undefined.isEmpty else {
      return .undefined(
        configurations: undefined, missingPrefixHeader: builds.lazy.compactMap(\.missingPrefixHeader).first)
    }
    return .expands(expansions)
  }

  /// Whether `text` is a C identifier: a letter or `_`, then letters, digits and `_`.
  static func isIdentifier(_ text: String) -> Bool {
    guard let first = text.unicodeScalars.first,
      first == "_" || (first.isASCII && first.properties.isAlphabetic)
    else { return false }
    return text.unicodeScalars.allSatisfy {
      $0 == "_" || ($0.isASCII && $0.properties.isAlphabetic) || ("0"..."9").contains($0)
    }
  }

  // MARK: LSApplicationQueriesSchemes

  mutating func planQueriedSchemes() {
    let path: PropertyListPath = ["LSApplicationQueriesSchemes"]
    let existingValue = info["LSApplicationQueriesSchemes"]
    if let existingValue, existingValue.arrayValue == nil {
      finding(
        "queried-schemes-not-array", .error, at: path,
        "LSApplicationQueriesSchemes is not an array; left alone",
        fix: "make LSApplicationQueriesSchemes an <array> of scheme strings")
      return
    }
    let existing = existingValue?.arrayValue?.compactMap(\.stringValue) ?? []
    let plan = QueriedSchemesPlanner.plan(
      existing: existing, guide: options.guide, limit: .forIOSSDK(major: options.iosSDKMajor),
      knownManagedAppSchemes: options.knownManagedAppSchemes)
    if !plan.knownManagedSchemesWithoutTwin.isEmpty {
      let schemes = plan.knownManagedSchemesWithoutTwin
      finding(
        "queried-scheme-known-managed", .note, at: path,
        "no -intunemam twin for " + schemes.joined(separator: ", ")
          + " (--known-managed-scheme): canOpenURL may answer wrongly for \(schemes.count == 1 ? "it" : "them")",
        fix: "check \(schemes.count == 1 ? "this URL" : "these URLs") with "
          + "[IntuneMAMPolicy isURLAllowed:isKnownManagedAppScheme:YES] instead of canOpenURL")
    }
    for scheme in plan.unqueriedKnownManagedSchemes {
      finding(
        "known-managed-scheme-not-queried", .warning, at: path,
        "--known-managed-scheme \(scheme): the app does not query \(scheme) (it is not in "
          + "LSApplicationQueriesSchemes), so there is no twin to leave out",
        fix: "check the spelling, or drop the option")
    }
    for problem in plan.problems {
      let id =
        if case .buildSetting = problem.problem { "url-scheme-build-setting" } else { "url-scheme-invalid" }
      finding(
        id, .warning, at: path.appending(.index(problem.index)),
        "queried scheme \"\(problem.scheme)\" \(problem.problem.message)")
    }
    if !plan.additions.isEmpty {
      let schemes = plan.additions.map(\.scheme)
      let edits: [PropertyListEdit] =
        existingValue == nil
        ? [.set(path, .array(schemes.map(PropertyListValue.string)))]
        : schemes.map { .append(.string($0), to: path) }
      changes.append(
        ConfiguratorChange(
          .queriedScheme, at: path,
          "add \(schemes.count) scheme\(schemes.count == 1 ? "" : "s"): " + schemes.joined(separator: ", "),
          edits: edits))
    }
    if !plan.ignoredByIOS.isEmpty {
      reportQueriedSchemesOverLimit(plan, existingCount: existing.count, at: path)
    }
  }

  /// Names what iOS will ignore past the limit, by kind: the app's own entries, fixed Intune entries (which
  /// only a shorter list of the app's own can make room for), and twins (which the guide lets the app drop).
  mutating func reportQueriedSchemesOverLimit(
    _ plan: QueriedSchemesPlan, existingCount: Int, at path: PropertyListPath
  ) {
    var parts: [String] = []
    var fixes: [String] = []
    if !plan.ignoredExisting.isEmpty {
      parts.append(
        "\(plan.ignoredExisting.count) of the app's own (" + plan.ignoredExisting.joined(separator: ", ")
          + ")")
    }
    if !plan.ignoredRequired.isEmpty {
      parts.append(
        "\(plan.ignoredRequired.count) Intune entr\(plan.ignoredRequired.count == 1 ? "y" : "ies") the guide "
          + "requires (" + plan.ignoredRequired.joined(separator: ", ") + ")")
    }
    if !plan.ignoredExisting.isEmpty || !plan.ignoredRequired.isEmpty {
      fixes.append(QueriedSchemesPlan.makeRoomRemedy)
    }
    if !plan.ignoredTwins.isEmpty {
      parts.append(
        "\(plan.ignoredTwins.count) -intunemam twin\(plan.ignoredTwins.count == 1 ? "" : "s") of the app's "
          + "schemes (" + plan.ignoredTwins.joined(separator: ", ") + ")")
      fixes.append(QueriedSchemesPlan.overLimitRemedy)
    }
    finding(
      "queried-schemes-over-limit", .warning, at: path,
      "LSApplicationQueriesSchemes will have \(existingCount + plan.additions.count) entries; the "
        + "\(plan.limit.source) honours the first \(plan.limit.maximum), so canOpenURL ignores "
        + parts.joined(separator: "; "),
      fix: fixes.joined(separator: "; "))
  }
}
