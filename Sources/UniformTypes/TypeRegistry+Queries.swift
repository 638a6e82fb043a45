extension TypeRegistry {
  /// The declared type `identifier` most likely misspells, for a "did you mean" hint: the identifier with a
  /// repeated leading component dropped (`public.public.xbitmap-image`), or the declared identifier fewest
  /// edits away (`public.camera-raw-imag`) — at most one edit per eight characters, at most three, ties to
  /// the first in registry order. Nil when `identifier` is declared itself or nothing is that close.
  public func closestDeclaredType(to identifier: String) -> String? {
    guard declaration(for: identifier) == nil else { return nil }
    let components = identifier.split(separator: ".", omittingEmptySubsequences: false)
    if components.count > 2, components[0].lowercased() == components[1].lowercased() {
      let shortened = components.dropFirst().joined(separator: ".")
      if let declared = declaration(for: shortened) { return declared.identifier }
    }
    let folded = identifier.lowercased()
    var best: (distance: Int, identifier: String)?
    let limit = Swift.min(3, Swift.max(1, folded.count / 8))
    let foldedIsASCII = folded.utf8.allSatisfy { $0 < 0x80 }
    for id in 0..<Int32(graph.count) where graph.isDeclared(id) {
      let candidate = graph.identifiers[Int(id)]
      let bound = best.map { $0.distance - 1 } ?? limit
      // Between ASCII strings the distance is at least the difference in length: most candidates end here,
      // before a lowercased copy of each.
      if foldedIsASCII, abs(candidate.utf8.count - folded.utf8.count) > bound,
        candidate.utf8.allSatisfy({ $0 < 0x80 })
      {
        continue
      }
      guard let distance = editDistance(folded, candidate.lowercased(), limit: bound) else { continue }
      best = (distance, candidate)
    }
    return best?.identifier
  }

  /// Every declared type, in registry order (system types first, then app declarations).
  public var declarations: [TypeDeclaration] {
    (0..<Int32(graph.count)).compactMap { graph.declaration(at: $0) }
  }

  /// The declaration of `identifier` (compared case-insensitively), if this registry has one.
  public func declaration(for identifier: String) -> TypeDeclaration? {
    graph.id(of: identifier).flatMap { graph.declaration(at: $0) }
  }

  /// The direct parents of `identifier`: its declared `UTTypeConformsTo` (cycle-closing edges removed), the
  /// decoded conformance of a `dyn.*` type, or, under ``TwinPolicy/mirrored``, the twins of its base's parents.
  public func parents(of identifier: String) -> [String] {
    var result: [String] = []
    let resolved = resolve(identifier)
    if resolved.id >= 0 {
      result = graph.parents(of: resolved.id).map { graph.identifiers[Int($0)] }
    } else if let dynamic = DynamicTypeIdentifier(decoding: identifier) {
      result = dynamicParents(of: dynamic).map { graph.identifiers[Int($0)] }
    }
    if resolved.hasTwinBase, let base = IntuneTwin.base(ofTwin: identifier) {
      for parent in withTwinPolicy(.literal).parents(of: base) {
        let twin = IntuneTwin.twin(of: parent)
        if !result.contains(where: { isEqual($0, twin) }) { result.append(twin) }
      }
    }
    return result
  }

  /// Every type `identifier` conforms to, itself first, then nearest first (breadth-first over the parents).
  public func ancestors(of identifier: String) -> [String] {
    let start = resolve(identifier).identifier
    var seen: Set<String> = []
    var result: [String] = []
    var queue = [start][...]
    while let current = queue.popFirst() {
      guard seen.insert(current.lowercased()).inserted else { continue }
      result.append(current)
      queue.append(contentsOf: parents(of: current))
    }
    return result
  }

  /// Every type this registry knows that conforms to `identifier`, itself first, then in registry order.
  ///
  /// Under ``TwinPolicy/mirrored`` the descendants of a twin are the twins of its base's descendants.
  public func descendants(of identifier: String) -> [String] {
    let resolved = resolve(identifier)
    var result: [String] = [resolved.identifier]
    if resolved.id >= 0 {
      result += graph.descendants(of: resolved.id).dropFirst().map { graph.identifiers[Int($0)] }
    }
    if resolved.hasTwinBase, let base = IntuneTwin.base(ofTwin: identifier) {
      for descendant in withTwinPolicy(.literal).descendants(of: base).dropFirst() {
        let twin = IntuneTwin.twin(of: descendant)
        if !result.contains(where: { isEqual($0, twin) }) { result.append(twin) }
      }
    }
    return result
  }

  // MARK: Tags

  /// The tags of `identifier` by class: its declaration's, or those a `dyn.*` identifier encodes.
  public func tags(of identifier: String) -> [TypeTagClass: [String]] {
    if let declaration = declaration(for: identifier) { return declaration.tags }
    guard let dynamic = DynamicTypeIdentifier(decoding: identifier) else { return [:] }
    var tags: [TypeTagClass: [String]] = [:]
    for tag in dynamic.tags { tags[tag.tagClass, default: []].append(tag.value) }
    return tags
  }

  /// The first tag of `tagClass` that `identifier` declares (Apple's "preferred" tag), if any.
  public func preferredTag(of identifier: String, tagClass: TypeTagClass) -> String? {
    tags(of: identifier)[tagClass]?.first
  }

  /// The preferred filename extension of `identifier`, e.g. `jpeg` for `public.jpeg`.
  public func preferredFilenameExtension(of identifier: String) -> String? {
    preferredTag(of: identifier, tagClass: .filenameExtension)
  }

  /// The preferred MIME type of `identifier`, e.g. `image/jpeg` for `public.jpeg`.
  public func preferredMIMEType(of identifier: String) -> String? {
    preferredTag(of: identifier, tagClass: .mimeType)
  }

  /// The declared types that carry `tag` in `tagClass` (compared case-insensitively) and conform to
  /// `supertype` when one is given, in registry order.
  public func types(forTag tag: String, tagClass: TypeTagClass, conformingTo supertype: String? = nil)
    -> [String]
  {
    let candidates = graph.ids(forTag: tag, tagClass: tagClass)
    let required = supertype.map(resolve)
    return candidates.compactMap { id in
      let identifier = graph.identifiers[Int(id)]
      if let required, !conforms(resolve(identifier), to: required) { return nil }
      return identifier
    }
  }

  /// The type Apple's `UTType(tag:tagClass:conformingTo:)` gives: the first declared type with the tag
  /// that conforms to `supertype`, otherwise the `dyn.*` identifier Launch Services would create.
  ///
  /// `supertype` defaults to `public.data`, as for `UTType(filenameExtension:)` and `UTType(mimeType:)`.
  public func preferredType(
    forTag tag: String, tagClass: TypeTagClass, conformingTo supertype: String = "public.data"
  ) -> String {
    types(forTag: tag, tagClass: tagClass, conformingTo: supertype).first
      ?? DynamicTypeIdentifier(tag: tag, tagClass: tagClass, conformingTo: supertype).identifier
  }

  /// The declared types for a filename extension (without the dot), optionally conforming to `supertype`.
  public func types(forFilenameExtension filenameExtension: String, conformingTo supertype: String? = nil)
    -> [String]
  {
    types(forTag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
  }

  /// The declared types for a MIME type, optionally conforming to `supertype`.
  public func types(forMIMEType mimeType: String, conformingTo supertype: String? = nil) -> [String] {
    types(forTag: mimeType, tagClass: .mimeType, conformingTo: supertype)
  }

  /// `UTType(filenameExtension:conformingTo:)`: a declared type, or the `dyn.*` one.
  public func preferredType(
    forFilenameExtension filenameExtension: String, conformingTo supertype: String = "public.data"
  ) -> String {
    preferredType(forTag: filenameExtension, tagClass: .filenameExtension, conformingTo: supertype)
  }

  /// `UTType(mimeType:conformingTo:)`: a declared type, or the `dyn.*` one.
  public func preferredType(forMIMEType mimeType: String, conformingTo supertype: String = "public.data")
    -> String
  {
    preferredType(forTag: mimeType, tagClass: .mimeType, conformingTo: supertype)
  }
}
