// swift-tools-version: 6.1
import PackageDescription

// swift-docc-plugin's `snippet-extract`, which turns Snippets/*.swift into the symbol graph DocC's
// `@Snippet(path:)` reads. scripts/docs builds it with `swift build --package-path scripts/snippet-extract
// --product snippet-extract`: a package of its own, so RuleKit's users do not resolve swift-docc-plugin.
let package = Package(
  name: "SnippetExtract",
  dependencies: [
    .package(url: "https://github.com/swiftlang/swift-docc-plugin", exact: "1.5.0")
  ],
  targets: []
)
