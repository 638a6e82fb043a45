import UniformTypes

/// The shared body of `uti for-extension` and `uti for-mime`.
struct UTITagLookup: Encodable {
  let tag: String
  let tagClass: String
  let conformingTo: String?
  /// What `UTType(tag:tagClass:conformingTo:)` returns: the first declared type, or a `dyn.*` identifier.
  let preferred: String
  /// Every declared type with the tag (conforming to `conformingTo`, when given).
  let types: [String]

  init(registry: TypeRegistry, tag: String, tagClass: TypeTagClass, conformingTo: String?) {
    self.tag = tag
    self.tagClass = tagClass.rawValue
    self.conformingTo = conformingTo
    types = registry.types(forTag: tag, tagClass: tagClass, conformingTo: conformingTo)
    preferred =
      types.first
      ?? registry.preferredType(forTag: tag, tagClass: tagClass, conformingTo: conformingTo ?? "public.data")
  }

  /// One type per line, the preferred first; the `dyn.*` identifier alone when no declared type has the tag.
  var text: String {
    types.isEmpty ? preferred : types.joined(separator: "\n")
  }
}
