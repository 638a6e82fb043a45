#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// Reads the few environment variables `rulekit` consults. `ProcessInfo.processInfo.environment` copies the
/// whole environment into a dictionary, about an eighth of a `rulekit configure` run's instructions; the
/// C library's `getenv` reads one variable in place.
enum EnvironmentVariables {
  /// The variables among `names` that are set, with their values.
  static func values(of names: [String]) -> [String: String] {
    var found: [String: String] = [:]
    for name in names {
      if let value = getenv(name) { found[name] = String(cString: value) }
    }
    return found
  }
}
