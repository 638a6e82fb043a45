import PropertyLists
import UniformTypes
import XcodeProjects

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
    if case .dictionary(let ext) = info["NSExtension"] {
      return .appExtension(pointIdentifier: ext["NSExtensionPointIdentifier"]?.stringValue)
    }
    // An ExtensionKit extension (an App Intents extension: Nextcloud Talk's TalkIntents) says what it is in
    // EXAppExtensionAttributes instead.
    if case .dictionary(let ext) = info["EXAppExtensionAttributes"] {
      return .appExtension(pointIdentifier: ext["EXExtensionPointIdentifier"]?.stringValue)
    }
    return .app
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
    return Self.nearestPosition(of: path, in: document)
  }

  /// Where `path` is in `document`, or else where the nearest ancestor that exists is (the key a change
  /// would add goes inside it; the root dictionary at worst): every finding about an XML file then has a
  /// `file:line:column`, the same one `lint --project` gives it.
  static func nearestPosition(of path: PropertyListPath, in document: PropertyListDocument?)
    -> PropertyLists.PropertyListPosition?
  {
    guard let document else { return nil }
    var current = path
    while !current.components.isEmpty {
      if let found = position(of: current, in: document) { return found }
      current = current.parent
    }
    return document.root.position
  }

  /// Where `path` is in `document`, as findings point at it: a dictionary entry at its key, where a reader
  /// looks for it; any other value at its element.
  static func position(of path: PropertyListPath, in document: PropertyListDocument?) -> PropertyLists
    .PropertyListPosition?
  {
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
    checkBundleIdentifiers()
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
      finding(
        "entitlements-not-given", .note, at: [],
        "no entitlements file was given, so IntuneMAMSettings.AppGroupIdentifiers (from the app groups) "
          + "and the keychain access groups are not checked",
        fix: options.buildConfigurations.isEmpty
          ? "pass the target's entitlements file with -e (in Xcode: CODE_SIGN_ENTITLEMENTS)"
          : "set the target's CODE_SIGN_ENTITLEMENTS, or run again with --fix-entitlements to create one")
    } else {
      planKeychainGroups()
    }
    validateSettings()
    checkAuthenticationSettings()
    checkOpenInExtension()
    checkOpenInIcon()
    checkGuideSpecificSettings()
    noteOpenStepRewrite()
  }

  /// An OpenStep Info.plist (an old project's `{ Key = value; }` text) is read into values and written back
  /// whole, as `PropertyLists` writes that format: its comments and layout do not survive, while an XML
  /// file is edited in place. Said before it is written (a crash hunt saw them go without a word).
  mutating func noteOpenStepRewrite() {
    guard infoFile.format == .openStep, changes.contains(where: { $0.file == .infoPlist }) else { return }
    finding(
      "openstep-rewritten", .warning, at: [],
      "this Info.plist is an OpenStep property list, which is written back whole: its comments, layout and "
        + "quoting are not kept (XML files are edited in place)",
      fix: "to keep them, add the changes the diff shows by hand; or convert the file to XML first "
        + "(plutil -convert xml1 drops the comments too)")
  }

  /// A key repeated in one dictionary of the Info.plist: Xcode builds such a file (seen in real apps), and
  /// the built app holds the later value, because Xcode's Info.plist processing parses the file with
  /// Foundation's property-list reader, which keeps the last of repeated keys (`PropertyListsTests`
  /// checks `PropertyListSerialization` does; `PropertyLists` reads with `.keepLast` the same way). The
  /// configurator edits that later entry and says which one is used. Entitlements files are still refused
  /// with a duplicate key (the run never gets here): codesign and the device's entitlement parser have
  /// disagreed on such files before (the 2020 "Psychic Paper" bypass), so which value holds is not certain.
  mutating func reportDuplicateKeys() {
    findings += Self.duplicateKeyFindings(in: infoFile)
  }

  /// The `duplicate-key` warnings of an Info.plist, each at the later entry of its key.
  static func duplicateKeyFindings(in infoFile: PropertyListFile) -> [ConfiguratorFinding] {
    infoFile.duplicateKeyWarnings.map { duplicate in
      ConfiguratorFinding(
        id: "duplicate-key", .warning, at: [], position: duplicate.duplicate,
        "\(duplicate.key) appears twice in one dictionary (first at line \(duplicate.first.line), column "
          + "\(duplicate.first.column)); Xcode builds the app with this later value and ignores the first",
        fix: "remove the entry you do not mean; the configurator reads and edits this later one")
    }
  }
}
