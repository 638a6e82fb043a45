/// How a target copies a file into its product as a resource.
///
/// A target's Info.plist must not be one of its resources: Xcode processes it into the product's
/// `Info.plist` and a resource copy writes the same path, so the build fails with "Multiple commands produce
/// …/Info.plist" (the new build system's check since Xcode 10; Xcode also warns "The Copy Bundle Resources
/// build phase contains this target's Info.plist file", as in flutter/flutter#57459 and mattt/Godzippa#17).
/// In an Xcode 16 synchronized folder every file belongs to the targets that build the folder unless an
/// exception set takes it out, which is why Xcode's own templates write `membershipExceptions = (Info.plist,
/// )` for the target whose Info.plist lives there.
public enum ResourceMembership: Sendable, Hashable {
  /// A Copy Bundle Resources phase lists the file; the location is its build file's entry.
  case resourcesPhase(BuildSettingLocation)
  /// The file lies in a synchronized folder the target builds (the folder's path as
  /// ``XcodeProject/path(ofFileElement:)`` gives it, the file's path inside it, and where the folder's
  /// group is written), and no exception set of the target takes it out.
  case synchronizedFolder(path: String, memberPath: String, location: BuildSettingLocation)
}

extension XcodeProject {
  /// Whether `target` copies the file at `path` (absolute, or relative to ``sourceRoot``) as a resource, and
  /// how; nil when it does not.
  ///
  /// A synchronized folder's exception sets are read for the target only: an exception set naming another
  /// target adds files to that one and leaves this target's membership as it is.
  public func resourceMembership(ofFile path: String, in target: XcodeTarget) -> ResourceMembership? {
    let wanted = XcodePath.normalize(XcodePath.join(sourceRoot, path))
    for phaseID in target.buildPhaseIDs {
      guard let phase = objects[phaseID], phase.isa == "PBXResourcesBuildPhase" else { continue }
      for buildFileID in phase.strings("files") {
        guard let buildFile = objects[buildFileID], let reference = buildFile.string("fileRef"),
          let referencePath = self.path(ofFileElement: reference),
          XcodePath.normalize(referencePath) == wanted
        else { continue }
        return .resourcesPhase(buildFile.location)
      }
    }
    guard let targetObject = objects[target.id] else { return nil }
    for groupID in targetObject.strings("fileSystemSynchronizedGroups") {
      guard let group = objects[groupID], let folder = self.path(ofFileElement: groupID) else { continue }
      // `path(ofFileElement:)` has joined the source root already (joining it again doubled a relative one).
      let root = XcodePath.normalize(folder)
      guard wanted.hasPrefix(root + "/") else { continue }
      let relative = String(wanted.dropFirst(root.count + 1))
      let excluded = group.strings("exceptions").contains { exceptionID in
        guard let exception = objects[exceptionID],
          exception.isa == "PBXFileSystemSynchronizedBuildFileExceptionSet",
          exception.string("target") == target.id
        else { return false }
        // An excluded folder takes out everything inside it.
        return exception.strings("membershipExceptions").contains {
          relative == $0 || relative.hasPrefix($0 + "/")
        }
      }
      if !excluded {
        return .synchronizedFolder(path: folder, memberPath: relative, location: group.location)
      }
    }
    return nil
  }
}
