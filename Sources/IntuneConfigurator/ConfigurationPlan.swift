import PropertyLists

/// Which file a change or finding is about.
public enum ConfiguredFile: String, Sendable, Hashable, Codable {
  /// The target's Info.plist.
  case infoPlist = "Info.plist"
  /// The target's entitlements file.
  case entitlements
  /// The containing app's Info.plist, read for an extension (never written).
  case containingApp = "containing app Info.plist"
}

/// The kinds of change the configurator makes; the raw values are stable ids for scripts and JSON.
public enum ConfiguratorChangeKind: String, Sendable, Hashable, Codable, CaseIterable {
  /// A `-intunemam` twin beside each URL scheme the app declares (guide §3.1).
  case urlSchemeTwin = "url-scheme-twin"
  /// A scheme added to `LSApplicationQueriesSchemes`: a twin of a queried scheme or one the guide lists.
  case queriedScheme = "queried-scheme"
  /// A `com.microsoft.intune.mam.` twin beside each document type the app opens.
  case documentTypeTwin = "document-type-twin"
  /// `IntuneMAMSettings › AppGroupIdentifiers`, from the entitlements' app groups.
  case appGroupIdentifiers = "app-group-identifiers"
  /// `IntuneMAMSettings › ContainingAppBundleId`, for an extension.
  case containingAppBundleID = "containing-app-bundle-id"
  /// Intune twins in a share or action extension's activation rule.
  case activationRule = "activation-rule"
  /// The Open-In extension's rule over the containing app's document types.
  case openInActivationRule = "open-in-activation-rule"
  /// `NSFaceIDUsageDescription`, which the guide asks for from 2018.
  case faceIDUsageDescription = "face-id-usage-description"
  /// A keychain access group the Intune SDK needs, in the entitlements file.
  case keychainAccessGroup = "keychain-access-group"
  /// 2016 and 2017 guides: the main storyboard or nib moves into `IntuneMAMSettings`.
  case mainInterfaceMove = "main-interface-move"
}

/// One named change of a plan: what it does, where, and the property-list edits that do it.
public struct ConfiguratorChange: Sendable, Hashable {
  /// What kind of change it is.
  public var kind: ConfiguratorChangeKind
  /// The file it changes.
  public var file: ConfiguredFile
  /// The key path the change touches, e.g. `CFBundleURLTypes[0].CFBundleURLSchemes`.
  public var keyPath: PropertyListPath
  /// One line for people: "add myapp-intunemam beside myapp".
  public var summary: String
  /// The edits that make the change.
  public var edits: [PropertyListEdit]

  /// A change of `kind` to `file` at `keyPath`, described by `summary`, made by `edits`.
  public init(
    _ kind: ConfiguratorChangeKind, _ file: ConfiguredFile = .infoPlist, at keyPath: PropertyListPath,
    _ summary: String, edits: [PropertyListEdit]
  ) {
    self.kind = kind
    self.file = file
    self.keyPath = keyPath
    self.summary = summary
    self.edits = edits
  }
}

/// How serious a finding is.
public enum FindingSeverity: String, Sendable, Hashable, Codable, Comparable {
  /// Information: what the run found or assumed.
  case note
  /// Something to look at; the plan is still applied.
  case warning
  /// The app would be misconfigured: nothing is written (``ConfigurationPlan/isBlocked``).
  case error

  private var rank: Int {
    switch self {
    case .note: 0
    case .warning: 1
    case .error: 2
    }
  }

  /// Ordered note < warning < error.
  public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}

/// Something the configurator noticed and did not (or could not) change by itself.
public struct ConfiguratorFinding: Sendable, Hashable {
  /// A stable id, e.g. `url-scheme-build-setting`.
  public var id: String
  /// How serious it is.
  public var severity: FindingSeverity
  /// The file it is about.
  public var file: ConfiguredFile
  /// The key path it is about.
  public var keyPath: PropertyListPath
  /// Where in the file, when the file is XML: the key, or the nearest enclosing one that exists (the root
  /// dictionary at worst), as `lint --project` places it.
  public var position: PropertyLists.PropertyListPosition?
  /// What was found, in one line.
  public var message: String
  /// How to fix it, when there is one thing to do.
  public var fix: String?

  /// A finding `id` of `severity` about `keyPath` in `file`, saying `message`, with a `fix` when there is one.
  public init(
    id: String, _ severity: FindingSeverity, _ file: ConfiguredFile = .infoPlist,
    at keyPath: PropertyListPath,
    position: PropertyLists.PropertyListPosition? = nil, _ message: String, fix: String? = nil
  ) {
    self.id = id
    self.severity = severity
    self.file = file
    self.keyPath = keyPath
    self.position = position
    self.message = message
    self.fix = fix
  }
}

/// Everything a run would do, before it does it: print it (dry run, diff, JSON) or apply it.
public struct ConfigurationPlan: Sendable {
  /// The changes, in the order they are applied.
  public var changes: [ConfiguratorChange]
  /// What needs a person: notes, warnings and errors.
  public var findings: [ConfiguratorFinding]
  /// The Info.plist as read.
  public var infoPlist: PropertyListFile
  /// The entitlements file as read.
  public var entitlements: PropertyListFile?
  /// What the run found the Info.plist to be.
  public var target: ConfigurationTarget
  /// Where the containing app's Info.plist was read from, for findings about it.
  public var containingAppInfoPlistPath: String?

  /// Whether the plan changes nothing (a second run of an idempotent configurator).
  public var isEmpty: Bool { changes.isEmpty }

  /// Where a finding about `keyPath` in the Info.plist points, as the planner's own findings do: the key,
  /// or the nearest enclosing key that exists (the key a change would add goes inside it).
  package func infoPlistPosition(of keyPath: PropertyListPath) -> PropertyLists.PropertyListPosition? {
    Planner.nearestPosition(of: keyPath, in: infoPlist.document)
  }

  /// The Info.plist with every change applied.
  public func configuredInfoPlist() throws(PropertyListError) -> PropertyListFile {
    try infoPlist.applying(changes.filter { $0.file == .infoPlist }.flatMap(\.edits))
  }

  /// The entitlements file with every change applied; `nil` when there is none.
  public func configuredEntitlements() throws(PropertyListError) -> PropertyListFile? {
    guard let entitlements else { return nil }
    let edits = changes.filter { $0.file == .entitlements }.flatMap(\.edits)
    return edits.isEmpty ? entitlements : try entitlements.applying(edits)
  }

  /// Whether a finding is an error: applying the plan would leave the app misconfigured, so the CLI writes
  /// nothing.
  public var isBlocked: Bool { findings.contains { $0.severity == .error } }

  /// The report for people: findings as compiler-style lines, then the changes (``ConfigurationReport``).
  public func report() -> String {
    ConfigurationReport.text(self, infoPlistName: infoPlistName, entitlementsName: entitlements?.path)
  }

  /// The unified diff of every file the plan changes (``ConfigurationReport/diff(_:infoPlistName:entitlementsName:)``).
  ///
  /// - Throws: ``ConfiguratorError`` of kind ``ConfiguratorError/Kind/file`` when an edit cannot be applied.
  public func diff() throws(ConfiguratorError) -> String {
    do {
      return try ConfigurationReport.diff(
        self, infoPlistName: infoPlistName, entitlementsName: entitlements?.path)
    } catch {
      throw .file(error)
    }
  }

  /// Writes the changed files, both or neither, each atomically and keeping its permissions: the Info.plist
  /// to `infoPlistDestination` (always, when given) or in place when it changes, the entitlements file in
  /// place when it changes. Returns the paths written. It writes even when ``isBlocked``; check first.
  ///
  /// - Throws: ``ConfiguratorError`` of kind ``ConfiguratorError/Kind/file`` when a file cannot be written
  ///   (then none is) or has no path.
  @discardableResult
  public func apply(infoPlistTo infoPlistDestination: String? = nil) throws(ConfiguratorError) -> [String] {
    do {
      var files: [(file: PropertyListFile, destination: String?)] = []
      if infoPlistDestination != nil || changes.contains(where: { $0.file == .infoPlist }) {
        files.append((try configuredInfoPlist(), infoPlistDestination ?? infoPlist.path))
      }
      if let configured = try configuredEntitlements(), changes.contains(where: { $0.file == .entitlements })
      {
        files.append((configured, entitlements?.path))
      }
      try PropertyListFile.write(files)
      return files.compactMap(\.destination)
    } catch {
      throw .file(error)
    }
  }

  /// The Info.plist's name in reports: its path, or `Info.plist` for one read from memory.
  private var infoPlistName: String { infoPlist.path ?? "Info.plist" }
}

/// What kind of bundle an Info.plist describes.
public enum ConfigurationTarget: Sendable, Hashable, Codable {
  /// An application.
  case app
  /// An app extension, with its `NSExtensionPointIdentifier` (e.g. `com.apple.share-services`).
  case appExtension(pointIdentifier: String?)

  /// Whether it is an app extension.
  public var isExtension: Bool {
    if case .appExtension = self { return true }
    return false
  }
}
