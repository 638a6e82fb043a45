#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// A byte range of a document and the text that replaces it.
struct TextReplacement {
  var range: Range<Int>
  var text: String
}

extension PropertyListDocument {
  /// A new document with `edits` applied in order, each as the smallest text change that does it.
  ///
  /// New entries are indented like their siblings, with the file's line ending and entity style; nothing
  /// else in the file changes. An edit whose result is already there changes nothing.
  ///
  /// - Throws: ``PropertyListError/Kind/invalidEdit`` when a path does not exist or points at the wrong
  ///   kind of value; the document is unchanged then.
  public func applying(_ edits: [PropertyListEdit]) throws(PropertyListError) -> PropertyListDocument {
    if edits.count > 1, let batched = batchApplying(edits) { return batched }
    var document = self
    for edit in edits {
      document = try document.applying(edit)
    }
    return document
  }

  /// `edits` as text replacements all computed against this document and applied together, so the file
  /// is parsed once rather than once per edit (which was most of a `rulekit configure` run's own work).
  ///
  /// Only when every edit is one replacement, the replacements do not overlap (insertions at one offset
  /// keep the edits' order, as one-by-one application does), and the result reads back to exactly the value
  /// the edits make one by one; `nil` otherwise, and the caller applies them one by one.
  func batchApplying(_ edits: [PropertyListEdit]) -> PropertyListDocument? {
    var replacements: [(order: Int, replacement: TextReplacement)] = []
    for (order, edit) in edits.enumerated() {
      switch edit {
      case .remove:
        return nil  // A removal may repeat (duplicate keys); one by one.
      case .set(let path, let value):
        // A container set to a container becomes several edits of its parts; one by one.
        if let existing = node(at: path), Self.decomposition(of: existing, into: value, at: path) != nil {
          return nil
        }
      case .insert, .append, .insertElement:
        break
      }
      // An edit that fails here (say, on a node an earlier edit creates) is left to the one-by-one path.
      let replacement: TextReplacement?
      do {
        replacement = try self.checkedReplacement(for: edit)
      } catch {
        return nil
      }
      // `nil`: the edit's result is already there.
      if let replacement { replacements.append((order, replacement)) }
    }
    // From the end of the file backwards, so earlier offsets stay valid; at one offset the later edit
    // goes in first, which leaves the earlier edit's text in front, as applying them in order does.
    let sorted = replacements.sorted {
      ($0.replacement.range.lowerBound, $0.order) > ($1.replacement.range.lowerBound, $1.order)
    }
    for (higher, lower) in zip(sorted, sorted.dropFirst()) {
      let high = higher.replacement.range
      let low = lower.replacement.range
      guard low.upperBound <= high.lowerBound else { return nil }
      // At one offset only insertions commute with the order rule above.
      if low.lowerBound == high.lowerBound && !(low.isEmpty && high.isEmpty) { return nil }
    }
    var newBytes = bytes
    for entry in sorted {
      newBytes.replaceSubrange(entry.replacement.range, with: Array(entry.replacement.text.utf8))
    }
    guard
      let document = try? PropertyListDocument(
        bytes: newBytes, path: path, duplicateKeys: duplicateKeyPolicy, preprocessing: preprocessing)
    else { return nil }
    var expected = value
    for edit in edits {
      guard let next = try? expected.applying(edit) else { return nil }
      expected = next
    }
    return document.value == expected ? document : nil
  }

  /// A new document with one edit applied, as the smallest text change that does it.
  public func applying(_ edit: PropertyListEdit) throws(PropertyListError) -> PropertyListDocument {
    if case .set(let path, let value) = edit, let existing = node(at: path),
      let parts = Self.decomposition(of: existing, into: value, at: path)
    {
      return try applying(parts)
    }
    var document = self
    // A removal repeats so that every entry of a duplicated key (under `.keepLast`) goes, as in the value.
    while let replacement = try document.replacementInFile(for: edit) {
      var newBytes = document.bytes
      newBytes.replaceSubrange(replacement.range, with: Array(replacement.text.utf8))
      document = try PropertyListDocument(
        bytes: newBytes, path: path, duplicateKeys: duplicateKeyPolicy, preprocessing: preprocessing)
      guard case .remove(let removed) = edit, case .key? = removed.components.last else { break }
    }
    return document
  }

  /// Setting a container to a container of the same kind as edits of its entries or elements, so the
  /// parts that stay keep their text (comments included). `nil` when that cannot keep the new value's
  /// order; the element is then rewritten whole.
  static func decomposition(
    of node: PropertyListNode, into value: PropertyListValue, at path: PropertyListPath
  ) -> [PropertyListEdit]? {
    switch (node.kind, value) {
    case (.dictionary, .dictionary(let new)):
      let oldKeys = node.entries.map(\.key)
      guard Set(oldKeys).count == oldKeys.count else { return nil }
      let newKeys = Set(new.keys)
      let kept = oldKeys.filter(newKeys.contains)
      let keptSet = Set(kept)
      // Kept keys must already be in the new order.
      guard kept == new.keys.filter(keptSet.contains) else { return nil }
      var edits: [PropertyListEdit] = oldKeys.filter { !newKeys.contains($0) }.map {
        .remove(path.appending(.key($0)))
      }
      var previous: String?
      for entry in new.entries {
        if keptSet.contains(entry.key) {
          edits.append(.set(path.appending(.key(entry.key)), entry.value))
        } else {
          let position: PropertyListEdit.Position =
            previous.map { .after($0) } ?? kept.first.map { .before($0) } ?? .end
          edits.append(.insert(key: entry.key, value: entry.value, into: path, position: position))
        }
        previous = entry.key
      }
      return edits
    case (.array, .array(let new)):
      let oldCount = node.elements.count
      var edits: [PropertyListEdit] = []
      for index in 0..<min(oldCount, new.count) {
        edits.append(.set(path.appending(.index(index)), new[index]))
      }
      if new.count > oldCount {
        edits += new[oldCount...].map { .append($0, to: path) }
      } else {
        edits += (new.count..<oldCount).reversed().map { .remove(path.appending(.index($0))) }
      }
      return edits
    default:
      return nil
    }
  }

  func replacementInFile(for edit: PropertyListEdit) throws(PropertyListError) -> TextReplacement? {
    do {
      return try checkedReplacement(for: edit)
    } catch {
      throw error.inFile(path)
    }
  }

  /// ``replacement(for:)``, refused when it would change a preprocessor directive line or skipped text:
  /// those bytes are the author's, and changing them would change the value for other definitions.
  func checkedReplacement(for edit: PropertyListEdit) throws(PropertyListError) -> TextReplacement? {
    let replacement = try replacement(for: edit)
    if let replacement, let report = preprocessorReport, report.touchesPreprocessorText(replacement.range) {
      throw PropertyListError(
        .invalidEdit,
        "\(edit) would change preprocessor directive lines or text in a branch not taken",
        position: position(ofOffset: replacement.range.lowerBound),
        hint: "edit this part of the preprocessed file by hand")
    }
    return replacement
  }

  func replacement(for edit: PropertyListEdit) throws(PropertyListError) -> TextReplacement? {
    switch edit {
    case .set(let path, let value):
      return try setReplacement(path: path, value: value)
    case .insert(let key, let value, let path, let position):
      guard let container = node(at: path), container.kind == .dictionary else {
        throw PropertyListError(.invalidEdit, "no dictionary at \(path) to insert \(key) into")
      }
      if let existing = container.entry(forKey: key) {
        guard existing.value.value == value else {
          throw PropertyListError(
            .invalidEdit, "\(path.appending(.key(key))) already exists with another value",
            position: existing.keyPosition, hint: "use a set edit to change it")
        }
        return nil
      }
      var anchor: PropertyListNodeEntry?
      switch position {
      case .end:
        anchor = container.entries.last
      case .after(let predecessor):
        guard let found = container.entry(forKey: predecessor) else {
          throw PropertyListError(
            .invalidEdit, "no key \(predecessor) in \(path) to insert \(key) after",
            position: container.position)
        }
        anchor = found
      case .before(let successor):
        guard let found = container.entry(forKey: successor) else {
          throw PropertyListError(
            .invalidEdit, "no key \(successor) in \(path) to insert \(key) before",
            position: container.position)
        }
        return insertion(before: found.keyRange.lowerBound, in: container) { indent, style in
          Self.entryText(key: key, value: value, indent: indent, style: style)
        }
      }
      return insertion(
        into: container, after: anchor?.value,
        newItem: { indent, style in Self.entryText(key: key, value: value, indent: indent, style: style) })
    case .append(let value, let path, let unlessPresent):
      guard let container = node(at: path), container.kind == .array else {
        throw PropertyListError(.invalidEdit, "no array at \(path) to append to")
      }
      if unlessPresent, container.elements.contains(where: { $0.value == value }) { return nil }
      return insertion(
        into: container, after: container.elements.last,
        newItem: { indent, style in PropertyListSerializer.element(value, indent: indent, style: style) })
    case .insertElement(let value, let path, let index, let unlessPresent):
      guard let container = node(at: path), container.kind == .array else {
        throw PropertyListError(.invalidEdit, "no array at \(path) to insert into")
      }
      if unlessPresent, container.elements.contains(where: { $0.value == value }) { return nil }
      guard (0...container.elements.count).contains(index) else {
        throw PropertyListError(
          .invalidEdit, "\(path) has \(container.elements.count) elements; cannot insert at [\(index)]",
          position: container.position)
      }
      if index < container.elements.count {
        return insertion(before: container.elements[index].elementRange.lowerBound, in: container) {
          indent, style in
          PropertyListSerializer.element(value, indent: indent, style: style)
        }
      }
      return insertion(
        into: container, after: container.elements.last,
        newItem: { indent, style in PropertyListSerializer.element(value, indent: indent, style: style) })
    case .remove(let path):
      guard let last = path.components.last else {
        throw PropertyListError(.invalidEdit, "the root value cannot be removed")
      }
      guard let parent = node(at: path.parent) else { return nil }
      switch last {
      case .key(let key):
        guard parent.kind == .dictionary, let entry = parent.entry(forKey: key) else { return nil }
        return removal(of: entry.keyRange.lowerBound..<entry.value.elementRange.upperBound)
      case .index(let index):
        guard parent.kind == .array, parent.elements.indices.contains(index) else { return nil }
        return removal(of: parent.elements[index].elementRange)
      }
    }
  }

  func setReplacement(path: PropertyListPath, value: PropertyListValue) throws(PropertyListError)
    -> TextReplacement?
  {
    if let existing = node(at: path) {
      if existing.value == value { return nil }
      return replacement(of: existing, with: value)
    }
    guard case .key(let key)? = path.components.last else {
      throw PropertyListError(.invalidEdit, "\(path) does not exist")
    }
    if let parent = node(at: path.parent) {
      guard parent.kind == .dictionary else {
        throw PropertyListError(
          .invalidEdit, "\(path.parent) is not a dictionary, so \(key) cannot be set in it",
          position: parent.position)
      }
      return try replacement(for: .insert(key: key, value: value, into: path.parent, position: .end))
    }
    // Create the missing dictionaries on the way as one new entry.
    return try setReplacement(path: path.parent, value: .dictionary([key: value]))
  }

  /// Replaces a value element: only the text for a scalar of the same type, the element otherwise.
  func replacement(of node: PropertyListNode, with value: PropertyListValue) -> TextReplacement {
    let content: String? =
      switch (node.kind, value) {
      case (.string, .string(let text)): PropertyListSerializer.escape(text, style.entities)
      case (.integer, .integer(let number)): "\(number)"
      case (.real, .real(let number)): PropertyListScalars.text(of: number)
      case (.date, .date(let date)): PropertyListScalars.text(of: date)
      default: nil
      }
    if let content, !node.isSelfClosing {
      return TextReplacement(range: node.contentRange, text: content)
    }
    let scan = TextScan(bytes, lines)
    let indent = scan.indent(ofLineContaining: node.elementRange.lowerBound)
    let element = PropertyListSerializer.element(value, indent: indent, style: style)
    // A container rewritten whole keeps its comments (they are the author's), before the new value.
    guard node.kind == .dictionary || node.kind == .array else {
      return TextReplacement(range: node.elementRange, text: element)
    }
    return TextReplacement(
      range: node.elementRange,
      text: XMLComments.replacement(
        of: node.elementRange, in: bytes, with: element, lineEnding: style.lineEnding))
  }

  /// Inserts a new entry or element into a container after `predecessor` (or as the first item when the
  /// container is empty), on its own line and indented like its siblings; in a container written on one
  /// line, inline without whitespace.
  func insertion(
    into container: PropertyListNode, after predecessor: PropertyListNode?,
    newItem: (_ indent: String, _ style: PropertyListTextStyle) -> String
  ) -> TextReplacement {
    let scan = TextScan(bytes, lines)
    let containerIndent = scan.indent(ofLineContaining: container.elementRange.lowerBound)
    let siblingStarts =
      container.kind == .dictionary
      ? container.entries.map(\.keyRange.lowerBound) : container.elements.map(\.elementRange.lowerBound)
    let name = container.kind == .dictionary ? "dict" : "array"
    let ownLines =
      siblingStarts.isEmpty
      ? scan.isFirstOnLine(container.elementRange.lowerBound)
      : siblingStarts.contains(where: scan.isFirstOnLine)
    guard ownLines else {
      let compact = PropertyListTextStyle(indentation: "", lineEnding: "", entities: style.entities)
      let item = newItem("", compact)
      if let predecessor {
        let end = predecessor.elementRange.upperBound
        return TextReplacement(range: end..<end, text: item)
      }
      if container.isSelfClosing {
        return TextReplacement(range: container.elementRange, text: "<\(name)>" + item + "</\(name)>")
      }
      let end = container.contentRange.upperBound
      return TextReplacement(range: end..<end, text: item)
    }
    let indent =
      siblingStarts.last(where: scan.isFirstOnLine).map(scan.indent(ofLineContaining:))
      ?? containerIndent + style.indentation
    let item = style.lineEnding + indent + newItem(indent, style(nestingUnder: indent, in: container, scan))
    if let predecessor {
      // After the predecessor and any comment that shares its line, so that comment stays with it.
      let end = predecessor.elementRange.upperBound
      var anchor = scan.endOfLineAfterTrivia(from: end) ?? end
      // Not into a conditional block the predecessor is in: after its #endif line.
      if let report = preprocessorReport {
        anchor = report.insertionPoint(
          anchor, outsideBlocksNotContaining: container.elementRange.lowerBound, forward: true)
      }
      return TextReplacement(range: anchor..<anchor, text: item)
    }
    let closing = style.lineEnding + containerIndent
    if container.isSelfClosing {
      return TextReplacement(range: container.elementRange, text: "<\(name)>" + item + closing + "</\(name)>")
    }
    // An empty container may hold comments: keep them, replace only the trailing whitespace.
    var end = container.contentRange.upperBound
    while end > container.contentRange.lowerBound, bytes[end - 1].isXMLWhitespace { end -= 1 }
    return TextReplacement(range: end..<container.contentRange.upperBound, text: item + closing)
  }

  /// `<key>…</key>` and its value element, the value on the next line.
  static func entryText(key: String, value: PropertyListValue, indent: String, style: PropertyListTextStyle)
    -> String
  {
    "<key>" + PropertyListSerializer.escape(key, style.entities) + "</key>" + style.lineEnding + indent
      + PropertyListSerializer.element(value, indent: indent, style: style)
  }

  /// Inserts an entry or element before the item starting at `start`: on lines of its own, indented like
  /// that item, when the item starts its line; inline otherwise.
  func insertion(
    before start: Int, in container: PropertyListNode,
    newItem: (_ indent: String, _ style: PropertyListTextStyle) -> String
  ) -> TextReplacement {
    let scan = TextScan(bytes, lines)
    guard scan.isFirstOnLine(start) else {
      let compact = PropertyListTextStyle(indentation: "", lineEnding: "", entities: style.entities)
      return TextReplacement(range: start..<start, text: newItem("", compact))
    }
    let indent = scan.indent(ofLineContaining: start)
    var lineStart = scan.lineStart(of: start)
    // Comment lines right above the item describe it: the new item goes above them.
    while lineStart > 0 {
      let previousStart = scan.lineStart(of: lineStart - 1)
      let previous = String(decoding: bytes[previousStart..<lineStart], as: UTF8.self).trimmingXMLWhitespace()
      guard previous.hasPrefix("<!--"), previous.hasSuffix("-->") else { break }
      lineStart = previousStart
    }
    // Not into a conditional block the successor is in: before its #if line.
    if let report = preprocessorReport {
      lineStart = report.insertionPoint(
        lineStart, outsideBlocksNotContaining: container.elementRange.lowerBound, forward: false)
    }
    return TextReplacement(
      range: lineStart..<lineStart,
      text: indent + newItem(indent, style(nestingUnder: indent, in: container, scan)) + style.lineEnding)
  }

  /// The style for an item written at `indent` in `container`: the file's, with the indentation unit its
  /// neighbours use when they differ from the file's. Files that mix tabs and spaces are common (Flutter
  /// plugins' setup steps paste four-space snippets into Xcode's tab-indented Info.plist), and a new array's
  /// elements then go one of the siblings' own steps deeper, not `"    " + "\t"`.
  func style(nestingUnder indent: String, in container: PropertyListNode, _ scan: TextScan)
    -> PropertyListTextStyle
  {
    let siblings = container.kind == .dictionary ? container.entries.map(\.value) : container.elements
    for sibling in siblings.reversed()
    where scan.isFirstOnLine(sibling.elementRange.lowerBound)
      && scan.indent(ofLineContaining: sibling.elementRange.lowerBound) == indent
    {
      let children =
        sibling.kind == .dictionary
        ? sibling.entries.map(\.keyRange.lowerBound) : sibling.elements.map(\.elementRange.lowerBound)
      guard let child = children.first(where: scan.isFirstOnLine) else { continue }
      let childIndent = scan.indent(ofLineContaining: child)
      guard childIndent.count > indent.count, childIndent.hasPrefix(indent) else { continue }
      var local = style
      local.indentation = String(childIndent.dropFirst(indent.count))
      return local
    }
    // No sibling shows a step deeper: take the step the siblings take from their container (Hacki's
    // tab-indented Info.plist ends with four-space entries; "    \t" was written under them).
    let containerIndent = scan.indent(ofLineContaining: container.elementRange.lowerBound)
    if indent.count > containerIndent.count, indent.hasPrefix(containerIndent) {
      var local = style
      local.indentation = String(indent.dropFirst(containerIndent.count))
      return local
    }
    return style
  }

  /// Removes `range`, with its whole line when nothing else (but a comment) is on it.
  func removal(of range: Range<Int>) -> TextReplacement {
    let scan = TextScan(bytes, lines)
    if scan.isFirstOnLine(range.lowerBound), let lineEnd = scan.endOfLineAfterTrivia(from: range.upperBound) {
      let start = scan.lineStart(of: range.lowerBound)
      return TextReplacement(range: start..<scan.afterLineBreak(at: lineEnd), text: "")
    }
    var start = range.lowerBound
    while start > 0, bytes[start - 1] == 32 || bytes[start - 1] == 9 { start -= 1 }
    return TextReplacement(range: start..<range.upperBound, text: "")
  }
}
