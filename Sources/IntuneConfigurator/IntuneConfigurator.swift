import PropertyLists
import UniformTypes
import XcodeProjects

/// The app an extension is embedded in, as the configurator needs it: for `ContainingAppBundleId`, the
/// Open-In extension's document types and the checks that compare the two.
public struct ContainingApp: Sendable {
  /// What `IntuneMAMSettings › ContainingAppBundleId` should say: the app's bundle identifier, or — when an
  /// Xcode project is planned (``IntuneConfiguratorOptions/buildConfigurations``) — a build-setting
  /// reference such as `$(APP_BUNDLE_IDENTIFIER)` that Xcode expands, in the extension's build, to the
  /// app's identifier in every configuration. `nil`: the `CFBundleIdentifier` of ``infoPlist``.
  public var bundleIdentifier: String?
  /// The app's Info.plist, when known; findings about the app name its ``/PropertyLists/PropertyListFile/path``.
  public var infoPlist: PropertyListFile?
  /// The app's bundle identifier in each build configuration, by configuration name, as Xcode builds it;
  /// set with ``IntuneConfiguratorOptions/buildConfigurations`` to check references and existing values.
  public var bundleIdentifiersByConfiguration: [String: String]

  /// The containing app, by identifier, Info.plist, or both; with identifiers per configuration for a project.
  public init(
    bundleIdentifier: String? = nil, infoPlist: PropertyListFile? = nil,
    bundleIdentifiersByConfiguration: [String: String] = [:]
  ) {
    self.bundleIdentifier = bundleIdentifier
    self.infoPlist = infoPlist
    self.bundleIdentifiersByConfiguration = bundleIdentifiersByConfiguration
  }

  /// The identifier as written: ``bundleIdentifier``, else the Info.plist's `CFBundleIdentifier`.
  var writtenBundleIdentifier: String? {
    bundleIdentifier ?? infoPlist?.value.dictionaryValue?["CFBundleIdentifier"]?.stringValue
  }
}

/// How Xcode expands `$(…)` references in a target's Info.plist and entitlements when it builds one
/// configuration: the target's build settings, resolved.
public struct BuildConfigurationExpansion: Sendable {
  /// The configuration's name, e.g. `Debug`.
  public var configuration: String
  /// Expands every build-setting reference in a text as Xcode would in this configuration.
  public var expand: @Sendable (String) -> String

  /// The expansion `expand` of the configuration named `configuration`.
  public init(configuration: String, expand: @escaping @Sendable (String) -> String) {
    self.configuration = configuration
    self.expand = expand
  }
}

/// What a configurator run should do beyond reading its two files.
public struct IntuneConfiguratorOptions: Sendable {
  /// The guide edition whose requirements apply.
  public var guide: IntuneGuideVersion
  /// The major version of the iOS SDK the app links against; it sets the `LSApplicationQueriesSchemes` limit.
  public var iosSDKMajor: Int
  /// The containing app, for an extension.
  public var containingApp: ContainingApp?
  /// The target's build configurations when its files are planned as part of an Xcode project: checks
  /// compare what Xcode will build in each (a keychain group spelt with other settings counts as the bundle
  /// ID when it expands to it). Empty when the files are configured on their own.
  public var buildConfigurations: [BuildConfigurationExpansion]
  /// Info.plist keys the target's build settings supply (`INFOPLIST_KEY_…` under
  /// `GENERATE_INFOPLIST_FILE = YES`): Xcode merges them into the built Info.plist, so they count as present
  /// and are not added to the file again.
  public var generatedInfoPlistKeys: PropertyListDictionary
  /// What `IntuneMAMSettings › AppGroupIdentifiers` should hold, as written; `nil` for the entitlements
  /// file's `com.apple.security.application-groups`. A project run sets it when one Info.plist serves
  /// configurations whose entitlements name different groups: entries such as `$(INTUNE_APP_GROUP_ID)` that
  /// Xcode expands to each configuration's group.
  public var appGroupIdentifiers: [String]?
  /// Add missing keychain access groups to the entitlements file instead of only reporting them.
  public var fixEntitlements: Bool
  /// The text for a missing `NSFaceIDUsageDescription`.
  public var faceIDUsageDescription: String
  /// Queried schemes of apps known to integrate the Intune SDK: their `-intunemam` twins are not added to
  /// `LSApplicationQueriesSchemes`, the guide's way to make room in the list (§3.3). The app must then check
  /// those URLs with `[IntuneMAMPolicy isURLAllowed:isKnownManagedAppScheme:YES]`.
  public var knownManagedAppSchemes: [String]

  /// The message the configurator writes when the app has none; the guide asks only for "a default message".
  public static let defaultFaceIDUsageDescription =
    "Face ID can be used to unlock this app when your organization requires it."

  /// Options with the given values; ``appGroupIdentifiers`` starts as `nil` (the entitlements' groups).
  public init(
    guide: IntuneGuideVersion = .newest, iosSDKMajor: Int = 26, containingApp: ContainingApp? = nil,
    buildConfigurations: [BuildConfigurationExpansion] = [],
    generatedInfoPlistKeys: PropertyListDictionary = PropertyListDictionary(), fixEntitlements: Bool = false,
    faceIDUsageDescription: String = Self.defaultFaceIDUsageDescription, knownManagedAppSchemes: [String] = []
  ) {
    self.guide = guide
    self.iosSDKMajor = iosSDKMajor
    self.containingApp = containingApp
    self.buildConfigurations = buildConfigurations
    self.generatedInfoPlistKeys = generatedInfoPlistKeys
    self.appGroupIdentifiers = nil
    self.fixEntitlements = fixEntitlements
    self.faceIDUsageDescription = faceIDUsageDescription
    self.knownManagedAppSchemes = knownManagedAppSchemes
  }
}

/// Plans the Info.plist and entitlements changes the Intune App SDK guide asks for — the job of Microsoft's
/// IntuneMAMConfigurator — as named, previewable changes that only ever add: nothing the user wrote is
/// removed, reordered or rewritten, and a second run plans nothing.
public enum IntuneConfigurator {
  /// Plans the changes for `infoPlist`, reading `entitlements` for app groups and keychain groups.
  ///
  /// - Throws: ``ConfiguratorError`` when a file's top level is not a dictionary, or when the activation
  ///   rule cannot be read.
  public static func plan(
    infoPlist: PropertyListFile, entitlements: PropertyListFile?,
    options: IntuneConfiguratorOptions = IntuneConfiguratorOptions()
  ) throws(ConfiguratorError) -> ConfigurationPlan {
    guard case .dictionary(let info) = infoPlist.value else {
      throw ConfiguratorError.notADictionary(file: infoPlist.path ?? "Info.plist")
    }
    var entitlementValues = PropertyListDictionary()
    if let entitlements {
      guard case .dictionary(let dictionary) = entitlements.value else {
        throw ConfiguratorError.notADictionary(file: entitlements.path ?? "entitlements")
      }
      entitlementValues = dictionary
    }
    // Keys the build settings supply are part of the built Info.plist: checks see them, edits never touch
    // them (a key the file lacks is not edited in place).
    var built = info
    for entry in options.generatedInfoPlistKeys.entries where built[entry.key] == nil {
      built[entry.key] = entry.value
    }
    var planner = Planner(
      info: built, infoFile: infoPlist, entitlements: entitlementValues, entitlementsFile: entitlements,
      options: options)
    try planner.run()
    return ConfigurationPlan(
      changes: planner.changes, findings: planner.findings, infoPlist: infoPlist,
      entitlements: entitlements, target: planner.target,
      containingAppInfoPlistPath: options.containingApp?.infoPlist?.path)
  }
}

/// Why a plan could not be made.
public enum ConfiguratorError: Error, Sendable, Hashable, CustomStringConvertible {
  case notADictionary(file: String)
  /// The extension's activation rule could not be read or edited; carries a rendered message.
  case activationRule(String)
  /// The Xcode project could not be read, or a target or configuration is not in it.
  case project(XcodeProjectError)
  /// A file the project names could not be read.
  case file(PropertyListError)

  public var description: String {
    switch self {
    case .notADictionary(let file):
      return "\(file): the top level is not a dictionary; an Info.plist or entitlements file holds <dict>"
    case .activationRule(let message):
      return message
    case .project(let error):
      return error.description
    case .file(let error):
      return error.description
    }
  }
}

/// The state of one planning run.
struct Planner {
  let info: PropertyListDictionary
  let infoFile: PropertyListFile
  let entitlements: PropertyListDictionary
  let entitlementsFile: PropertyListFile?
  let options: IntuneConfiguratorOptions
  var changes: [ConfiguratorChange] = []
  var findings: [ConfiguratorFinding] = []

  init(
    info: PropertyListDictionary, infoFile: PropertyListFile, entitlements: PropertyListDictionary,
    entitlementsFile: PropertyListFile?, options: IntuneConfiguratorOptions
  ) {
    self.info = info
    self.infoFile = infoFile
    self.entitlements = entitlements
    self.entitlementsFile = entitlementsFile
    self.options = options
  }

  static let settingsKey: PropertyListPathComponent = "IntuneMAMSettings"

  var target: ConfigurationTarget {
    guard case .dictionary(let ext) = info["NSExtension"] else { return .app }
    return .appExtension(pointIdentifier: ext["NSExtensionPointIdentifier"]?.stringValue)
  }

  var settings: PropertyListDictionary {
    info["IntuneMAMSettings"]?.dictionaryValue ?? PropertyListDictionary()
  }

  var bundleIdentifier: String? { info["CFBundleIdentifier"]?.stringValue }

  func position(_ path: PropertyListPath, in file: ConfiguredFile = .infoPlist) -> PropertyLists
    .PropertyListPosition?
  {
    let document: PropertyListDocument? =
      switch file {
      case .infoPlist: infoFile.document
      case .entitlements: entitlementsFile?.document
      case .containingApp: options.containingApp?.infoPlist?.document
      }
    // A finding about a dictionary entry points at its key, where a reader looks for it.
    if case .key(let key) = path.components.last,
      let entry = document?.node(at: path.parent)?.entry(forKey: key)
    {
      return entry.keyPosition
    }
    return document?.node(at: path)?.position
  }

  mutating func finding(
    _ id: String, _ severity: FindingSeverity, _ file: ConfiguredFile = .infoPlist, at path: PropertyListPath,
    _ message: String, fix: String? = nil
  ) {
    findings.append(
      ConfiguratorFinding(
        id: id, severity, file, at: path, position: position(path, in: file), message, fix: fix))
  }

  mutating func run() throws(ConfiguratorError) {
    reportDuplicateKeys()
    planMainInterfaceMove()
    planURLSchemes()
    if !target.isExtension { planQueriedSchemes() }
    planDocumentTypes()
    planAppGroups()
    if target.isExtension { planContainingApp() }
    try planActivationRule()
    if !target.isExtension && options.guide.requiresFaceIDUsageDescription { planFaceID() }
    if entitlementsFile == nil {
      // IntuneMAMConfigurator's oldest form takes only the Info.plist: say what that leaves unchecked.
      findings.append(
        ConfiguratorFinding(
          id: "entitlements-not-given", .note, at: [],
          "no entitlements file was given, so IntuneMAMSettings.AppGroupIdentifiers (from the app groups) "
            + "and the keychain access groups are not checked",
          fix: "pass the target's entitlements file with -e (in Xcode: CODE_SIGN_ENTITLEMENTS)"))
    } else {
      planKeychainGroups()
    }
    validateSettings()
    checkAuthenticationSettings()
    checkOpenInExtension()
    checkGuideSpecificSettings()
  }

  /// A key repeated in one dictionary of the Info.plist: Xcode builds such a file (seen in real apps), and
  /// the built app holds the later value, because Xcode's Info.plist processing parses the file with
  /// Foundation's property-list reader, which keeps the last of repeated keys (`PropertyListsTests`
  /// checks `PropertyListSerialization` does; `PropertyLists` reads with `.keepLast` the same way). The
  /// configurator edits that later entry and says which one is used. Entitlements files are still refused
  /// with a duplicate key (the run never gets here): codesign and the device's entitlement parser have
  /// disagreed on such files before (the 2020 "Psychic Paper" bypass), so which value holds is not certain.
  mutating func reportDuplicateKeys() {
    for duplicate in infoFile.duplicateKeyWarnings {
      findings.append(
        ConfiguratorFinding(
          id: "duplicate-key", .warning, at: [], position: duplicate.duplicate,
          "\(duplicate.key) appears twice in one dictionary (first at line \(duplicate.first.line), column "
            + "\(duplicate.first.column)); Xcode builds the app with this later value and ignores the first",
          fix: "remove the entry you do not mean; the configurator reads and edits this later one"))
    }
  }

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
    for (typeIndex, type) in types.enumerated() {
      guard case .dictionary(let urlType) = type, case .array(let schemes) = urlType["CFBundleURLSchemes"]
      else { continue }
      let path: PropertyListPath = ["CFBundleURLTypes", .index(typeIndex), "CFBundleURLSchemes"]
      let strings = schemes.compactMap(\.stringValue)
      var present = Set(strings.map { $0.lowercased() })
      var edits: [PropertyListEdit] = []
      var added: [String] = []
      for (index, scheme) in strings.enumerated() where !IntuneSchemes.isTwin(scheme) {
        if let problem = URLSchemeValidator.problem(with: scheme) {
          let id =
            if case .buildSetting = problem { "url-scheme-build-setting" } else { "url-scheme-invalid" }
          finding(
            id, .warning, at: path.appending(.index(index)), "URL scheme \"\(scheme)\" \(problem.message)")
          continue
        }
        let twin = IntuneSchemes.twin(of: scheme)
        guard present.insert(twin.lowercased()).inserted else { continue }
        edits.append(.append(.string(twin), to: path))
        added.append(twin)
      }
      if !edits.isEmpty {
        changes.append(
          ConfiguratorChange(.urlSchemeTwin, at: path, "add " + added.joined(separator: ", "), edits: edits))
      }
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

  // MARK: Document types

  mutating func planDocumentTypes() {
    guard case .array(let documentTypes) = info["CFBundleDocumentTypes"] else { return }
    for (typeIndex, documentType) in documentTypes.enumerated() {
      guard case .dictionary(let dictionary) = documentType,
        case .array(let contentTypes) = dictionary["LSItemContentTypes"]
      else { continue }
      let path: PropertyListPath = ["CFBundleDocumentTypes", .index(typeIndex), "LSItemContentTypes"]
      let identifiers = contentTypes.compactMap(\.stringValue)
      var present = Set(identifiers.map { $0.lowercased() })
      var added: [String] = []
      for identifier in identifiers where !IntuneTwin.isTwin(identifier) {
        let twin = IntuneTwin.twin(of: identifier)
        if present.insert(twin.lowercased()).inserted { added.append(twin) }
      }
      if !added.isEmpty {
        changes.append(
          ConfiguratorChange(
            .documentTypeTwin, at: path, "add " + added.joined(separator: ", "),
            edits: added.map { .append(.string($0), to: path) }))
      }
    }
  }

  // MARK: IntuneMAMSettings

  mutating func planAppGroups() {
    let groupsKey = "com.apple.security.application-groups"
    if let declared = entitlements[groupsKey], declared.arrayValue == nil {
      finding(
        "app-groups-entitlement-not-array", .error, .entitlements, at: [.key(groupsKey)],
        "\(groupsKey) is <\(declared.elementName)>, not <array>; IntuneMAMSettings.AppGroupIdentifiers cannot "
          + "be derived from it", fix: "make it an <array> of <string> app group identifiers (group.…)")
      return
    }
    guard case .array(let groups) = entitlements[groupsKey] else { return }
    reportNonStrings(groups, at: [.key(groupsKey)], id: "app-groups-entitlement-not-string")
    let wanted = options.appGroupIdentifiers ?? groups.compactMap(\.stringValue)
    guard !wanted.isEmpty else { return }
    let path: PropertyListPath = [Self.settingsKey, "AppGroupIdentifiers"]
    let current = settings["AppGroupIdentifiers"]
    if let current, current.arrayValue == nil {
      finding(
        "app-groups-not-array", .error, at: path, "IntuneMAMSettings.AppGroupIdentifiers is not an array",
        fix: "make it an <array> of the app group identifiers from the entitlements")
      return
    }
    let existing = Set(current?.arrayValue?.compactMap(\.stringValue) ?? [])
    let missing = wanted.filter { !existing.contains($0) }
    guard !missing.isEmpty else { return }
    let edits: [PropertyListEdit] =
      current == nil
      ? [.set(path, .array(missing.map(PropertyListValue.string)))]
      : missing.map { .append(.string($0), to: path) }
    changes.append(
      ConfiguratorChange(
        .appGroupIdentifiers, at: path,
        "add app group\(missing.count == 1 ? "" : "s") " + missing.joined(separator: ", ")
          + " from com.apple.security.application-groups", edits: edits))
  }

  /// The containing app's bundle ID as written: from the options, else from the containing app's Info.plist.
  /// It may be an unexpanded build setting; ``containingAppBundleID`` is the usable one.
  var writtenContainingAppBundleID: String? { options.containingApp?.writtenBundleIdentifier }

  /// The containing app's identifier per configuration, when the files are planned from an Xcode project.
  var containingAppIdentifiers: [String: String] {
    options.buildConfigurations.isEmpty ? [:] : options.containingApp?.bundleIdentifiersByConfiguration ?? [:]
  }

  /// The configurations in which `text`, expanded as Xcode will in this target's build, is not the
  /// containing app's identifier (with what it expands to); empty when it is right in every configuration.
  func configurationsMisnamingContainingApp(_ text: String) -> [(configuration: String, expanded: String)] {
    options.buildConfigurations.compactMap { build in
      let expanded = build.expand(text)
      return expanded == containingAppIdentifiers[build.configuration] ? nil : (build.configuration, expanded)
    }
  }

  /// The containing app's bundle ID, or `nil` when it is unknown or a build-setting reference that does not
  /// name the app: `$(PRODUCT_BUNDLE_IDENTIFIER)` is expanded in each target's own build, so in the
  /// extension it would name the extension. A reference counts only when the files are planned from an
  /// Xcode project and it expands to the app's identifier in every configuration.
  var containingAppBundleID: String? {
    guard let written = writtenContainingAppBundleID else { return inferredContainingAppBundleID }
    if URLSchemeValidator.buildSetting(in: written) == nil { return written }
    guard !containingAppIdentifiers.isEmpty else { return nil }
    return configurationsMisnamingContainingApp(written).isEmpty ? written : nil
  }

  /// The containing app's identifier read off the extension's own, when nothing names the app: Apple
  /// requires an embedded extension's bundle identifier to be its app's identifier, a dot and a name of its
  /// own (Xcode refuses to embed one that is not: "Embedded binary's bundle identifier is not prefixed with
  /// the parent app's bundle identifier"), so `com.contoso.notes.share` is in `com.contoso.notes`. Only a
  /// literal identifier tells: `$(PRODUCT_BUNDLE_IDENTIFIER)` is resolved per build.
  var inferredContainingAppBundleID: String? {
    guard target.isExtension, options.buildConfigurations.isEmpty, let own = bundleIdentifier,
      URLSchemeValidator.buildSetting(in: own) == nil, let dot = own.lastIndex(of: "."),
      dot > own.startIndex
    else { return nil }
    return String(own[..<dot])
  }

  mutating func planContainingApp() {
    let path: PropertyListPath = [Self.settingsKey, "ContainingAppBundleId"]
    let known = containingAppBundleID
    if writtenContainingAppBundleID == nil, settings["ContainingAppBundleId"] == nil,
      let inferred = inferredContainingAppBundleID
    {
      finding(
        "containing-app-inferred", .warning, at: ["CFBundleIdentifier"],
        "the containing app is not named, so its bundle ID is taken to be \"\(inferred)\": an embedded "
          + "extension's identifier is its app's identifier followed by a dot and a name of its own",
        fix: "pass --containing-app BUNDLE_ID (or --project) if the app is not \(inferred)")
    }
    if let existing = settings["ContainingAppBundleId"] {
      if !containingAppIdentifiers.isEmpty, let text = existing.stringValue {
        // Planned from a project: what matters is what each configuration's build makes of the value.
        let wrong = configurationsMisnamingContainingApp(text)
        if !wrong.isEmpty {
          let detail = wrong.map {
            "\($0.expanded.isEmpty ? "nothing" : "\"\($0.expanded)\"") in \($0.configuration) (the app is "
              + "\"\(containingAppIdentifiers[$0.configuration] ?? "unknown")\")"
          }
          finding(
            "containing-app-mismatch", .warning, at: path,
            "ContainingAppBundleId is \"\(text)\", which Xcode expands to " + detail.joined(separator: ", "),
            fix: "set it to " + (known ?? "the containing app's bundle ID"))
        }
        return
      }
      if let text = existing.stringValue, Self.refersToOwnBundleID(text) {
        finding(
          "containing-app-id-build-setting", .warning, at: path,
          "ContainingAppBundleId is \"\(text)\", which Xcode expands in this extension's build to the "
            + "extension's own bundle ID, not the containing app's",
          fix: "set it to " + (known ?? "the containing app's bundle ID"))
      } else if let known, writtenContainingAppBundleID != nil, existing.stringValue != known {
        finding(
          "containing-app-mismatch", .warning, at: path,
          "ContainingAppBundleId is \"\(existing.stringValue ?? "not a string")\" but the containing app is "
            + "\"\(known)\"", fix: "set it to \(known)")
      }
      return
    }
    if let written = writtenContainingAppBundleID, known == nil {
      reportUnexpandedContainingAppID(written)
      return
    }
    guard let known else {
      finding(
        "containing-app-unknown", .error, at: path,
        "this extension needs IntuneMAMSettings.ContainingAppBundleId, and the containing app is unknown",
        fix: "pass --containing-app BUNDLE_ID or --containing-app-plist App/Info.plist")
      return
    }
    changes.append(
      ConfiguratorChange(
        .containingAppBundleID, at: path, "set to \(known)", edits: [.set(path, .string(known))]))
  }

  /// The containing app's bundle ID is a build-setting reference: copied into the extension it would be
  /// expanded in the extension's build (the same class of mistake as Intune SDK issue #579), so nothing is
  /// copied and the user is asked for the real ID.
  mutating func reportUnexpandedContainingAppID(_ written: String) {
    let setting = URLSchemeValidator.buildSetting(in: written) ?? written
    let fix = "pass --containing-app with the app's bundle ID (the value of \(setting) in the app target)"
    if options.containingApp?.bundleIdentifier != nil {
      finding(
        "containing-app-build-setting", .error, at: [Self.settingsKey, "ContainingAppBundleId"],
        "--containing-app is \"\(written)\", an unexpanded build setting; in the extension's build it "
          + "would not name the containing app", fix: fix)
    } else {
      finding(
        "containing-app-build-setting", .error, .containingApp, at: ["CFBundleIdentifier"],
        "the containing app's CFBundleIdentifier is \"\(written)\"; Xcode expands \(setting) in each "
          + "target's own build, so copied into the extension's ContainingAppBundleId it would name the "
          + "extension, not the app", fix: fix)
    }
  }

  /// Whether `value` uses `PRODUCT_BUNDLE_IDENTIFIER`, which in an extension's Info.plist is its own ID.
  static func refersToOwnBundleID(_ value: String) -> Bool {
    URLSchemeValidator.buildSettingNames(in: value).contains("PRODUCT_BUNDLE_IDENTIFIER")
  }

  // MARK: Face ID

  mutating func planFaceID() {
    let path: PropertyListPath = ["NSFaceIDUsageDescription"]
    guard info["NSFaceIDUsageDescription"] == nil else { return }
    changes.append(
      ConfiguratorChange(
        .faceIDUsageDescription, at: path, "add a default Face ID usage description",
        edits: [.set(path, .string(options.faceIDUsageDescription))]))
  }

  // MARK: Entitlements

  /// An error for each element of an entitlements array that is not a string: codesign refuses the file.
  mutating func reportNonStrings(_ elements: [PropertyListValue], at path: PropertyListPath, id: String) {
    for (index, element) in elements.enumerated() where element.stringValue == nil {
      finding(
        id, .error, .entitlements, at: path.appending(.index(index)),
        "\(path)[\(index)] is <\(element.elementName)>, not <string>", fix: "write it as a <string>")
    }
  }

  mutating func planKeychainGroups() {
    let path: PropertyListPath = ["keychain-access-groups"]
    let current = entitlements["keychain-access-groups"]
    if let current, current.arrayValue == nil {
      finding(
        "keychain-groups-not-array", .error, .entitlements, at: path, "keychain-access-groups is not an array"
      )
      return
    }
    reportNonStrings(current?.arrayValue ?? [], at: path, id: "keychain-group-not-string")
    let existing = current?.arrayValue?.compactMap(\.stringValue) ?? []
    let bundleID = bundleIdentifier ?? "$(PRODUCT_BUNDLE_IDENTIFIER)"
    let plan = KeychainGroupsPlanner.plan(existing: existing, bundleID: bundleID, guide: options.guide)
    if options.guide == .v2016 || options.guide == .v2018,
      !existing.map(KeychainGroupsPlanner.unprefixed).contains(KeychainGroupsPlanner.workplaceJoinGroup)
    {
      finding(
        "keychain-workplacejoin", .note, .entitlements, at: path,
        "if the app uses ADAL single sign-on, the \(options.guide.rawValue) guide also asks for the "
          + KeychainGroupsPlanner.workplaceJoinGroup + " keychain group",
        fix: "add $(AppIdentifierPrefix)\(KeychainGroupsPlanner.workplaceJoinGroup) to keychain-access-groups"
      )
    }
    let first = existing.first.map(KeychainGroupsPlanner.unprefixed)
    // An extension shares its app's keychain, so the app's bundle ID first is right for it too.
    var containingFirst = target.isExtension && first == containingAppBundleID
    var bundleIDFirst = !plan.bundleIDNotFirst
    if let first, !options.buildConfigurations.isEmpty {
      // Planned from a project: a group spelt with other settings is the bundle ID when every
      // configuration's build expands it to the same identifier.
      bundleIDFirst = options.buildConfigurations.allSatisfy { $0.expand(first) == $0.expand(bundleID) }
      containingFirst =
        target.isExtension && !containingAppIdentifiers.isEmpty
        && options.buildConfigurations.allSatisfy {
          $0.expand(first) == containingAppIdentifiers[$0.configuration]
        }
    }
    if !bundleIDFirst && !containingFirst {
      finding(
        "keychain-bundle-id-not-first", .warning, .entitlements, at: path,
        "the first keychain access group is not the app's bundle ID (\(bundleID)); the Intune guide asks for it "
          + "first", fix: "move $(AppIdentifierPrefix)\(bundleID) to the top of keychain-access-groups")
    }
    let missing = (plan.bundleGroupToPrepend.map { [$0] } ?? []) + plan.additions
    guard !missing.isEmpty else { return }
    guard options.fixEntitlements else {
      finding(
        "keychain-groups-missing", .warning, .entitlements, at: path,
        "keychain-access-groups lacks " + missing.joined(separator: ", "),
        fix: "run again with --fix-entitlements, or add them in Xcode's Keychain Sharing capability")
      return
    }
    let edits: [PropertyListEdit] =
      current == nil
      ? [.set(path, .array(missing.map(PropertyListValue.string)))]
      : missing.map { .append(.string($0), to: path) }
    changes.append(
      ConfiguratorChange(
        .keychainAccessGroup, .entitlements, at: path, "add " + missing.joined(separator: ", "), edits: edits)
    )
  }

  // MARK: Settings validation

  mutating func validateSettings() {
    guard let settingsValue = info["IntuneMAMSettings"] else { return }
    let base: PropertyListPath = [Self.settingsKey]
    guard case .dictionary(let settings) = settingsValue else {
      finding(
        "settings-not-dictionary", .error, at: base, "IntuneMAMSettings is not a dictionary",
        fix: "make IntuneMAMSettings a <dict>")
      return
    }
    for entry in settings.entries {
      let path = base.appending(.key(entry.key))
      guard let definition = IntuneMAMSettingsSchema.definition(of: entry.key) else {
        // Reported with its own remedy by checkGuideSpecificSettings.
        if entry.key == "UsePPE" { continue }
        finding(
          "settings-unknown-key", .warning, at: path,
          "IntuneMAMSettings.\(entry.key) is not a setting of any Intune guide; the SDK ignores it",
          fix: spellingFix(entry.key))
        continue
      }
      if !definition.isListed(in: options.guide) {
        finding(
          "settings-not-in-guide", .note, at: path,
          "IntuneMAMSettings.\(entry.key) is not listed in the \(options.guide.rawValue) guide")
      }
      if let problem = Self.typeProblem(entry.value, definition.type) {
        finding(
          "settings-wrong-type", .error, at: path,
          "IntuneMAMSettings.\(entry.key) \(problem); it must be \(definition.type.displayName)")
      }
    }
    if settings["MAMPolicyRequired"] == .bool(true) {
      finding(
        "settings-policy-required", .warning, at: base.appending("MAMPolicyRequired"),
        "MAMPolicyRequired is YES: apps with it cannot be submitted to the App Store",
        fix: "set MAMPolicyRequired to NO for App Store builds")
      if settings["AutoEnrollOnLaunch"] != .bool(true) {
        finding(
          "settings-auto-enroll", .warning, at: base.appending("MAMPolicyRequired"),
          "MAMPolicyRequired is YES but AutoEnrollOnLaunch is not; the guide asks for both",
          fix: "set AutoEnrollOnLaunch to YES")
      }
    }
    if settings["DebugSettingsEnabled"] == .bool(true) {
      finding(
        "settings-debug-enabled", .warning, at: base.appending("DebugSettingsEnabled"),
        "DebugSettingsEnabled is YES: apps must not ship with test policies enabled",
        fix: "remove DebugSettingsEnabled or set it to NO in release builds")
    }
  }

  /// What is wrong with `value` for a setting of `type`, or `nil`.
  static func typeProblem(_ value: PropertyListValue, _ type: IntuneSettingType) -> String? {
    switch (type, value) {
    case (.string, .string), (.boolean, .bool), (.number, .integer), (.number, .real):
      return nil
    case (.stringArray, .array(let elements)):
      return elements.allSatisfy { $0.stringValue != nil } ? nil : "holds an element that is not a string"
    case (.color, .string(let text)):
      if URLSchemeValidator.buildSetting(in: text) != nil { return nil }
      return IntuneMAMSettingsSchema.isValidColor(text) ? nil : "is \"\(text)\", not a colour like #1A2B3C"
    case (.oneOf(let allowed), .string(let text)):
      return allowed.contains(text) ? nil : "is \"\(text)\""
    case (.color, _), (.oneOf, _), (.string, _), (.boolean, _), (.number, _),
      (.stringArray, _):
      return "is <\(value.elementName)>"
    }
  }

  /// A "did you mean" for a misspelt setting (the 2016 guide itself misspells `AppGroupIdentitifiers`).
  func spellingFix(_ key: String) -> String? {
    let lowered = key.lowercased()
    let candidates = IntuneMAMSettingsSchema.definitions.map(\.key)
    if let same = candidates.first(where: { $0.lowercased() == lowered }) { return "rename it to \(same)" }
    let best = candidates.min {
      editDistance($0.lowercased(), lowered) < editDistance($1.lowercased(), lowered)
    }
    guard let best, editDistance(best.lowercased(), lowered) <= 3 else { return nil }
    return "did you mean \(best)?"
  }
}

/// Levenshtein distance, for spelling suggestions on short keys.
func editDistance(_ a: String, _ b: String) -> Int {
  let a = Array(a)
  let b = Array(b)
  guard !a.isEmpty else { return b.count }
  guard !b.isEmpty else { return a.count }
  var previous = Array(0...b.count)
  for i in 1...a.count {
    var current = [i] + Array(repeating: 0, count: b.count)
    for j in 1...b.count {
      current[j] = Swift.min(
        previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
    }
    previous = current
  }
  return previous[b.count]
}
