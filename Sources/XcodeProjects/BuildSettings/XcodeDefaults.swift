import PropertyLists

#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// The settings Xcode supplies beneath the project's own: what `xcodebuild -showBuildSettings` prints for a
/// project that sets nothing, limited to those a bundle's identity, Info.plist and entitlements depend on.
///
/// Sources: Apple's Build Settings Reference (developer.apple.com/documentation/xcode/build-settings-reference:
/// PRODUCT_NAME, PRODUCT_MODULE_NAME, INFOPLIST_EXPAND_BUILD_SETTINGS default YES, GENERATE_INFOPLIST_FILE
/// default NO, DEVELOPMENT_LANGUAGE), swift-build's core build-system and product-type specs
/// (SWBCore/…: PRODUCT_NAME from TARGET_NAME in new targets, PRODUCT_MODULE_NAME as
/// `$(PRODUCT_NAME:c99extidentifier)`, WRAPPER_EXTENSION per product type, EFFECTIVE_PLATFORM_NAME `-iphoneos`
/// for device and simulator SDKs and empty for macOS), and `-showBuildSettings` output of Xcode's own
/// templates (TARGET_NAME/TARGETNAME, PROJECT_NAME, SRCROOT = PROJECT_DIR = SOURCE_ROOT, CONFIGURATION).
enum XcodeDefaults {
  /// The product types' wrapper extensions and package types (`PRODUCT_BUNDLE_PACKAGE_TYPE`).
  static let productTypes: [String: (wrapper: String, packageType: String)] = [
    "com.apple.product-type.application": ("app", "APPL"),
    "com.apple.product-type.application.on-demand-install-capable": ("app", "APPL"),
    "com.apple.product-type.application.watchapp2": ("app", "APPL"),
    "com.apple.product-type.application.watchapp2-container": ("app", "APPL"),
    "com.apple.product-type.application.messages": ("app", "APPL"),
    "com.apple.product-type.app-extension": ("appex", "XPC!"),
    "com.apple.product-type.app-extension.messages": ("appex", "XPC!"),
    "com.apple.product-type.app-extension.messages-sticker-pack": ("appex", "XPC!"),
    "com.apple.product-type.extensionkit-extension": ("appex", "XPC!"),
    "com.apple.product-type.watchkit2-extension": ("appex", "XPC!"),
    "com.apple.product-type.framework": ("framework", "FMWK"),
    "com.apple.product-type.bundle": ("bundle", "BNDL"),
    "com.apple.product-type.bundle.unit-test": ("xctest", "BNDL"),
    "com.apple.product-type.bundle.ui-testing": ("xctest", "BNDL"),
    "com.apple.product-type.xpc-service": ("xpc", "XPC!"),
  ]

  /// The platform part of an SDK name: `iphoneos` for `iphoneos18.2`.
  static func platform(ofSDK sdk: String) -> String {
    String(sdk.prefix { !$0.isNumber && $0 != "." })
  }

  static func assignments(
    project: XcodeProject, target: XcodeTarget, configuration: String, sdk: String, arch: String
  ) -> [BuildSettingAssignment] {
    let platform = platform(ofSDK: sdk)
    // Xcode's SRCROOT is absolute, so a setting built from it (`$(SRCROOT)/App/App.entitlements`) names a
    // file wherever it is used, and ResolvedBuildSettings.path(for:) does not join it to the root again.
    let sourceRoot =
      XcodePath.isAbsolute(project.sourceRoot)
      ? project.sourceRoot
      : XcodePath.normalize(XcodePath.join(FileManager.default.currentDirectoryPath, project.sourceRoot))
    var values: [(String, String)] = [
      ("ACTION", "build"),
      ("TARGET_NAME", target.name), ("TARGETNAME", target.name),
      ("PROJECT_NAME", project.name), ("PROJECT", project.name),
      ("PROJECT_DIR", sourceRoot), ("SRCROOT", sourceRoot), ("SOURCE_ROOT", sourceRoot),
      ("PROJECT_FILE_PATH", project.path),
      ("CONFIGURATION", configuration),
      ("SDKROOT", sdk), ("SDK_NAME", sdk), ("PLATFORM_NAME", platform),
      // macOS products have no platform suffix in their build folders; every other platform has one.
      ("EFFECTIVE_PLATFORM_NAME", platform == "macosx" ? "" : "-" + platform),
      ("ARCHS", arch), ("CURRENT_ARCH", arch), ("NATIVE_ARCH", arch), ("CURRENT_VARIANT", "normal"),
      ("PRODUCT_NAME", "$(TARGET_NAME)"),
      ("PRODUCT_MODULE_NAME", "$(PRODUCT_NAME:c99extidentifier)"),
      ("EXECUTABLE_PREFIX", ""), ("EXECUTABLE_SUFFIX", ""),
      ("EXECUTABLE_NAME", "$(EXECUTABLE_PREFIX)$(PRODUCT_NAME)$(EXECUTABLE_SUFFIX)"),
      ("DEVELOPMENT_LANGUAGE", "en"),
      ("INFOPLIST_EXPAND_BUILD_SETTINGS", "YES"),
      ("GENERATE_INFOPLIST_FILE", "NO"),
      ("DEVELOPER_DIR", "/Applications/Xcode.app/Contents/Developer"),
      // No build locations (BUILT_PRODUCTS_DIR, SYMROOT…): Xcode puts them in a per-machine DerivedData
      // folder the project does not determine, so a reference to one expands to nothing here.
    ]
    if let productType = target.productType {
      values.append(("PRODUCT_TYPE", productType))
      if let known = productTypes[productType] {
        values += [
          ("WRAPPER_EXTENSION", known.wrapper), ("WRAPPER_SUFFIX", ".$(WRAPPER_EXTENSION)"),
          ("WRAPPER_NAME", "$(PRODUCT_NAME).$(WRAPPER_EXTENSION)"), ("FULL_PRODUCT_NAME", "$(WRAPPER_NAME)"),
          ("PRODUCT_BUNDLE_PACKAGE_TYPE", known.packageType),
          // iOS bundles are flat; macOS ones have Contents/.
          ("CONTENTS_FOLDER_PATH", platform == "macosx" ? "$(WRAPPER_NAME)/Contents" : "$(WRAPPER_NAME)"),
          ("INFOPLIST_PATH", "$(CONTENTS_FOLDER_PATH)/Info.plist"),
        ]
      } else {
        values.append(("FULL_PRODUCT_NAME", "$(EXECUTABLE_NAME)"))
      }
    }
    let location = BuildSettingLocation(file: "<Xcode defaults>")
    return values.map { BuildSettingAssignment(name: $0.0, value: $0.1, location: location) }
  }
}
