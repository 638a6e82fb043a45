import Testing

@testable import XcodeProjects

@Suite("Expanding $(…) as Xcode does")
struct ExpansionTests {
  static let settings: [(String, String)] = [
    ("NAME", "My App"), ("ID", "com.example"), ("DIGITS", "9lives"), ("PATH", "/a/b/c.tar.gz"),
    ("REL", "x/./y/../z.txt"), ("EMPTY", ""), ("YES_VALUE", "YES"), ("UNICODE", "Café Ünï"),
    ("SUFFIXED_Debug", "dbg"), ("CONFIGURATION", "Debug"),
  ]

  @Test(
    "operators and reference forms",
    arguments: [
      ("$(NAME)", "My App"), ("${NAME}", "My App"), ("$NAME", "My App"), ("$(NAME:lower)", "my app"),
      ("$(NAME:upper)", "MY APP"), ("$(NAME:rfc1034identifier)", "My-App"),
      ("$(ID:rfc1034identifier)", "com-example"), ("$(NAME:identifier)", "My_App"),
      ("$(NAME:c99extidentifier)", "My_App"), ("$(DIGITS:c99extidentifier)", "_lives"),
      ("$(DIGITS:rfc1034identifier)", "-lives"), ("$(DIGITS:identifier)", "_lives"),
      ("$(UNICODE:c99extidentifier)", "Café_Ünï"), ("$(UNICODE:rfc1034identifier)", "Caf---n-"),
      ("$(NAME:lower:rfc1034identifier)", "my-app"), ("$(EMPTY:default=fallback)", "fallback"),
      ("$(UNSET:default=fallback)", "fallback"), ("$(NAME:default=fallback)", "My App"),
      ("$(PATH:dir)", "/a/b/"), ("$(PATH:file)", "c.tar.gz"), ("$(PATH:base)", "c.tar"),
      ("$(PATH:suffix)", ".gz"), ("$(REL:standardizepath)", "x/z.txt"), ("$(NAME:quote)", "My\\ App"),
      ("$(YES_VALUE:not)", "NO"), ("$(EMPTY:not)", "YES"), ("$(PATH:file=d.txt)", "/a/b/d.txt"),
      ("$(PATH:suffix=zip)", "/a/b/c.tar.zip"), ("$(PATH:dir=/q)", "/q/c.tar.gz"),
      ("$(SUFFIXED_$(CONFIGURATION))", "dbg"), ("$$(NAME)", "$(NAME)"), ("cost: $5", "cost: $5"),
      ("$", "$"), ("$(UNSET)x", "x"), ("a$(EMPTY:lower)b", "ab"), ("$(NAME", "My App"),
    ])
  func expands(text: String, expected: String) {
    #expect(expand(text, levels: [Self.settings]).0 == expected)
  }

  @Test("$(inherited) and a self-reference take the next lower value")
  func inherited() {
    let levels: [[(String, String)]] = [
      [("FLAGS", "-a")], [("FLAGS", "$(inherited) -b")],
      [("FLAGS", "$(FLAGS) -c"), ("FLAGS", "$(inherited) -d")],
    ]
    #expect(expand("$(FLAGS)", levels: levels).0 == "-a -b -c -d")
    #expect(expand("$(inherited)", levels: levels).0 == "")
  }

  @Test("a reference cycle ends in the inherited value and is found, never a hang")
  func cycle() {
    let (value, findings) = expand("$(A)", levels: [[("A", "$(B)x"), ("B", "$(A)y")]])
    #expect(value == "yx")
    #expect(findings.cycles.first?.map(\.assignment.name) == ["A", "B"])
    let (deep, deepFindings) = expand(
      "$(X0)", levels: [(0..<40).map { ("X\($0)", "$(X\($0 + 1))$(X\($0 + 1))") }])
    #expect(deep.isEmpty)
    #expect(deepFindings.hitLimit)
  }

  @Test("undefined variables expand to nothing and are listed")
  func undefined() {
    let (value, findings) = expand("a$(NOPE)b$(inherited)", levels: [Self.settings])
    #expect(value == "ab")
    #expect(findings.undefined == ["NOPE"])
  }

  @Test(
    "condition globs",
    arguments: [
      ("iphoneos*", "iphoneos", true), ("iphoneos*", "iphoneos18.2", true),
      ("iphone*", "iphonesimulator", true),
      ("iphoneos*", "iphonesimulator", false), ("arm64", "arm64", true), ("arm64?", "arm64e", true),
      ("*", "", true), ("Debug", "Release", false), ("*os*", "macosx", true),
    ])
  func globs(pattern: String, value: String, matches: Bool) {
    #expect(ConditionGlob.matches(pattern, value) == matches)
  }
}

@Suite("Byte search for references in setting values")
struct SettingReferenceSearchTests {
  @Test(
    "holds(_:_:) answers as String.contains does",
    arguments: [
      ("a$(inherited)b", "$(inherited)"), ("$(inherited)", "$(inherited)"), ("$(inherit", "$(inherited)"),
      ("aab", "ab"), ("ab", "abc"), ("", "x"), ("abc", ""), ("", ""),
      ("é $(PRODUCT_NAME)", "$(PRODUCT_NAME)"),
      ("${inherited} $(A)", "$(B)"), ("$$(A)", "$(A)"),
    ])
  func holdsLikeContains(_ text: String, _ pattern: String) {
    #expect(ResolvedBuildSettings.holds(text, pattern) == text.contains(pattern))
  }
}
