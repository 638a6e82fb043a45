import PNGImages
import Testing

/// Apple's CgBI variant: our converter's files, and real ones from public repositories.
@Suite struct AppleCgBITests {
  /// A CgBI file our converter makes from a standard PNG decodes to the original's pixels wherever alpha is
  /// 0 or 255, and to the same premultiplied colour everywhere (what premultiplying keeps).
  @Test(arguments: PNGFixtures.cases.filter { !$0.name.hasPrefix("gray") || $0.name.contains("trns") })
  func convertedFileDecodesToTheOriginal(_ fixture: PNGFixtures.Case) throws {
    let original = try PNGDecoder.decode(PNGFixtures.bytes(fixture.name + ".png"))
    let cgbi = try PNGEncoder.encodeAppleCgBI(original)
    #expect(Array(cgbi[12..<16]) == Array("CgBI".utf8))
    let decoded = try PNGDecoder.decode(cgbi)
    #expect(decoded.source?.isAppleCgBI == true)
    #expect(AppleCgBI.premultiplied(decoded.pixels) == AppleCgBI.premultiplied(original.pixels))
    for index in stride(from: 0, to: original.pixels.count, by: 4)
    where original.pixels[index + 3] == 255 {
      #expect(Array(decoded.pixels[index..<(index + 4)]) == Array(original.pixels[index..<(index + 4)]))
    }
  }

  /// An opaque picture survives the CgBI round trip exactly.
  @Test func opaqueImageIsExact() throws {
    let original = try PNGDecoder.decode(PNGFixtures.bytes("rgb8.png"))
    #expect(try PNGDecoder.decode(PNGEncoder.encodeAppleCgBI(original)).pixels == original.pixels)
  }

  /// Real CgBI files decode to the pixels pngdefry restores from them: exactly where opaque, within one
  /// step of un-premultiplying's rounding where translucent.
  @Test(arguments: ["node-pngdefry-icon", "rust-pngdefry-iphone"])
  func realSampleMatchesPngdefry(_ name: String) throws {
    let cgbi = try PNGDecoder.decode(PNGFixtures.bytes("cgbi/\(name).png"), file: name)
    let reference = try PNGDecoder.decode(PNGFixtures.bytes("cgbi/\(name).pngdefry.png"))
    #expect(cgbi.source?.isAppleCgBI == true)
    #expect(reference.source?.isAppleCgBI == false)
    #expect(cgbi.width == reference.width && cgbi.height == reference.height)
    var translucent = 0
    for index in stride(from: 0, to: cgbi.pixels.count, by: 4) {
      let alpha = reference.pixels[index + 3]
      #expect(cgbi.pixels[index + 3] == alpha)
      if alpha == 255 {
        #expect(Array(cgbi.pixels[index..<(index + 3)]) == Array(reference.pixels[index..<(index + 3)]))
      } else if alpha > 0 {
        translucent += 1
        for channel in index..<(index + 3) {
          // Both un-premultiply a value stored at alpha/255 precision; they may round differently.
          let step = (255 + Int(alpha) - 1) / Int(alpha)
          #expect(abs(Int(cgbi.pixels[channel]) - Int(reference.pixels[channel])) <= step)
        }
      }
    }
    if name == "node-pngdefry-icon" { #expect(translucent == 92) }
  }
}
