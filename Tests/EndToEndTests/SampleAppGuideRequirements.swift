import Foundation
import Testing

/// One item of the Intune guide's requirement list (`docs/spec/intune-guide-requirements.md`: §1
/// activation rules, §2.4 what the configurator automates, §3 Info.plist and entitlements, §4 lint L1–L24),
/// checked on the sample app before and after configure with Foundation's reader and the `rulekit` binary.
///
/// A requirement configure fulfils is unmet in the sample as shipped and met once configured, so the test
/// shows configure did the work. A requirement configure only checks (the settings table, the 2023 guide's
/// ADAL keys) is met in the sample, and `SampleAppFindingTests` breaks it in a copy to show configure
/// reports it.
///
/// Items the sample app cannot exercise are covered elsewhere: §3.6 main nib/storyboard move (2016/2017
/// guides) and old guides' settings (L1b, L20, L23) in `GuideRequirementTests`; the queried-scheme limit
/// (§3.3, L11) and `$(VAR)` schemes in `ConfiguratorTests`; L16 (provisioning profile), L21 (code scan) and
/// L22 (build settings) concern files the configurator does not read.
struct GuideRequirement: Sendable, CustomTestStringConvertible {
  enum Role: Sendable {
    /// configure makes the change: unmet before, met after.
    case fulfilled
    /// configure checks the files and reports what is wrong: met before and after.
    case checked
  }

  var item: String
  var role: Role = .fulfilled
  /// The problems found in one state of the sample; empty when the requirement is met.
  var check: @Sendable (SampleAppFiles) throws -> [String]

  var testDescription: String { item }

  static func dictionary(_ value: Any?) -> [String: Any] { value as? [String: Any] ?? [:] }
  static func strings(_ value: Any?) -> [String] { value as? [String] ?? [] }
  static let twinPrefix = "com.microsoft.intune.mam."
  static let extensions = ["ShareExtension", "ActionExtension", "OpenInExtension"]
  static let fixedQueriedSchemes = [
    "http-intunemam", "https-intunemam", "microsoft-edge-http-intunemam", "microsoft-edge-https-intunemam",
    "smart-ns", "zips", "lacoonsecurity", "wandera", "lookoutwork-ase", "skycure", "betteractiveshield",
    "smsec", "mvisionmobile", "scmx", "intunemam-mtd",
  ]

  static func queriedSchemes(_ files: SampleAppFiles) throws -> [String] {
    strings(try files.plist("App/Info.plist")["LSApplicationQueriesSchemes"])
  }

  static func documentTypes(_ files: SampleAppFiles) throws -> [String] {
    let types = try files.plist("App/Info.plist")["CFBundleDocumentTypes"] as? [[String: Any]] ?? []
    return types.flatMap { strings($0["LSItemContentTypes"]) }.filter { !$0.hasPrefix(twinPrefix) }
  }

  static let all: [GuideRequirement] = [
    GuideRequirement(item: "§3.1 L9: every CFBundleURLSchemes entry has its -intunemam twin beside it") {
      files in
      let types = try files.plist("App/Info.plist")["CFBundleURLTypes"] as? [[String: Any]] ?? []
      let schemes = types.flatMap { strings($0["CFBundleURLSchemes"]) }
      let missing = schemes.filter { !$0.hasSuffix("-intunemam") && !schemes.contains($0 + "-intunemam") }
      return (schemes.isEmpty ? ["no URL scheme"] : []) + missing.map { "\($0) has no twin" }
    },
    GuideRequirement(
      item:
        "§3.2 L10: LSApplicationQueriesSchemes keeps the app's entries first, then the 2023 fixed list in order"
    ) { files in
      let queried = try queriedSchemes(files)
      let own = try queriedSchemes(ConfiguredSampleApp.get().before)
      var problems: [String] = []
      if !queried.starts(with: own) { problems.append("the app's own entries moved: \(queried)") }
      if queried.filter({ fixedQueriedSchemes.contains($0) }) != fixedQueriedSchemes {
        problems.append("fixed list: \(queried)")
      }
      return problems
    },
    GuideRequirement(
      item: "§3.2 L10: every queried scheme the app lists has its -intunemam twin (mailto excepted)"
    ) { files in
      let queried = try queriedSchemes(files)
      let own = try queriedSchemes(ConfiguredSampleApp.get().before).filter { $0 != "mailto" }
      return (own.isEmpty ? ["the sample queries no scheme of its own"] : [])
        + own.filter { !queried.contains($0 + "-intunemam") }.map { "\($0) has no twin" }
    },
    GuideRequirement(item: "§3.2 L10 (2023): ms-outlook-intunemam because the app queries mailto") { files in
      let queried = try queriedSchemes(files)
      return (queried.contains("mailto") ? [] : ["the sample does not query mailto"])
        + (queried.contains("ms-outlook-intunemam") ? [] : ["mailto without ms-outlook-intunemam"])
    },
    GuideRequirement(item: "§3.4 L12: every LSItemContentTypes entry has its com.microsoft.intune.mam. twin")
    { files in
      let types = try files.plist("App/Info.plist")["CFBundleDocumentTypes"] as? [[String: Any]] ?? []
      return types.flatMap { type -> [String] in
        let identifiers = strings(type["LSItemContentTypes"])
        return identifiers.filter { !$0.hasPrefix(twinPrefix) && !identifiers.contains(twinPrefix + $0) }
      }.map { "\($0) has no twin" }
    },
    GuideRequirement(item: "§3.5 L17: NSFaceIDUsageDescription is set") { files in
      let text = try files.plist("App/Info.plist")["NSFaceIDUsageDescription"] as? String ?? ""
      return text.isEmpty ? ["missing"] : []
    },
    GuideRequirement(
      item:
        "§2.4.4 §3.7 L8: IntuneMAMSettings › AppGroupIdentifiers lists the entitlements' app groups, in every target"
    ) { files in
      let groups = strings(try files.plist("App/App.entitlements")["com.apple.security.application-groups"])
      return try ConfiguredSampleApp.targets.flatMap { target -> [String] in
        let listed = strings(
          dictionary(try files.plist("\(target)/Info.plist")["IntuneMAMSettings"])["AppGroupIdentifiers"])
        return groups.filter { !listed.contains($0) }.map { "\(target) lacks \($0)" }
      } + (groups.isEmpty ? ["the sample's entitlements list no app group"] : [])
    },
    GuideRequirement(
      item: "§3.7.1 L18: ADALClientId and ADALRedirectUri or ADALRedirectScheme (2023: every app)",
      role: .checked
    ) { files in
      let settings = dictionary(try files.plist("App/Info.plist")["IntuneMAMSettings"])
      return (settings["ADALClientId"] == nil ? ["no ADALClientId"] : [])
        + (settings["ADALRedirectUri"] == nil && settings["ADALRedirectScheme"] == nil ? ["no redirect"] : [])
    },
    GuideRequirement(
      item:
        "§3.7.2 L1 L4 L5 L6: the app's settings are valid: a colour, a file protection level, MAMPolicyRequired NO",
      role: .checked
    ) { files in
      let settings = dictionary(try files.plist("App/Info.plist")["IntuneMAMSettings"])
      var problems: [String] = []
      if (settings["AccentColor"] as? String)?.wholeMatch(of: /#?[0-9A-Fa-f]{6}/) == nil {
        problems.append("AccentColor: \(String(describing: settings["AccentColor"]))")
      }
      if settings["MaxFileProtectionLevel"] as? String
        != "NSFileProtectionCompleteUntilFirstUserAuthentication"
      {
        problems.append("MaxFileProtectionLevel: \(String(describing: settings["MaxFileProtectionLevel"]))")
      }
      if settings["MAMPolicyRequired"] as? Bool != false { problems.append("MAMPolicyRequired is not NO") }
      return problems
    },
    GuideRequirement(
      item:
        "§3.8 L15: keychain-access-groups: the bundle ID first, then com.microsoft.intune.mam and com.microsoft.adalcache"
    ) { files in
      let groups = strings(try files.plist("App/App.entitlements")["keychain-access-groups"])
      let expected = ["com.example.notes", "com.microsoft.intune.mam", "com.microsoft.adalcache"].map {
        "$(AppIdentifierPrefix)" + $0
      }
      return groups == expected ? [] : ["keychain-access-groups is \(groups)"]
    },
    GuideRequirement(item: "§3.9 L7: every extension's ContainingAppBundleId is the app's bundle ID") {
      files in
      let bundleID = try files.plist("App/Info.plist")["CFBundleIdentifier"] as? String
      return try extensions.compactMap { target in
        let value = dictionary(try files.plist("\(target)/Info.plist")["IntuneMAMSettings"])[
          "ContainingAppBundleId"]
        return value as? String == bundleID ? nil : "\(target): \(String(describing: value))"
      }
    },
    GuideRequirement(
      item:
        "§1.5 L13: the share extension accepts the com.microsoft.intune.mam. twin of every type it accepts"
    ) { files in
      // The types the rule lists; an undeclared twin such as ...public.jpeg conforms only to itself.
      try ["public.image", "com.adobe.pdf", "public.url"].flatMap { type -> [String] in
        let original = try files.activates("ShareExtension", attachments: [type])
        let twin = try files.activates("ShareExtension", attachments: [twinPrefix + type])
        return (original ? [] : ["\(type) refused"]) + (twin ? [] : ["\(twinPrefix + type) refused"])
      }
    },
    GuideRequirement(
      item:
        "§1.6: the action extension's dictionary rule became a predicate string that accepts web URLs and their twins"
    ) { files in
      let attributes = dictionary(
        dictionary(try files.plist("ActionExtension/Info.plist")["NSExtension"])["NSExtensionAttributes"])
      var problems = attributes["NSExtensionActivationRule"] is String ? [] : ["the rule is not a string"]
      if try !files.activates("ActionExtension", attachments: ["public.url"]) {
        problems.append("public.url refused")
      }
      if try !files.activates("ActionExtension", attachments: [twinPrefix + "public.url"]) {
        problems.append("the public.url twin refused")
      }
      if try files.activates("ActionExtension", attachments: ["com.adobe.pdf"]) {
        problems.append("a PDF accepted")
      }
      return problems
    },
    GuideRequirement(
      item:
        "§1.3 §1.4 A L14: the Open-In rule takes one file of every document type of the app, Intune twins only"
    ) { files in
      var problems: [String] = []
      for type in try documentTypes(files) {
        if try !files.activates("OpenInExtension", attachments: [twinPrefix + type]) {
          problems.append("\(twinPrefix + type) refused")
        }
        if try files.activates("OpenInExtension", attachments: [type]) {
          problems.append("unmanaged \(type) accepted")
        }
      }
      let two = [twinPrefix + "com.adobe.pdf", twinPrefix + "com.adobe.pdf"]
      if try files.activates("OpenInExtension", attachments: two) { problems.append("two files accepted") }
      return problems
    },
    GuideRequirement(
      item:
        "§1.3 L14: the Open-In extension is flagged, named Open in, shares an app group and the app has a URL scheme with its twin"
    ) { files in
      let info = try files.plist("OpenInExtension/Info.plist")
      let settings = dictionary(info["IntuneMAMSettings"])
      let appSettings = dictionary(try files.plist("App/Info.plist")["IntuneMAMSettings"])
      var problems: [String] = []
      if settings["OpenInActionExtension"] as? Bool != true {
        problems.append("OpenInActionExtension is not YES")
      }
      if !(info["CFBundleDisplayName"] as? String ?? "").hasPrefix("Open in ") { problems.append("name") }
      if Set(strings(settings["AppGroupIdentifiers"])).isDisjoint(
        with: strings(appSettings["AppGroupIdentifiers"]))
      {
        problems.append("no shared app group")
      }
      let types = try files.plist("App/Info.plist")["CFBundleURLTypes"] as? [[String: Any]] ?? []
      let schemes = types.flatMap { strings($0["CFBundleURLSchemes"]) }
      if !schemes.contains(where: { schemes.contains($0 + "-intunemam") }) {
        problems.append("no scheme + twin")
      }
      return problems
    },
  ]
}
