import AppBundles
import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// One bundle's files as the audit reads them: its Info.plist and, where found, its entitlements.
struct BundleFiles {
  let bundle: AppBundle
  let infoBytes: [UInt8]
  let info: PropertyListFile
  var entitlements: PropertyListFile?
  var entitlementsSource: EntitlementsSource = .none
  /// What could not be read, for the report.
  var notes: [String] = []

  init(_ container: BundleContainer, _ bundle: AppBundle) throws(AppAuditError) {
    self.bundle = bundle
    let display = container.path + "/" + bundle.infoPlistPath
    infoBytes = try AppAuditor.wrap { () throws(AppBundleError) in
      try container.read(bundle.infoPlistPath, limit: PropertyListLimits.maximumFileBytes)
    }
    do {
      info = try PropertyListFile(data: Data(infoBytes), path: display, duplicateKeys: .keepLast)
    } catch {
      throw AppAuditError(path: display, message: error.description)
    }
    guard info.value.dictionaryValue != nil else {
      throw AppAuditError(path: display, message: "the top level is not a dictionary")
    }
    readEntitlements(container)
  }

  /// The code signature's entitlements, else the provisioning profile's.
  private mutating func readEntitlements(_ container: BundleContainer) {
    let display = container.path + "/" + bundle.path
    if let executable = info.value.dictionaryValue?["CFBundleExecutable"]?.stringValue,
      !executable.contains("/")
    {
      do {
        let bytes = try container.read(bundle.file(executable), limit: AppAuditor.maximumExecutableBytes)
        if let xml = SigningPayloads.codeSignatureEntitlements(bytes),
          let file = try? PropertyListFile(
            data: Data(xml), path: display + "/" + executable + " (code signature)"),
          file.value.dictionaryValue != nil
        {
          entitlements = file
          entitlementsSource = .codeSignature
          return
        }
        notes.append("\(executable) has no entitlements in a code signature")
      } catch {
        notes.append("entitlements not read from the executable: \(error.description)")
      }
    } else {
      notes.append("no CFBundleExecutable: no code signature to read entitlements from")
    }
    let profilePath = bundle.file("embedded.mobileprovision")
    guard container.containsFile(profilePath) else {
      notes.append(
        "no embedded.mobileprovision either: app groups and keychain groups are not checked")
      return
    }
    do {
      let bytes = try container.read(profilePath, limit: AppAuditor.maximumProfileBytes)
      if let xml = SigningPayloads.provisioningProfilePayload(bytes),
        let profile = try? PropertyListFile(data: Data(xml), path: display + "/embedded.mobileprovision"),
        let granted = profile.value.dictionaryValue?["Entitlements"], granted.dictionaryValue != nil
      {
        entitlements = PropertyListFile(content: .value(granted, .xml), path: profile.path)
        entitlementsSource = .provisioningProfile
        notes.append(
          "entitlements read from embedded.mobileprovision (its CMS signature is not validated); keychain "
            + "groups there are what the profile allows, so they are not checked")
      } else {
        notes.append("embedded.mobileprovision holds no readable Entitlements plist")
      }
    } catch {
      notes.append("embedded.mobileprovision not read: \(error.description)")
    }
  }
}
