/// Extension points whose extensions iOS offers by their `NSExtensionActivationRule`.
enum ExtensionPoint {
  /// Share (`com.apple.share-services`), action with and without a user interface (`com.apple.ui-services`,
  /// `com.apple.services`), and broadcast setup (`com.apple.broadcast-services-setupui`, whose Xcode template
  /// carries a rule too). Keyboards, widgets, notification, file provider and other extensions have none.
  static let activatedByRule: Set<String> = [
    "com.apple.share-services", "com.apple.ui-services", "com.apple.services",
    "com.apple.broadcast-services-setupui",
  ]
}
