import ActivationRules
import PropertyLists
import UniformTypes
import XcodeProjects

/// The app an extension is embedded in, as the configurator needs it: for `ContainingAppBundleId`, the
/// Open-In extension's document types and the checks that compare the two.
public struct ContainingApp: Sendable {
  /// What `IntuneMAMSettings › ContainingAppBundleId` should say: the app's bundle identifier, or — when an
  /// Xcode project is planned — a build-setting
  /// reference such as `$(APP_BUNDLE_IDENTIFIER)` that Xcode expands, in the extension's build, to the
  /// app's identifier in every configuration. `nil`: the `CFBundleIdentifier` of ``infoPlist``.
  public var bundleIdentifier: String?
  /// The app's Info.plist, when known; findings about the app name its ``/PropertyLists/PropertyListFile/path``.
  public var infoPlist: PropertyListFile?
  /// The app's bundle identifier in each build configuration, by configuration name, as Xcode builds it;
  /// set by a project plan, with the options' build configurations, to check references and existing values.
  var bundleIdentifiersByConfiguration: [String: String]

  /// The containing app, by identifier, Info.plist, or both.
  public init(bundleIdentifier: String? = nil, infoPlist: PropertyListFile? = nil) {
    self.init(bundleIdentifier: bundleIdentifier, infoPlist: infoPlist, bundleIdentifiersByConfiguration: [:])
  }

  /// The containing app of a project plan, with its identifier in each configuration.
  init(
    bundleIdentifier: String?, infoPlist: PropertyListFile?,
    bundleIdentifiersByConfiguration: [String: String]
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
struct BuildConfigurationExpansion: Sendable {
  /// The configuration's name, e.g. `Debug`.
  var configuration: String
  /// Expands every build-setting reference in a text as Xcode would in this configuration.
  var expand: @Sendable (String) -> String
  /// How Xcode preprocesses the Info.plist in this configuration (`INFOPLIST_PREPROCESS = YES`), with the
  /// macros of its prefix header; nil when it does not.
  var preprocessing: PropertyListPreprocessing?
  /// The prefix header the preprocessing reads when the checkout does not have it (a build step writes it).
  var missingPrefixHeader: String?

  /// The expansion `expand` of the configuration named `configuration`.
  init(
    configuration: String, preprocessing: PropertyListPreprocessing? = nil,
    missingPrefixHeader: String? = nil,
    expand: @escaping @Sendable (String) -> String
  ) {
    self.configuration = configuration
    self.preprocessing = preprocessing
    self.missingPrefixHeader = missingPrefixHeader
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
  /// ID when it expands to it). Empty when the files are configured on their own. Set by
  /// ``AppConfigurator/projectContext(forInfoPlist:in:sdk:)`` and project plans.
  var buildConfigurations: [BuildConfigurationExpansion]
  /// Info.plist keys the target's build settings supply (`INFOPLIST_KEY_…` under
  /// `GENERATE_INFOPLIST_FILE = YES`): Xcode merges them into the built Info.plist, so they count as present
  /// and are not added to the file again. Set from the project, as ``buildConfigurations``.
  var generatedInfoPlistKeys: PropertyListDictionary
  /// What `IntuneMAMSettings › AppGroupIdentifiers` should hold, as written; `nil` for the entitlements
  /// file's `com.apple.security.application-groups`. A project run sets it when one Info.plist serves
  /// configurations whose entitlements name different groups: entries such as `$(INTUNE_APP_GROUP_ID)` that
  /// Xcode expands to each configuration's group.
  var appGroupIdentifiers: [String]?
  /// Add missing keychain access groups to the entitlements file instead of only reporting them.
  public var fixEntitlements: Bool
  /// The text for a missing `NSFaceIDUsageDescription`.
  public var faceIDUsageDescription: String
  /// Queried schemes of apps known to integrate the Intune SDK: their `-intunemam` twins are not added to
  /// `LSApplicationQueriesSchemes`, the guide's way to make room in the list (§3.3). The app must then check
  /// those URLs with `[IntuneMAMPolicy isURLAllowed:isKnownManagedAppScheme:YES]`.
  public var knownManagedAppSchemes: [String]
  /// How a dictionary activation rule becomes a predicate: `DictionaryConversionStyle.intune` (the default)
  /// writes IntuneMAMConfigurator's shape and warns `dictionary-rule-meaning-changed` where it accepts other
  /// shares than the dictionary; `.apple` writes the dictionary's own meaning (RuleKit's model of Apple's
  /// matching, ActivationRules' `DictionaryModel`) with the Intune twins added.
  public var dictionaryRuleStyle: DictionaryConversionStyle
  /// The .NET project (`.csproj`) that builds the app, for a .NET MAUI or Xamarin head; `nil` for an Xcode
  /// build. .NET's build expands only `$(AppIdentifierPrefix)`, `$(TeamIdentifierPrefix)` and
  /// `$(CFBundleIdentifier)` in entitlements (dotnet/macios, `CompileEntitlements`), and has no
  /// `PRODUCT_BUNDLE_IDENTIFIER`: an Info.plist without its own `CFBundleIdentifier` (the `.csproj`'s
  /// `ApplicationId` supplies it) has its bundle ID spelt `$(CFBundleIdentifier)` in what the plan writes.
  /// ``AppConfigurator/dotNetProject(forFileAt:)`` finds it.
  public var dotNetProject: String?
  /// Whether the extension signs with its containing app's entitlements file (Cordova's
  /// `cordova/build.xcconfig` sets one `CODE_SIGN_ENTITLEMENTS` for every target). Its keychain groups are
  /// then the app's, which the app's plan checks and adds; the extension's plan leaves them alone.
  /// The planning of an Xcode project (``AppConfigurator/plan(project:appTarget:sdk:)``) sets it; a file
  /// configured alone cannot tell.
  public var signsWithContainingAppEntitlements = false

  /// The message the configurator writes when the app has none; the guide asks only for "a default message".
  public static let defaultFaceIDUsageDescription =
    "Face ID can be used to unlock this app when your organization requires it."

  /// Options with the given values.
  public init(
    guide: IntuneGuideVersion = .newest, iosSDKMajor: Int = 26, containingApp: ContainingApp? = nil,
    fixEntitlements: Bool = false, faceIDUsageDescription: String = Self.defaultFaceIDUsageDescription,
    knownManagedAppSchemes: [String] = [], dictionaryRuleStyle: DictionaryConversionStyle = .intune
  ) {
    self.guide = guide
    self.iosSDKMajor = iosSDKMajor
    self.containingApp = containingApp
    self.buildConfigurations = []
    self.generatedInfoPlistKeys = PropertyListDictionary()
    self.appGroupIdentifiers = nil
    self.fixEntitlements = fixEntitlements
    self.faceIDUsageDescription = faceIDUsageDescription
    self.knownManagedAppSchemes = knownManagedAppSchemes
    self.dictionaryRuleStyle = dictionaryRuleStyle
    self.dotNetProject = nil
    self.signsWithContainingAppEntitlements = false
  }
}
