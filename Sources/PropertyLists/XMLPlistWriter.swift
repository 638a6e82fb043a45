#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

/// How new XML text is laid out: indentation unit, line ending and entity style.
///
/// A ``PropertyListDocument`` detects its own style so an edit writes like the file's author did;
/// ``apple`` is what Xcode writes and what ``PropertyListSerializer`` uses for new files.
public struct PropertyListTextStyle: Sendable, Hashable {
  /// One level of indentation: a tab, or some spaces.
  public var indentation: String
  /// `"\n"` or `"\r\n"`.
  public var lineEnding: String
  /// Which characters are written as entities.
  public var entities: PropertyListEntityStyle

  /// Tabs, LF, `&lt; &gt; &amp;` only.
  public static let apple = PropertyListTextStyle(indentation: "\t", lineEnding: "\n", entities: .apple)

  /// A style indenting each level with `indentation`, ending lines with `lineEnding` and escaping text as
  /// `entities` says.
  public init(indentation: String, lineEnding: String, entities: PropertyListEntityStyle) {
    self.indentation = indentation
    self.lineEnding = lineEnding
    self.entities = entities
  }
}

/// Writes property list values as XML.
public enum PropertyListSerializer {
  /// Apple's XML header: declaration and DOCTYPE, each followed by a line ending.
  public static func header(lineEnding: String = "\n") -> String {
    "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + lineEnding
      + "<!DOCTYPE plist PUBLIC \"-//Apple//DTD PLIST 1.0//EN\" \"http://www.apple.com/DTDs/PropertyList-1.0.dtd\">"
      + lineEnding
  }

  /// A whole XML plist file for `value`, laid out as Xcode writes one (tabs, Apple's header and DOCTYPE).
  public static func xmlDocument(_ value: PropertyListValue, style: PropertyListTextStyle = .apple) -> String
  {
    header(lineEnding: style.lineEnding) + "<plist version=\"1.0\">" + style.lineEnding
      + element(value, indent: "", style: style) + style.lineEnding + "</plist>" + style.lineEnding
  }

  /// The XML element for `value`. Its first line is not indented (the caller places it); every further line
  /// starts with `indent`, the indentation of the line the element starts on, plus nesting.
  public static func element(_ value: PropertyListValue, indent: String, style: PropertyListTextStyle)
    -> String
  {
    var output = ""
    appendElement(value, indent: indent, style: style, to: &output)
    return output
  }

  static func appendElement(
    _ value: PropertyListValue, indent: String, style: PropertyListTextStyle, to output: inout String
  ) {
    switch value {
    case .string(let text):
      output += "<string>" + escape(text, style.entities) + "</string>"
    case .integer(let number):
      output += "<integer>\(number)</integer>"
    case .real(let number):
      output += "<real>" + PropertyListScalars.text(of: number) + "</real>"
    case .bool(let flag):
      output += flag ? "<true/>" : "<false/>"
    case .date(let date):
      output += "<date>" + PropertyListScalars.text(of: date) + "</date>"
    case .data(let bytes) where bytes.isEmpty:
      output += "<data></data>"
    case .data(let bytes):
      output += "<data>" + style.lineEnding
      let encoded = Array(bytes.base64EncodedString().utf8)
      var start = 0
      while start < encoded.count {
        let end = min(start + 68, encoded.count)
        output += indent + String(decoding: encoded[start..<end], as: UTF8.self) + style.lineEnding
        start = end
      }
      output += indent + "</data>"
    case .array(let elements):
      guard !elements.isEmpty else {
        output += "<array/>"
        return
      }
      output += "<array>"
      let inner = indent + style.indentation
      for element in elements {
        output += style.lineEnding + inner
        appendElement(element, indent: inner, style: style, to: &output)
      }
      output += style.lineEnding + indent + "</array>"
    case .dictionary(let dictionary):
      guard !dictionary.isEmpty else {
        output += "<dict/>"
        return
      }
      output += "<dict>"
      let inner = indent + style.indentation
      for entry in dictionary.entries {
        output += style.lineEnding + inner
        output += "<key>" + escape(entry.key, style.entities) + "</key>" + style.lineEnding + inner
        appendElement(entry.value, indent: inner, style: style, to: &output)
      }
      output += style.lineEnding + indent + "</dict>"
    }
  }

  /// `text` as XML character data in the given entity style.
  public static func escape(_ text: String, _ entities: PropertyListEntityStyle) -> String {
    var output = ""
    output.reserveCapacity(text.utf8.count)
    var previous: (Unicode.Scalar?, Unicode.Scalar?) = (nil, nil)
    for character in text.unicodeScalars {
      // `]]>` may not appear raw in XML text, whatever the file's style.
      let closesCDATA = previous == ("]", "]")
      previous = (previous.1, character)
      switch character {
      case "<": output += "&lt;"
      case "&": output += "&amp;"
      case ">" where entities.escapesGreaterThan || closesCDATA: output += "&gt;"
      case "\"" where entities.escapesQuotationMark: output += "&quot;"
      case "'" where entities.escapesApostrophe: output += "&apos;"
      default: output.unicodeScalars.append(character)
      }
    }
    return output
  }
}
