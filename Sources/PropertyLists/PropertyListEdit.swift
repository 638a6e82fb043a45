/// One change to a property list, as a value: a plan of edits can be shown (``description``,
/// ``UnifiedDiff``) before it is applied.
///
/// Every edit is idempotent when its result is already there: setting a value a key already has,
/// inserting an entry that exists with the same value, appending with `unlessPresent` an element already
/// in the array, or removing what is not there changes nothing, byte for byte.
public enum PropertyListEdit: Sendable, Hashable, CustomStringConvertible {
  /// Where ``insert(key:value:into:position:)`` puts a new dictionary entry.
  public enum Position: Sendable, Hashable {
    /// After the last entry.
    case end
    /// Right after the entry for this key (which must exist).
    case after(String)
    /// Right before the entry for this key (which must exist).
    case before(String)
  }

  /// Sets the value at a path: a string, number or boolean is changed in place (only its text); a
  /// dictionary or array set to one of the same kind is changed entry by entry, so unchanged parts keep
  /// their text and comments (when the kept keys' order allows; otherwise, and for a change of type, the
  /// element is rewritten). A missing key is added at the end of its dictionary, and missing dictionaries
  /// on the way are created.
  case set(PropertyListPath, PropertyListValue)
  /// Adds `key` to the dictionary at `into`. Fails when the key exists with another value.
  case insert(key: String, value: PropertyListValue, into: PropertyListPath, position: Position = .end)
  /// Appends to the array at `to`; with `unlessPresent`, nothing happens when an equal element is there.
  case append(PropertyListValue, to: PropertyListPath, unlessPresent: Bool = false)
  /// Inserts into the array at `into` so the new element ends up at `index` (`0` is first, the count
  /// appends); with `unlessPresent`, nothing happens when an equal element is anywhere in the array.
  case insertElement(PropertyListValue, into: PropertyListPath, at: Int, unlessPresent: Bool = false)
  /// Removes the entry or element at a path, with its line when it has one to itself.
  case remove(PropertyListPath)

  /// The edit in words, naming its path, for messages and dry runs.
  public var description: String {
    switch self {
    case .set(let path, let value):
      return "set \(path) to \(Self.summary(value))"
    case .insert(let key, let value, let path, let position):
      let place =
        switch position {
        case .end: ""
        case .after(let predecessor): " after \(predecessor)"
        case .before(let successor): " before \(successor)"
        }
      return "insert \(key) = \(Self.summary(value)) into \(path)\(place)"
    case .append(let value, let path, let unlessPresent):
      return "append \(Self.summary(value)) to \(path)\(unlessPresent ? " unless present" : "")"
    case .insertElement(let value, let path, let index, let unlessPresent):
      return
        "insert \(Self.summary(value)) into \(path) at [\(index)]\(unlessPresent ? " unless present" : "")"
    case .remove(let path):
      return "remove \(path)"
    }
  }

  static func summary(_ value: PropertyListValue) -> String {
    switch value {
    case .string(let text): "\"\(text)\""
    case .integer(let number): "\(number)"
    case .real(let number): PropertyListScalars.text(of: number)
    case .bool(let flag): flag ? "true" : "false"
    case .date(let date): PropertyListScalars.text(of: date)
    case .data(let bytes): "<\(bytes.count) bytes>"
    case .array(let elements): "array of \(elements.count)"
    case .dictionary(let dictionary): "dictionary of \(dictionary.count)"
    }
  }
}

extension PropertyListValue {
  /// This value with `edit` applied: the same semantics as `PropertyListDocument.applying(_:)` without
  /// text. Used for binary and OpenStep plists, which are rewritten from their values.
  public func applying(_ edit: PropertyListEdit) throws(PropertyListError) -> PropertyListValue {
    switch edit {
    case .set(let path, let value):
      return try updating(path.components[...], path: path) { _ in value }
    case .insert(let key, let value, let path, let position):
      return try updating(path.components[...], path: path) { current throws(PropertyListError) in
        guard case .dictionary(var dictionary)? = current else {
          throw PropertyListError(.invalidEdit, "no dictionary at \(path) to insert \(key) into")
        }
        if let existing = dictionary[key] {
          guard existing == value else {
            throw PropertyListError(
              .invalidEdit, "\(path.appending(.key(key))) already exists with another value")
          }
          return current ?? value
        }
        switch position {
        case .end:
          dictionary.insert(value, forKey: key, after: nil)
        case .after(let predecessor):
          guard dictionary[predecessor] != nil else {
            throw PropertyListError(.invalidEdit, "no key \(predecessor) in \(path) to insert \(key) after")
          }
          dictionary.insert(value, forKey: key, after: predecessor)
        case .before(let successor):
          guard let index = dictionary.index(forKey: successor) else {
            throw PropertyListError(.invalidEdit, "no key \(successor) in \(path) to insert \(key) before")
          }
          dictionary.insert(value, forKey: key, at: index)
        }
        return .dictionary(dictionary)
      }
    case .append(let value, let path, let unlessPresent):
      return try updating(path.components[...], path: path) { current throws(PropertyListError) in
        guard case .array(var elements)? = current else {
          throw PropertyListError(.invalidEdit, "no array at \(path) to append to")
        }
        if !(unlessPresent && elements.contains(value)) { elements.append(value) }
        return .array(elements)
      }
    case .insertElement(let value, let path, let index, let unlessPresent):
      return try updating(path.components[...], path: path) { current throws(PropertyListError) in
        guard case .array(var elements)? = current else {
          throw PropertyListError(.invalidEdit, "no array at \(path) to insert into")
        }
        if unlessPresent && elements.contains(value) { return .array(elements) }
        guard (0...elements.count).contains(index) else {
          throw PropertyListError(
            .invalidEdit, "\(path) has \(elements.count) elements; cannot insert at [\(index)]")
        }
        elements.insert(value, at: index)
        return .array(elements)
      }
    case .remove(let path):
      guard let last = path.components.last else {
        throw PropertyListError(.invalidEdit, "the root value cannot be removed")
      }
      guard self.value(at: path) != nil else { return self }
      return try updating(path.parent.components[...], path: path.parent) { current in
        switch (current, last) {
        case (.dictionary(var dictionary)?, .key(let key)):
          dictionary[key] = nil
          return .dictionary(dictionary)
        case (.array(var elements)?, .index(let index)):
          elements.remove(at: index)
          return .array(elements)
        default:
          return current ?? self
        }
      }
    }
  }

  /// Rebuilds the value with the node at `components` replaced by `transform(old)`; missing dictionary
  /// keys are created (the transform sees `nil`), intermediate ones as empty dictionaries.
  func updating(
    _ components: ArraySlice<PropertyListPathComponent>, path: PropertyListPath,
    _ transform: (PropertyListValue?) throws(PropertyListError) -> PropertyListValue
  ) throws(PropertyListError) -> PropertyListValue {
    guard let first = components.first else { return try transform(self) }
    let rest = components.dropFirst()
    switch (first, self) {
    case (.key(let key), .dictionary(var dictionary)):
      if let child = dictionary[key] {
        dictionary[key] = try child.updating(rest, path: path, transform)
      } else if rest.isEmpty {
        dictionary[key] = try transform(nil)
      } else {
        dictionary[key] = try PropertyListValue.dictionary([:]).updating(rest, path: path, transform)
      }
      return .dictionary(dictionary)
    case (.index(let index), .array(var elements)) where elements.indices.contains(index):
      elements[index] = try elements[index].updating(rest, path: path, transform)
      return .array(elements)
    default:
      throw PropertyListError(.invalidEdit, "\(path) does not exist (at \(first))")
    }
  }
}
