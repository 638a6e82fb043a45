import ActivationRules
import Foundation
import Testing

@Suite struct ActivationDictionaryTests {
  @Test func corpusHasTwentyFourDictionaries() {
    #expect(Fixtures.dictionaryFiles.count == 24)
    #expect(Fixtures.predicateFiles.count == 15)
  }

  @Test(arguments: Fixtures.dictionaryFiles)
  func everyCorpusDictionaryReads(name: String) throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data(name))
    #expect(!dictionary.values.isEmpty)
  }

  @Test func appleExampleReadsAllThreeCounts() throws {
    let xml = """
      <?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict>
      <key>NSExtensionActivationSupportsImageWithMaxCount</key><integer>10</integer>
      <key>NSExtensionActivationSupportsMovieWithMaxCount</key><integer>1</integer>
      <key>NSExtensionActivationSupportsWebURLWithMaxCount</key><integer>1</integer>
      </dict></plist>
      """
    let dictionary = try ActivationDictionary(plistData: Data(xml.utf8))
    #expect(dictionary.values == [.imageMaxCount: 10, .movieMaxCount: 1, .webURLMaxCount: 1])
    #expect(dictionary.typingFindings.isEmpty)
    #expect(dictionary.version == 1)
    #expect(dictionary.isStrict)
  }

  @Test func stringCountIsReadAndRecorded() throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data("12.plist"))
    #expect(dictionary.count(.webURLMaxCount) == 1)
    #expect(
      dictionary.typingFindings == [.init(key: .webURLMaxCount, written: .string, readAs: 1)])
  }

  @Test func integerBooleanIsReadAndRecorded() throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data("15.plist"))
    #expect(dictionary.supportsText)
    #expect(dictionary.typingFindings == [.init(key: .text, written: .integer, readAs: 1)])
    #expect(dictionary.version == 2)
    #expect(!dictionary.isStrict)
  }

  @Test func undocumentedKeysAreKept() throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data("02.plist"))
    #expect(
      dictionary.undocumentedKeys == [
        .init(name: "NSExtensionActivationAttachmentAttribute", written: .dictionary)
      ])
    #expect(dictionary.count(.attachmentsMaxCount) == 1)
  }

  @Test func explicitZerosAndFalseDisable() throws {
    let dictionary = try ActivationDictionary(plistData: Fixtures.data("27.plist"))
    #expect(dictionary.count(.fileMaxCount) == 0)
    #expect(!dictionary.supportsText)
    #expect(DictionaryModel(dictionary).categories.map(\.key) == [.webURLMaxCount])
  }

  @Test(arguments: [
    ("<true/>", ActivationDictionary.WrittenType.boolean, 1 as Int?),
    ("<string>7</string>", .string, 7),
    ("<string>many</string>", .string, nil),
    ("<real>2.0</real>", .real, 2),
    ("<array/>", .array, nil),
  ])
  func mistypedCountsAreRecorded(value: String, written: ActivationDictionary.WrittenType, readAs: Int?)
    throws
  {
    let xml = """
      <plist version="1.0"><dict><key>NSExtensionActivationSupportsImageWithMaxCount</key>\(value)</dict></plist>
      """
    let dictionary = try ActivationDictionary(plistData: Data(xml.utf8))
    #expect(dictionary.typingFindings == [.init(key: .imageMaxCount, written: written, readAs: readAs)])
    #expect(dictionary.count(.imageMaxCount) == readAs)
  }

  @Test func malformedPlistIsATypedError() {
    #expect(throws: ActivationRuleError.self) {
      try ActivationDictionary(plistData: Data("<plist><dict><key>x</key></plist>".utf8))
    }
  }
}
