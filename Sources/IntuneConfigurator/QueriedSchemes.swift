/// How many `LSApplicationQueriesSchemes` entries iOS honours; later entries are ignored by `canOpenURL`.
struct QueriedSchemeLimit: Sendable, Hashable, Codable {
  var maximum: Int
  /// Where the number comes from, for the warning text.
  var source: String

  init(maximum: Int, source: String) {
    self.maximum = maximum
    self.source = source
  }

  /// 50 entries for apps linked on iOS 15 through 26; 25 from the iOS 27 SDK on (Intune SDK issue #697).
  static func forIOSSDK(major: Int) -> QueriedSchemeLimit {
    major >= 27
      ? QueriedSchemeLimit(maximum: 25, source: "iOS \(major) SDK")
      : QueriedSchemeLimit(maximum: 50, source: "iOS 15–26 SDK")
  }
}

/// Why a scheme is added to `LSApplicationQueriesSchemes`.
enum QueriedSchemeReason: Sendable, Hashable, Codable {
  /// The `-intunemam` twin of an entry the app already queries.
  case twinOf(String)
  /// On the guide's fixed list.
  case fixedList(IntuneGuideVersion)
  /// `ms-outlook-intunemam`, because the app uses `mailto:` (or the guide asks for it unconditionally).
  case outlook(OutlookSchemeCondition)
}

/// One entry to append to `LSApplicationQueriesSchemes`.
struct QueriedSchemeAddition: Sendable, Hashable {
  var scheme: String
  var reason: QueriedSchemeReason

  /// Whether the guide lets the app drop this entry when the list runs out of room (§3.3): only the
  /// `-intunemam` twins of the app's own schemes, never the fixed Intune and mobile-threat-defense entries.
  var isDroppableTwin: Bool {
    if case .twinOf = reason { return true }
    return false
  }
}

/// An existing scheme entry that is not a valid scheme: reported and left alone.
struct SchemeFinding: Sendable, Hashable {
  /// Index in the array it was read from.
  var index: Int
  var scheme: String
  var problem: URLSchemeProblem
}

/// The outcome of planning `LSApplicationQueriesSchemes`.
struct QueriedSchemesPlan: Sendable, Hashable {
  /// Entries to append, in order, after everything the app already lists: the guide's fixed entries first,
  /// then the twins of the app's own schemes, so that past the limit iOS ignores twins before fixed
  /// entries. Never removals or reorderings.
  var additions: [QueriedSchemeAddition]
  /// Existing entries that are not valid schemes.
  var problems: [SchemeFinding]
  /// Entries beyond the platform limit once the additions are made: iOS will ignore them.
  var ignoredByIOS: [String]
  var limit: QueriedSchemeLimit
  /// The app's entries whose `-intunemam` twin is not added because they belong to apps known to integrate
  /// the Intune SDK (§3.3): the app checks them with `isURLAllowed:isKnownManagedAppScheme:YES` instead.
  var knownManagedSchemesWithoutTwin: [String] = []
  /// Known managed-app schemes the caller named that the app does not query: probably misspelt.
  var unqueriedKnownManagedSchemes: [String] = []
  /// The guide's fixed entries, lower-cased: an entry already listed may be one (an earlier run added it).
  var fixedSchemes: Set<String> = []
  /// How many of ``ignoredByIOS`` the file lists already (they come first): the additions go after them,
  /// so the ignored tail takes the additions first.
  var ignoredExistingCount: Int { max(0, ignoredByIOS.count - additions.count) }

  /// The ignored entries the file lists already, whatever added them.
  var ignoredListed: ArraySlice<String> { ignoredByIOS.prefix(ignoredExistingCount) }

  /// The ignored entries that are the app's own: listed, and neither fixed Intune entries nor `-intunemam`
  /// twins, which an earlier run or an earlier configuration's plan of the same file added (Proton Pass's
  /// second group of configurations called the first group's twins "the app's own", advising their removal).
  var ignoredExisting: [String] {
    ignoredListed.filter { !fixedSchemes.contains($0.lowercased()) && !IntuneSchemes.isTwin($0) }
  }

  /// The ignored fixed Intune entries, which the guide never lets the app drop.
  var ignoredRequired: [String] {
    ignoredListed.filter { fixedSchemes.contains($0.lowercased()) }
      + ignoredAdditions.filter { !$0.isDroppableTwin }.map(\.scheme)
  }

  /// The ignored twins of the app's own schemes.
  var ignoredTwins: [String] {
    ignoredListed.filter { !fixedSchemes.contains($0.lowercased()) && IntuneSchemes.isTwin($0) }
      + ignoredAdditions.filter(\.isDroppableTwin).map(\.scheme)
  }

  private var ignoredAdditions: ArraySlice<QueriedSchemeAddition> {
    additions.suffix(ignoredByIOS.count - ignoredExistingCount)
  }

  /// The remedy the 2023 guide gives when the list runs out of room.
  static let overLimitRemedy =
    "name the schemes of apps known to integrate the Intune SDK with --known-managed-scheme, so their "
    + "-intunemam twins are not added (remove any already listed), and check those URLs with "
    + "[IntuneMAMPolicy isURLAllowed:isKnownManagedAppScheme:YES] instead of canOpenURL"

  /// What to do when the app's own entries leave no room for the fixed Intune entries.
  static let makeRoomRemedy =
    "remove queried schemes the app no longer calls canOpenURL with, so that the Intune entries fit"
}

/// Plans the `LSApplicationQueriesSchemes` entries the Intune guide asks for.
enum QueriedSchemesPlanner {
  /// Computes what to append to `existing`.
  ///
  /// - Every fixed-list scheme that is missing, then `ms-outlook-intunemam` when it applies.
  /// - Then the `-intunemam` twin of every valid entry, except entries that are twins already, entries on
  ///   the fixed list (mobile-threat-defense partner schemes are listed as they are), and `mailto`, which
  ///   Intune routes through `ms-outlook-intunemam` instead. Twins come last because iOS ignores entries past
  ///   its limit and the guide lets an app drop twins, never the fixed entries (§3.3).
  /// - No twin for the entries in `knownManagedAppSchemes`, the schemes of apps known to integrate the
  ///   Intune SDK, which is how the guide makes room (§3.3); a twin already listed stays. A name there may
  ///   be given as the scheme or as its twin.
  /// - Comparisons ignore case, as iOS does for schemes.
  static func plan(
    existing: [String], guide: IntuneGuideVersion = .newest,
    limit: QueriedSchemeLimit = .forIOSSDK(major: 26), knownManagedAppSchemes: [String] = []
  ) -> QueriedSchemesPlan {
    let queried = Set(existing.map { $0.lowercased() })
    var present = queried
    var knownManaged: [String: String] = [:]
    for name in knownManagedAppSchemes {
      let scheme = IntuneSchemes.isTwin(name) ? String(name.dropLast(IntuneSchemes.suffix.count)) : name
      knownManaged[scheme.lowercased()] = knownManaged[scheme.lowercased()] ?? name
    }
    var withoutTwin: [String] = []
    var additions: [QueriedSchemeAddition] = []
    var problems: [SchemeFinding] = []
    let fixed = guide.fixedQueriedSchemes
    let fixedLowercased = Set(fixed.map { $0.lowercased() })

    func add(_ scheme: String, _ reason: QueriedSchemeReason) {
      guard present.insert(scheme.lowercased()).inserted else { return }
      additions.append(QueriedSchemeAddition(scheme: scheme, reason: reason))
    }

    for scheme in fixed { add(scheme, .fixedList(guide)) }
    let usesMailto = existing.contains { $0.lowercased() == "mailto" }
    switch guide.outlookSchemeCondition {
    case .always: add("ms-outlook-intunemam", .outlook(.always))
    case .whenAppUsesMailto where usesMailto: add("ms-outlook-intunemam", .outlook(.whenAppUsesMailto))
    case .whenAppUsesMailto: break
    }
    for (index, scheme) in existing.enumerated() {
      if let problem = URLSchemeValidator.problem(with: scheme) {
        problems.append(SchemeFinding(index: index, scheme: scheme, problem: problem))
        continue
      }
      let lowercased = scheme.lowercased()
      if IntuneSchemes.isTwin(scheme) || fixedLowercased.contains(lowercased) || lowercased == "mailto" {
        continue
      }
      if knownManaged[lowercased] != nil {
        if !present.contains(IntuneSchemes.twin(of: lowercased)) { withoutTwin.append(scheme) }
        continue
      }
      add(IntuneSchemes.twin(of: scheme), .twinOf(scheme))
    }
    let unqueried = knownManaged.filter {
      !queried.contains($0.key) && !queried.contains(IntuneSchemes.twin(of: $0.key))
    }.values.sorted()

    let final = existing + additions.map(\.scheme)
    let ignored = final.count > limit.maximum ? Array(final[limit.maximum...]) : []
    return QueriedSchemesPlan(
      additions: additions, problems: problems, ignoredByIOS: ignored, limit: limit,
      knownManagedSchemesWithoutTwin: withoutTwin, unqueriedKnownManagedSchemes: unqueried,
      fixedSchemes: fixedLowercased)
  }
}
