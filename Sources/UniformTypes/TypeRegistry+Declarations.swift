extension TypeRegistry {
  /// A registry that also knows an app's declarations, reporting what it could not use in ``diagnostics``.
  ///
  /// - The system's declaration of a type wins over an app's: Launch Services does not let apps redefine
  ///   system types, so such a declaration is reported and ignored.
  /// - An exported declaration wins over an imported one for the same identifier (Apple's rule).
  /// - The first of two declarations of one identifier in the same list wins; the second is reported.
  /// - A conformance that would close a cycle is reported and dropped; the rest of the graph stays usable.
  /// - A parent no declaration defines is reported: the type then conforms to it by name only.
  public func adding(_ declarations: AppTypeDeclarations) -> TypeRegistry {
    var diagnostics = self.diagnostics + declarations.diagnostics
    var accepted: [TypeDeclaration] = []
    var acceptedIndex: [String: TypeDeclaration] = [:]
    for declaration in declarations.exported + declarations.imported {
      let folded = declaration.identifier.lowercased()
      let path = declaration.keyPath ?? declaration.identifier
      if let id = graph.id(of: declaration.identifier), let existing = graph.declaration(at: id) {
        let owner = existing.origin == .system ? "the system declares" : "an earlier declaration declares"
        diagnostics.append(
          TypeDeclarationDiagnostic(
            .warning, at: path + ".UTTypeIdentifier",
            "\(owner) '\(existing.identifier)'; this declaration is ignored"))
        continue
      }
      if let earlier = acceptedIndex[folded] {
        let message =
          earlier.origin == .exported && declaration.origin == .imported
          ? "'\(declaration.identifier)' is also exported at \(earlier.keyPath ?? "?"); the exported declaration wins"
          : "'\(declaration.identifier)' is already declared at \(earlier.keyPath ?? "?"); this one is ignored"
        diagnostics.append(TypeDeclarationDiagnostic(.warning, at: path + ".UTTypeIdentifier", message))
        continue
      }
      acceptedIndex[folded] = declaration
      accepted.append(declaration)
    }

    let newGraph = graph.adding(accepted)
    for declaration in accepted {
      let path = (declaration.keyPath ?? declaration.identifier) + ".UTTypeConformsTo"
      for parent in declaration.conformsTo {
        guard let id = newGraph.id(of: parent), !newGraph.isDeclared(id) else { continue }
        diagnostics.append(
          TypeDeclarationDiagnostic(
            .warning, at: path,
            "'\(parent)' is declared nowhere (neither a system type nor an app declaration); declare it, or '\(declaration.identifier)' conforms to it by name only"
          ))
      }
    }
    // Cycles this registry already reported stay in `diagnostics` once.
    let reported = Set(graph.droppedCycleEdges.map { [$0.child, $0.parent] })
    for edge in newGraph.droppedCycleEdges where !reported.contains([edge.child, edge.parent]) {
      let declaration = newGraph.declaration(at: edge.child)
      let path = (declaration?.keyPath ?? newGraph.identifiers[Int(edge.child)]) + ".UTTypeConformsTo"
      diagnostics.append(
        TypeDeclarationDiagnostic(
          .error, at: path,
          "conformance cycle \(edge.cycle.joined(separator: " → ")); the conformance of '\(edge.cycle[0])' to '\(edge.cycle[1])' is ignored"
        ))
    }
    return TypeRegistry(graph: newGraph, twinPolicy: twinPolicy, diagnostics: diagnostics)
  }

  /// A registry that also knows `declarations` (made in code); see ``adding(_:)-(AppTypeDeclarations)``.
  public func adding(_ declarations: [TypeDeclaration]) -> TypeRegistry {
    adding(
      AppTypeDeclarations(
        exported: declarations.filter { $0.origin == .exported },
        imported: declarations.filter { $0.origin != .exported }))
  }
}
