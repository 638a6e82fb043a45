/// The value type the guide gives for an `IntuneMAMSettings` key.
enum IntuneSettingType: Sendable, Hashable {
  case string
  case boolean
  case number
  case stringArray
  /// `#XXXXXX` hexadecimal RGB; the guide says the `#` may be omitted.
  case color
  /// One of the listed strings.
  case oneOf([String])

  /// How the type is named in messages.
  var displayName: String {
    switch self {
    case .string: return "a string"
    case .boolean: return "a Boolean (<true/> or <false/>)"
    case .number: return "a number"
    case .stringArray: return "an array of strings"
    case .color: return "a colour string of the form #RRGGBB"
    case .oneOf(let values): return "one of " + values.joined(separator: ", ")
    }
  }
}

/// One row of the guide's `IntuneMAMSettings` table.
struct IntuneSettingDefinition: Sendable, Hashable {
  var key: String
  var type: IntuneSettingType
  /// The first guide that lists the key.
  var since: IntuneGuideVersion
  /// The last guide that lists it, when a later one dropped it.
  var until: IntuneGuideVersion?

  init(
    _ key: String, _ type: IntuneSettingType, since: IntuneGuideVersion = .v2016,
    until: IntuneGuideVersion? = nil
  ) {
    self.key = key
    self.type = type
    self.since = since
    self.until = until
  }

  /// Whether `guide` lists the key.
  func isListed(in guide: IntuneGuideVersion) -> Bool {
    guide >= since && (until.map { guide <= $0 } ?? true)
  }
}

/// The `IntuneMAMSettings` table of the guide, every version (intune-guide-requirements §3.7.1).
enum IntuneMAMSettingsSchema {
  static let fileProtectionLevels = [
    "NSFileProtectionComplete", "NSFileProtectionCompleteUnlessOpen",
    "NSFileProtectionCompleteUntilFirstUserAuthentication", "NSFileProtectionNone",
  ]

  static let definitions: [IntuneSettingDefinition] = [
    .init("ADALClientId", .string),
    .init("ADALAuthority", .string, since: .v2017),
    .init("ADALRedirectUri", .string),
    .init("ADALRedirectScheme", .string),
    .init("ADALLogOverrideDisabled", .boolean),
    .init("ADALCacheKeychainGroupOverride", .string),
    .init("AppGroupIdentifiers", .stringArray),
    .init("ContainingAppBundleId", .string),
    .init("DebugSettingsEnabled", .boolean, until: .v2020),
    .init("MainNibFile", .string, until: .v2018),
    .init("MainNibFile~ipad", .string, until: .v2018),
    .init("MainStoryboardFile", .string, until: .v2018),
    .init("MainStoryboardFile~ipad", .string, until: .v2018),
    .init("AutoEnrollOnLaunch", .boolean, since: .v2017),
    .init("MAMPolicyRequired", .boolean),
    .init("MAMPolicyWarnAbsent", .boolean),
    .init("MultiIdentity", .boolean),
    .init("SafariViewControllerBlockedOverride", .boolean, since: .v2020),
    .init("SplashIconFile", .string),
    .init("SplashIconFile~ipad", .string),
    .init("SplashDuration", .number),
    .init("BackgroundColor", .color),
    .init("ForegroundColor", .color),
    .init("AccentColor", .color),
    .init("SecondaryBackgroundColor", .color, since: .v2020),
    .init("SecondaryForegroundColor", .color, since: .v2020),
    .init("SupportsDarkMode", .boolean, since: .v2020),
    .init("MAMTelemetryDisabled", .boolean),
    .init("MAMTelemetryUsePPE", .boolean),
    .init("MaxFileProtectionLevel", .oneOf(fileProtectionLevels), since: .v2018),
    .init("OpenInActionExtension", .boolean, since: .v2018),
    .init("WebViewHandledURLSchemes", .stringArray, since: .v2018),
    .init("DocumentBrowserFileCachePath", .string, since: .v2020),
    .init("VerboseLoggingEnabled", .boolean, since: .v2020),
    .init("FinishLaunchingAtStartup", .boolean, since: .v2023),
    .init("ValuesToScrubFromLogging", .stringArray, since: .v2023),
  ]

  private static let byKey: [String: IntuneSettingDefinition] = Dictionary(
    definitions.map { ($0.key, $0) }, uniquingKeysWith: { first, _ in first })

  /// The definition of `key`, in any guide version.
  static func definition(of key: String) -> IntuneSettingDefinition? { byKey[key] }

  /// Whether `text` is a colour the guide accepts: six hexadecimal digits, optionally after `#`.
  /// Lower-case digits are accepted: the guide does not forbid them and iOS colour parsers take them.
  static func isValidColor(_ text: String) -> Bool {
    let digits = text.hasPrefix("#") ? text.dropFirst() : Substring(text)
    return digits.count == 6 && digits.allSatisfy(\.isHexDigit)
  }
}
