/// A node of a property-list tree that keeps where its values are in the file (``PropertyListNode`` of an XML
/// document, ``OpenStepNode`` of an OpenStep one): what ``PropertyListPath`` needs to walk down it.
protocol PathWalkableNode {
  /// Whether the node is a dictionary or an array; a path cannot step into anything else.
  var isDictionary: Bool { get }
  var isArray: Bool { get }
  /// The value node for `key` in a dictionary (the last one, should the key repeat).
  func child(forKey key: String) -> Self?
  /// The elements of an array, in order.
  var elements: [Self] { get }
}

extension PropertyListPath {
  /// The node this path leads to from `root`; `nil` when a component is missing or steps into a value that
  /// is not a container. One walk for both document kinds, so they cannot come to read a path differently.
  func node<Node: PathWalkableNode>(from root: Node) -> Node? {
    var current = root
    for component in components {
      switch component {
      case .key(let key):
        guard current.isDictionary, let child = current.child(forKey: key) else { return nil }
        current = child
      case .index(let index):
        guard current.isArray, current.elements.indices.contains(index) else { return nil }
        current = current.elements[index]
      }
    }
    return current
  }
}

extension PropertyListNode: PathWalkableNode {
  var isDictionary: Bool { kind == .dictionary }
  var isArray: Bool { kind == .array }
  func child(forKey key: String) -> PropertyListNode? { entry(forKey: key)?.value }
}

extension OpenStepNode: PathWalkableNode {
  var isDictionary: Bool { kind == .dictionary }
  var isArray: Bool { kind == .array }
  func child(forKey key: String) -> OpenStepNode? { entry(forKey: key)?.value }
}
