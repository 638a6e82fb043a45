import Foundation
import PropertyLists
import TestSupport
import Testing

/// Directives wrapped around entries, and directive lines put between them, that leave the active value as
/// it is: the preprocessed read of the wrapped file equals the plain read of the bare one, and edits of both
/// give the same value.
@Suite("Preprocessing property tests")
struct PreprocessingPropertyTests {
  static let values: [PropertyListValue] = [
    "text", "#ifdef NOT_A_DIRECTIVE", "https://example.com/path", 42, true, false, ["a", 1], ["k": "v"], [:],
  ]

  /// An entry's text, indented one level.
  static func entryText(_ key: String, _ value: PropertyListValue) -> String {
    "\t<key>\(key)</key>\n\t"
      + PropertyListSerializer.element(
        value, indent: "\t",
        style: PropertyListTextStyle(
          indentation: "\t", lineEnding: "\n", entities: .apple)) + "\n"
  }

  /// `entry` inside a construct that keeps it active (with no definitions but `ON`).
  static func wrapped(_ entry: String, choice: Int, key: String) -> String {
    let decoy = "\t<key>\(key)</key>\n\t<string>decoy</string>\n"
    switch choice {
    case 0: return "#if 1\n" + entry + "#endif\n"
    case 1: return "#ifdef OFF\n" + decoy + "#else\n" + entry + "#endif\n"
    case 2: return "#ifndef OFF\n" + entry + "#endif // OFF\n"
    case 3:
      return "#if 0\n\t<broken <xml\n#elif defined(ON) && ON == 1\n" + entry + "#else\n" + decoy + "#endif\n"
    case 4: return "  #  if !defined(OFF) || OFF\n" + entry + "  #  endif\n"
    case 5: return "#ifdef ON\n#if OFF\n" + decoy + "#else\n" + entry + "#endif\n#endif\n"
    default: return entry
    }
  }

  static let standaloneLines = [
    "#define LOCAL 1\n", "#include \"Shared.plist\"\n", "/* a comment */\n", "// a line comment\n",
    "#if 0\n<key>Gone</key>\n#endif\n", "#pragma mark Keys\n", "#undef NOTHING\n",
  ]

  @Test(arguments: 0..<60)
  func directivesNeverChangeTheActiveValue(seed: Int) throws {
    var generator = SeededGenerator(seed: UInt64(seed) &* 0x9E37_79B9 &+ 7)
    let count = Int.random(in: 0...6, using: &generator)
    var plain = ""
    var preprocessed = ""
    for index in 0..<count {
      let key = "Key\(index)"
      let entry = Self.entryText(key, Self.values.randomElement(using: &generator) ?? "x")
      plain += entry
      if Bool.random(using: &generator) {
        preprocessed += Self.standaloneLines.randomElement(using: &generator) ?? ""
      }
      preprocessed += Self.wrapped(entry, choice: Int.random(in: 0...7, using: &generator), key: key)
    }
    if Bool.random(using: &generator) {
      preprocessed += Self.standaloneLines.randomElement(using: &generator) ?? ""
    }
    let options = PropertyListPreprocessing(definitions: ["ON": "1"])
    let bare = try PropertyListDocument(text: preprocessedPlist(plain))
    let document = try PropertyListDocument(text: preprocessedPlist(preprocessed), preprocessing: options)
    #expect(document.value == bare.value)
    #expect(document.text == preprocessedPlist(preprocessed))

    // The same edits give the same value, keep every directive line, and land outside conditionals.
    var edits: [PropertyListEdit] = [.insert(key: "Added", value: "new", into: [])]
    if count > 0 {
      let target = "Key\(Int.random(in: 0..<count, using: &generator))"
      edits += [
        .set(PropertyListPath([.key(target)]), 7),
        .insert(key: "Before", value: true, into: [], position: .before(target)),
        .insert(key: "After", value: false, into: [], position: .after(target)),
      ]
    }
    let editedBare = try bare.applying(edits)
    let edited = try document.applying(edits)
    #expect(edited.value == editedBare.value)
    let directives = { (document: PropertyListDocument) in
      (document.preprocessorReport?.directives ?? []).map {
        String(decoding: document.bytes[$0.range], as: UTF8.self)
      }
    }
    #expect(directives(edited) == directives(document))
    // With ON undefined, every wrapped entry may vanish, but the added keys stay.
    let other = try PropertyListDocument(bytes: edited.bytes, preprocessing: PropertyListPreprocessing())
    if case .dictionary(let root) = other.value {
      for key in ["Added", "Before", "After"] where edits.count > 1 || key == "Added" {
        #expect(root[key] != nil, "\(key) landed inside a conditional block")
      }
    }
  }
}
