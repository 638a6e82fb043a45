/// The edition of Microsoft's "Intune App SDK for iOS developer guide" whose Info.plist requirements a run
/// follows. The guide changed what it asks for over the years (the fixed `LSApplicationQueriesSchemes`
/// list, the `ms-outlook-intunemam` condition, the settings table), so the configurator is explicit about it.
public enum IntuneGuideVersion: String, Sendable, CaseIterable, Codable, Comparable {
  /// The 2016 guide.
  case v2016 = "2016"
  /// The 2017 guide.
  case v2017 = "2017"
  /// The 2018 guide, which added `NSFaceIDUsageDescription`.
  case v2018 = "2018"
  /// The 2020 guide.
  case v2020 = "2020"
  /// The current guide (2023 onwards); the default.
  case v2023 = "2023"

  /// The newest guide, used when a run does not name one.
  public static let newest: IntuneGuideVersion = .v2023

  /// Older editions first.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

  /// Schemes the guide tells every app to add to `LSApplicationQueriesSchemes`, in the guide's order,
  /// apart from `ms-outlook-intunemam`, whose condition differs by version (see `outlookSchemeCondition`).
  ///
  /// The 2018 and 2020 guides hand this step to the configurator without printing the list; they use the
  /// 2023 list, which is what the configurator of that era added (prior-art §2).
  var fixedQueriedSchemes: [String] {
    switch self {
    case .v2016, .v2017:
      return ["http-intunemam", "https-intunemam"]
    case .v2018, .v2020, .v2023:
      return [
        "http-intunemam", "https-intunemam", "microsoft-edge-http-intunemam",
        "microsoft-edge-https-intunemam", "smart-ns", "zips", "lacoonsecurity", "wandera",
        "lookoutwork-ase", "skycure", "betteractiveshield", "smsec", "mvisionmobile", "scmx",
        "intunemam-mtd",
      ]
    }
  }

  /// When `ms-outlook-intunemam` belongs in `LSApplicationQueriesSchemes`.
  var outlookSchemeCondition: OutlookSchemeCondition {
    self <= .v2017 ? .always : .whenAppUsesMailto
  }

  /// Whether the guide asks for `NSFaceIDUsageDescription` (2018 onwards).
  var requiresFaceIDUsageDescription: Bool { self >= .v2018 }

  /// Whether the guide moves the main storyboard or nib into `IntuneMAMSettings` (2016 and 2017 only).
  var movesMainInterface: Bool { self <= .v2017 }

  /// Whether the guide still lists `DebugSettingsEnabled` (it must never ship enabled); dropped in 2023.
  var listsDebugSettings: Bool { self <= .v2020 }
}

/// When the guide wants `ms-outlook-intunemam` queried.
enum OutlookSchemeCondition: String, Sendable, Codable {
  /// 2016 and 2017: unconditionally.
  case always
  /// 2018 onwards: only when the app itself queries or opens `mailto:`.
  case whenAppUsesMailto
}
