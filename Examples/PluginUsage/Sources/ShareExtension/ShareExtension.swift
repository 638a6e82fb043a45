/// Stands in for a share extension's code: the package exists to show RuleKit's plugins on its Info.plist.
public enum ShareExtension {
  /// The extension's name.
  public static let name = "Share"
}
