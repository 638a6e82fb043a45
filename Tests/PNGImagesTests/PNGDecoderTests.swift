import PNGImages
import Testing

@Suite struct PNGDecoderTests {
  @Test func theFixtureTableIsThere() {
    // 2 × 19 colour type and depth combinations, plain and Adam7, and one tiny interlaced image.
    #expect(PNGFixtures.cases.count == 39)
  }

  /// Every colour type and bit depth, plain and interlaced, decodes to the pixels the fixture script
  /// wrote (which Pillow decodes to as well).
  @Test(arguments: PNGFixtures.cases)
  func decodesEveryColourTypeAndDepth(_ fixture: PNGFixtures.Case) throws {
    let image = try PNGDecoder.decode(PNGFixtures.bytes(fixture.name + ".png"), file: fixture.name)
    #expect(image.width == fixture.width)
    #expect(image.height == fixture.height)
    #expect(image.pixels == (try PNGFixtures.bytes(fixture.name + ".rgba")))
    #expect(image.source?.interlaced == fixture.name.hasSuffix("adam7"))
    #expect(image.source?.isAppleCgBI == false)
  }

  /// Our encoder's output reads back to the same pixels.
  @Test(arguments: PNGFixtures.cases)
  func encodeThenDecodeIsIdentity(_ fixture: PNGFixtures.Case) throws {
    let image = try PNGDecoder.decode(PNGFixtures.bytes(fixture.name + ".png"))
    let written = try PNGEncoder.encode(image)
    let again = try PNGDecoder.decode(written)
    #expect(again.pixels == image.pixels)
    #expect(again.source?.colorType == .rgba && again.source?.bitDepth == 8)
    #expect(try PNGEncoder.encode(again) == written, "deterministic: the same pixels give the same bytes")
  }

  @Test func headerIsReadWithoutDecoding() throws {
    let header = try PNGDecoder.header(of: PNGFixtures.bytes("palette4-adam7.png"))
    #expect(header.width == 13 && header.height == 11 && header.bitDepth == 4)
    #expect(header.colorType == .palette && header.interlaced)
  }
}
