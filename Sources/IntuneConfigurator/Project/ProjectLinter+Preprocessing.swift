import PropertyLists
import XcodeProjects

extension ProjectLinter {
  /// How Xcode reads `target`'s Info.plist at `path`: with the C preprocessor and the target's macros when
  /// the target sets `INFOPLIST_PREPROCESS = YES` (ownCloud's app wraps `NSAppTransportSecurity` in
  /// `#ifndef DISABLE_PLAIN_HTTP`), else nil. The first configuration building from `path` decides: a rule
  /// is linted once per file, and configurations rarely differ in more than `DEBUG`.
  func infoPlistPreprocessing(of target: XcodeTarget, at path: String, in project: XcodeProject)
    -> PropertyListPreprocessing?
  {
    for name in project.configurationNames(for: target) {
      guard let settings = try? project.buildSettings(target: target, configuration: name, sdk: sdk),
        settings.path(for: "INFOPLIST_FILE").map(ProjectPlanner.absolute) == path
      else { continue }
      return ProjectPlanner.preprocessing(settings)
    }
    return nil
  }
}
