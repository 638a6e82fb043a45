import PropertyLists

/// What kind of bundle an audited Info.plist describes.
public enum AuditedBundleKind: String, Sendable, Hashable, Codable {
  /// The application (an Info.plist without `NSExtension`).
  case app
  /// `com.apple.share-services`.
  case share
  /// `com.apple.ui-services` or `com.apple.services` (an action extension, with or without UI).
  case action
  /// Any other extension point; ``AuditedBundle/extensionPointIdentifier`` names it.
  case otherExtension = "extension"

  init(_ target: ConfigurationTarget) {
    switch target {
    case .app: self = .app
    case .appExtension(let point):
      switch point {
      case "com.apple.share-services": self = .share
      case "com.apple.ui-services", "com.apple.services": self = .action
      default: self = .otherExtension
      }
    }
  }
}

/// Where an audited bundle's entitlements were read from.
public enum EntitlementsSource: String, Sendable, Hashable, Codable {
  /// The entitlements blob of the executable's code signature: what the app was signed with.
  case codeSignature = "code-signature"
  /// `embedded.mobileprovision`'s `Entitlements`: what the profile allows (keychain groups there are
  /// usually a `TEAMID.*` wildcard, so they are not checked).
  case provisioningProfile = "embedded.mobileprovision"
  /// Neither was found.
  case none
}

/// Something the audit found missing or wrong in one bundle.
public struct AuditProblem: Sendable, Hashable {
  /// A stable id: the configurator's change kind (`activation-rule`, `url-scheme-twin`) for something
  /// `rulekit configure` would add, else its finding id (`keychain-groups-missing`).
  public var id: String
  /// `error` for something required that is missing (what configure would add, or an error finding).
  public var severity: FindingSeverity
  /// The file inside the bundle: `Info.plist` or `entitlements`.
  public var file: ConfiguredFile
  /// The key path it is about.
  public var keyPath: PropertyListPath
  /// What is wrong, for people.
  public var message: String
  /// What to do.
  public var fix: String?
}

/// `IntuneMAMSettings` as the audit checked it.
public struct AuditedIntuneSettings: Sendable, Hashable {
  /// `ContainingAppBundleId` as written, for an extension.
  public var containingAppBundleID: String?
  /// Whether it equals the containing app's `CFBundleIdentifier`.
  public var containingAppBundleIDMatches: Bool?
  /// `AppGroupIdentifiers` as written.
  public var appGroupIdentifiers: [String]?
  /// The groups in ``appGroupIdentifiers`` the containing app's entitlements (for an extension) or the
  /// bundle's own entitlements (for the app) also hold; `nil` when the entitlements were not found.
  public var sharedAppGroups: [String]?
  /// `OpenInActionExtension`.
  public var openInActionExtension: Bool
}

/// `LSApplicationQueriesSchemes` as the audit checked it (an app only).
public struct AuditedQueriedSchemes: Sendable, Hashable {
  /// The entries as written.
  public var schemes: [String]
  /// The schemes the guide asks for that are missing: `-intunemam` twins and the fixed list.
  public var missing: [String]
  /// iOS's limit for the SDK the audit assumed.
  public var limit: Int
  /// Entries past the limit, which iOS ignores.
  public var ignoredByIOS: [String]
}

/// One app or extension of an audited build.
public struct AuditedBundle: Sendable, Hashable {
  /// The folder's name: `Notes.app`, `Share.appex`.
  public var name: String
  /// Its folder inside what was audited (`Payload/Notes.app/PlugIns/Share.appex`).
  public var path: String
  /// App, share, action or another extension point.
  public var kind: AuditedBundleKind
  /// `NSExtensionPointIdentifier`, for an extension.
  public var extensionPointIdentifier: String?
  /// `CFBundleIdentifier`.
  public var bundleIdentifier: String?
  /// The activation rule as a predicate, in the one-line canonical layout; a dictionary rule converted by
  /// the package's model of Apple's matching (``/ActivationRules/DictionaryConversionStyle/apple``).
  public var activationRule: String?
  /// Whether the rule is written as a dictionary (which can never accept Intune types).
  public var activationRuleIsDictionary: Bool
  /// The accepted types whose `com.microsoft.intune.mam.` twin the rule does not accept, as twins.
  public var missingTwins: [String]
  /// `IntuneMAMSettings`, when present.
  public var intuneSettings: AuditedIntuneSettings?
  /// `LSApplicationQueriesSchemes`, for the app.
  public var queriedSchemes: AuditedQueriedSchemes?
  /// `keychain-access-groups` from the code signature; `nil` when not read from there.
  public var keychainGroups: [String]?
  /// Where the entitlements came from.
  public var entitlementsSource: EntitlementsSource
  /// What is missing or wrong, in the configurator's order.
  public var problems: [AuditProblem]
  /// What the audit could not check and why (no entitlements found, a rule that does not parse).
  public var notes: [String]
}

/// What ``AppAuditor/audit(_:options:)`` found in a built app.
public struct AuditReport: Sendable, Hashable {
  /// The `.ipa`, `.app` or `.xcarchive` audited, as given.
  public var path: String
  /// Each app followed by its extensions.
  public var bundles: [AuditedBundle]

  /// Whether anything required is missing (`rulekit audit` exits 1).
  public var hasProblems: Bool {
    bundles.contains { bundle in bundle.problems.contains { $0.severity >= .warning } }
  }
}
