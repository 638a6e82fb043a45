import PropertyLists

/// One entry of a pbxproj's `objects` dictionary: its id, `isa`, and the dictionary node with positions.
public struct PBXObject: Sendable, Hashable {
  /// The 24-hex-digit id (any string Xcode wrote).
  public var id: String
  /// The object's class: `PBXNativeTarget`, `XCBuildConfiguration`, …
  public var isa: String
  /// The object's dictionary.
  public var node: OpenStepNode
  /// Where the object's id is written.
  public var location: BuildSettingLocation

  /// Creates a view of an object.
  public init(id: String, isa: String, node: OpenStepNode, location: BuildSettingLocation) {
    self.id = id
    self.isa = isa
    self.node = node
    self.location = location
  }

  /// The string value of `key`, or `nil` when it is absent or not a string.
  public func string(_ key: String) -> String? { node[key]?.string }

  /// An `XCBuildConfiguration`'s `name`, empty when it has none.
  var configurationName: String { string("name") ?? "" }

  /// The string elements of the array at `key` (object ids, mostly); empty when absent.
  public func strings(_ key: String) -> [String] {
    node[key]?.elements.compactMap(\.string) ?? []
  }
}

/// The project object (`PBXProject`), root of the object graph.
public struct PBXProjectObject: Sendable, Hashable {
  /// The object's id (`rootObject`).
  public var id: String
  /// The project's configuration list id.
  public var buildConfigurationListID: String
  /// Target ids in the order Xcode lists them.
  public var targetIDs: [String]
  /// The main group's id.
  public var mainGroupID: String?
  /// `projectDirPath`: a folder, relative to the one holding the `.xcodeproj`, that is the project's root
  /// (usually empty).
  public var projectDirPath: String
}

/// The kinds of target a pbxproj has.
public enum XcodeTargetKind: String, Sendable, Hashable {
  /// `PBXNativeTarget`: builds a product.
  case native = "PBXNativeTarget"
  /// `PBXAggregateTarget`: only runs phases and dependencies.
  case aggregate = "PBXAggregateTarget"
  /// `PBXLegacyTarget`: runs an external build tool.
  case legacy = "PBXLegacyTarget"
}

/// A target of the project.
public struct XcodeTarget: Sendable, Hashable {
  /// The target object's id.
  public var id: String
  /// Which kind of target.
  public var kind: XcodeTargetKind
  /// The target's name (`TARGET_NAME`).
  public var name: String
  /// `productName`, as Xcode wrote it (not necessarily `PRODUCT_NAME`).
  public var productName: String?
  /// `productType`: `com.apple.product-type.application`, `…app-extension`, … (`nil` for aggregate targets).
  public var productType: String?
  /// The target's configuration list id.
  public var buildConfigurationListID: String
  /// Build phase ids, in order.
  public var buildPhaseIDs: [String]
  /// `PBXTargetDependency` ids.
  public var dependencyIDs: [String]
  /// The product's file reference id.
  public var productReferenceID: String?
  /// Ids of the targets whose products an "Embed App Extensions"/"Embed Foundation Extensions" phase
  /// (`PBXCopyFilesBuildPhase`, `dstSubfolderSpec = 13`) copies into this one's product, in phase order.
  public var embeddedTargetIDs: [String]
  /// Names of those targets.
  public var embeddedTargetNames: [String]
  /// Names of the app targets this one carries in its bundle: an App Clip ("Embed App Clips", into
  /// `$(CONTENTS_FOLDER_PATH)/AppClips`) or a watch app ("Embed Watch Content", into
  /// `$(CONTENTS_FOLDER_PATH)/Watch`), in phase order. Apps of their own, not extensions of this one.
  public var embeddedAppTargetNames: [String] = []
  /// Where the target object is written.
  public var location: BuildSettingLocation

  /// Whether the product is an app (`com.apple.product-type.application` and its watch/messages variants).
  public var isApplication: Bool {
    guard let productType else { return false }
    return productType == "com.apple.product-type.application"
      || productType.hasPrefix("com.apple.product-type.application.")
  }

  /// Whether the product has no executable: an iMessage sticker pack
  /// (`com.apple.product-type.app-extension.messages-sticker-pack`), only images and an Info.plist, so no
  /// library (the Intune App SDK among them) ever runs in it.
  public var isCodeless: Bool {
    productType == "com.apple.product-type.app-extension.messages-sticker-pack"
  }

  /// Whether the product is an app extension (`com.apple.product-type.app-extension` and its variants, and
  /// ExtensionKit extensions).
  public var isAppExtension: Bool {
    guard let productType else { return false }
    return productType.hasPrefix("com.apple.product-type.app-extension")
      || productType == "com.apple.product-type.extensionkit-extension"
      || productType == "com.apple.product-type.watchkit2-extension"
  }
}

/// An `XCConfigurationList`: a project's or target's build configurations.
public struct XCConfigurationListObject: Sendable, Hashable {
  /// The list's id.
  public var id: String
  /// `defaultConfigurationName`: what `xcodebuild` builds when none is named.
  public var defaultConfigurationName: String?
  /// Build configuration ids, in order.
  public var buildConfigurationIDs: [String]
}

/// An `XCBuildConfiguration`: one named configuration of a project or target.
public struct XCBuildConfigurationObject: Sendable, Hashable {
  /// The configuration's id.
  public var id: String
  /// `Debug`, `Release`, …
  public var name: String
  /// The `buildSettings` entries in file order, each with its key's position; conditions parsed out of the
  /// key, array values joined as ``BuildSettingAssignment/value`` describes.
  public var buildSettings: [BuildSettingAssignment]
  /// `baseConfigurationReference`: the file reference of the xcconfig this configuration is based on.
  public var baseConfigurationReferenceID: String?
  /// Xcode 16's `baseConfigurationReferenceAnchor`: a synchronized folder holding the xcconfig …
  public var baseConfigurationReferenceAnchorID: String?
  /// … and `baseConfigurationReferenceRelativePath`, the xcconfig's path inside it.
  public var baseConfigurationReferenceRelativePath: String?
  /// Where the configuration object is written.
  public var location: BuildSettingLocation
}
