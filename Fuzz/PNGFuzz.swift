// libFuzzer entry point for the PNG reader and writer; built and run by `scripts/fuzz png SECONDS`.
//
// Any bytes: decoding ends in an image or a `PNGError`, never a crash, a hang or more memory than
// `PNGLimits` allows (libFuzzer's -rss_limit_mb catches the last). A PNG input is tried once more with a
// `CgBI` chunk spliced in after the signature, which sends the reader down the raw-deflate, BGRA and
// un-premultiplying path. An image read must be written by our encoder to a file that reads back to the same
// pixels, and as CgBI to a file that reads back to the same premultiplied pixels.
import Foundation
import PNGImages

func propertyFailed(_ message: String, input: [UInt8]) -> Never {
  FileHandle.standardError.write(
    Data("png property failed: \(message)\ninput: \(input.count) bytes\n".utf8))
  abort()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ start: UnsafePointer<UInt8>, _ count: Int) -> CInt {
  let bytes = Array(UnsafeBufferPointer(start: start, count: count))
  check(bytes)
  // The same bytes behind a CgBI chunk, so the raw-deflate and BGRA paths see every input.
  let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
  if bytes.starts(with: signature) {
    let cgbi: [UInt8] = [0, 0, 0, 4, 0x43, 0x67, 0x42, 0x49, 0x50, 0x00, 0x20, 0x06, 0x2C, 0xB8, 0x77, 0x66]
    check(signature + cgbi + bytes.dropFirst(8))
  }
  return 0
}

func check(_ bytes: [UInt8]) {
  guard let image = try? PNGDecoder.decode(bytes) else { return }
  guard image.pixels.count == image.width * image.height * 4 else {
    propertyFailed("pixel count \(image.pixels.count) for \(image.width) × \(image.height)", input: bytes)
  }
  guard let again = try? PNGDecoder.decode(PNGEncoder.encode(image)), again.pixels == image.pixels else {
    propertyFailed("our PNG of a decoded image does not read back to its pixels", input: bytes)
  }
  guard let cgbi = try? PNGDecoder.decode(PNGEncoder.encodeAppleCgBI(image)),
    AppleCgBI.premultiplied(cgbi.pixels) == AppleCgBI.premultiplied(image.pixels)
  else {
    propertyFailed("our CgBI file of a decoded image does not read back to its pixels", input: bytes)
  }
}
