// swift-tools-version: 6.1
import PackageDescription

// A package using RuleKit's SwiftPM plugins: the build-tool plugin lints ShareExtension's Info.plist on
// every build (a syntax error fails it), and `swift package rulekit-lint` / `rulekit-configure --dry-run`
// run on demand. By path here, by URL in a real project; scripts/check-plugins runs all three.
let package = Package(
  name: "PluginUsage",
  platforms: [.macOS(.v15)],
  dependencies: [
    .package(name: "RuleKit", path: "../..")
  ],
  targets: [
    .target(
      name: "ShareExtension",
      exclude: ["Info.plist", "ShareExtension.entitlements"],
      plugins: [.plugin(name: "RuleKitBuildToolPlugin", package: "RuleKit")])
  ],
  swiftLanguageModes: [.v6]
)
