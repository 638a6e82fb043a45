import ArgumentParser
import UniformTypes

/// `rulekit uti info A`: what the registry knows about a type: declaration, parents, ancestors, tags.
struct UTIInfoCommand: ParsableCommand, ConsoleConfigurable {
  static let configuration = CommandConfiguration(
    commandName: "info", abstract: "Print a type's declaration, parents, ancestors and tags.",
    discussion: """
      Examples:
        rulekit uti info public.jpeg
        rulekit uti info dyn.ah62d4rv4ge80s6d2 --format json
      """)

  @Argument(help: "The type identifier.") var type: String
  @OptionGroup var options: UTIOptions

  var consoleSettings: ConsoleSettings { options.consoleSettings }

  private struct Info: Encodable {
    let identifier: String
    let declaredBy: String
    let description: String
    let parents: [String]
    let ancestors: [String]
    let tags: [String: [String]]
    let dynamic: Bool
    let twinOf: String?
  }

  func run() throws {
    let registry = try options.registry()
    options.noteUndeclared([type], in: registry)
    let declaration = registry.declaration(for: type)
    let isDynamic = DynamicTypeIdentifier(decoding: type) != nil
    let declaredBy = declaration?.origin.rawValue ?? (isDynamic ? "dynamic" : "nobody")
    let tags = registry.tags(of: type)
    let info = Info(
      identifier: registry.resolve(type).identifier,
      declaredBy: declaredBy,
      description: declaration?.typeDescription ?? "",
      parents: registry.parents(of: type),
      ancestors: registry.ancestors(of: type),
      tags: Dictionary(uniqueKeysWithValues: tags.map { ($0.key.rawValue, $0.value) }),
      dynamic: isDynamic,
      twinOf: IntuneTwin.base(ofTwin: type))
    var lines = [
      "identifier: \(info.identifier)",
      "declared by: \(declaredBy)" + (declaration?.keyPath.map { " (\($0))" } ?? ""),
    ]
    if !info.description.isEmpty { lines.append("description: \(info.description)") }
    if let base = info.twinOf {
      lines.append("Intune twin of: \(base) (twin policy: \(registry.twinPolicy.rawValue))")
    }
    lines.append("parents: " + (info.parents.isEmpty ? "(none)" : info.parents.joined(separator: ", ")))
    lines.append("ancestors: " + info.ancestors.joined(separator: ", "))
    for tagClass in tags.keys.sorted() {
      lines.append("\(tagClass.rawValue): " + (tags[tagClass] ?? []).joined(separator: ", "))
    }
    try options.emit(text: lines.joined(separator: "\n"), json: info)
  }
}
