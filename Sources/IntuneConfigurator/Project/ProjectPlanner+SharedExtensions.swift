import XcodeProjects

extension ProjectPlanner {
  /// Warns when `target` is embedded in other application targets too, built with other bundle
  /// identifiers: the extension has one Info.plist in each configuration, so the `ContainingAppBundleId`
  /// planned for ``app`` names the wrong app in the others' builds (Rocket.Chat's React Native project
  /// embeds one share extension in two apps).
  mutating func noteOtherContainingApps(of target: XcodeTarget, appIdentifiers: [String: String]) {
    let ours = Set(appIdentifiers.values)
    var others: [String] = []
    for other in project.targets
    where other.isApplication && other.id != app.id
      && project.embeddedTargets(of: other).contains(where: { $0.id == target.id })
    {
      // An app whose settings do not resolve is reported when it is configured itself.
      guard let settings = try? settings(of: other), let identifiers = try? appBundleIdentifiers(settings)
      else { continue }
      let differing = Set(identifiers.values).subtracting(ours).sorted()
      guard !differing.isEmpty else { continue }
      others.append("\(other.name) (\(differing.joined(separator: ", ")))")
    }
    guard !others.isEmpty else { return }
    let planned = ours.sorted().joined(separator: ", ")
    findings.append(
      ProjectFinding(
        id: "extension-in-several-apps", .warning, at: target.location,
        "\(target.name) is embedded in \(others.joined(separator: " and ")) as well as in \(app.name) "
          + "(\(planned)); its Info.plist can name one containing app, so the ContainingAppBundleId planned "
          + "for \(app.name) is wrong in the other apps' builds",
        fix: "give each app its own copy of the extension target, with its own Info.plist, or remove "
          + "\(target.name) from the Embed App Extensions phase of the apps you do not configure for Intune"))
  }
}
