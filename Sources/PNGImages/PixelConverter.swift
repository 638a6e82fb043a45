/// Turns unfiltered rows of any colour type and bit depth into 8-bit RGBA pixels.
struct PixelConverter {
  let header: PNGHeader
  let palette: [UInt8]
  /// The raw `tRNS` chunk, when there is one.
  let transparency: [UInt8]?

  init(header: PNGHeader, palette: [UInt8], transparency: [UInt8]?) {
    self.header = header
    self.palette = palette
    self.transparency = transparency
  }

  /// Writes the pixels of `pass` (rows of `rowBytes + 1` bytes, filter bytes first) into `pixels`.
  /// Returns the first palette index past the palette's end, or `nil` when every index is in range.
  func place(_ data: [UInt8], pass: PNGPasses.Pass, into pixels: inout [UInt8], imageWidth: Int) -> Int? {
    var badIndex: Int?
    let stride = pass.rowBytes + 1
    let depth = header.bitDepth
    let channels = header.colorType.channels
    let maximum = (1 << depth) - 1
    // The transparent colour of a grey or RGB image, compared at the file's bit depth.
    let key: [Int]? = transparency.flatMap { bytes in
      header.colorType == .grayscale || header.colorType == .rgb
        ? Swift.stride(from: 0, to: bytes.count, by: 2).map {
          (Int(bytes[$0]) << 8 | Int(bytes[$0 + 1])) & maximum
        }
        : nil
    }
    if depth == 8 && key == nil && header.colorType != .palette {
      place8(data, pass: pass, into: &pixels, imageWidth: imageWidth)
      return nil
    }
    data.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        var samples = [Int](repeating: 0, count: channels)
        for row in 0..<pass.height {
          let rowStart = row * stride + 1
          let y = pass.yStart + row * pass.yStep
          for column in 0..<pass.width {
            for channel in 0..<channels {
              samples[channel] = Self.sample(
                source, rowStart: rowStart, index: column * channels + channel, depth: depth)
            }
            let x = pass.xStart + column * pass.xStep
            let out = (y * imageWidth + x) * 4
            guard let (r, g, b, a) = rgba(samples, maximum: maximum, key: key) else {
              badIndex = badIndex ?? samples[0]
              continue
            }
            target[out] = r
            target[out + 1] = g
            target[out + 2] = b
            target[out + 3] = a
          }
        }
      }
    }
    return badIndex
  }

  /// The common case, 8-bit samples without a palette or a transparent colour, without the general
  /// path's per-sample work (icons are up to 1024 × 1024, and debug builds run the tests).
  private func place8(_ data: [UInt8], pass: PNGPasses.Pass, into pixels: inout [UInt8], imageWidth: Int) {
    let stride = pass.rowBytes + 1
    let channels = header.colorType.channels
    data.withUnsafeBufferPointer { source in
      pixels.withUnsafeMutableBufferPointer { target in
        guard let input = source.baseAddress, let output = target.baseAddress else { return }
        for row in 0..<pass.height {
          var from = input + row * stride + 1
          let y = pass.yStart + row * pass.yStep
          var to = output + (y * imageWidth + pass.xStart) * 4
          let step = pass.xStep * 4
          for _ in 0..<pass.width {
            switch channels {
            case 4:
              to[0] = from[0]
              to[1] = from[1]
              to[2] = from[2]
              to[3] = from[3]
            case 3:
              to[0] = from[0]
              to[1] = from[1]
              to[2] = from[2]
              to[3] = 255
            case 2:
              to[0] = from[0]
              to[1] = from[0]
              to[2] = from[0]
              to[3] = from[1]
            default:
              to[0] = from[0]
              to[1] = from[0]
              to[2] = from[0]
              to[3] = 255
            }
            from += channels
            to += step
          }
        }
      }
    }
  }

  /// The `index`th sample of a row at `depth` bits.
  @inline(__always)
  static func sample(_ source: UnsafeBufferPointer<UInt8>, rowStart: Int, index: Int, depth: Int) -> Int {
    switch depth {
    case 16: return Int(source[rowStart + index * 2]) << 8 | Int(source[rowStart + index * 2 + 1])
    case 8: return Int(source[rowStart + index])
    default:
      let bit = index * depth
      let byte = Int(source[rowStart + bit / 8])
      return (byte >> (8 - depth - bit % 8)) & ((1 << depth) - 1)
    }
  }

  /// A sample at the file's depth scaled to 8 bits, rounded.
  @inline(__always)
  static func scale(_ value: Int, maximum: Int) -> UInt8 {
    maximum == 255 ? UInt8(value) : UInt8((value * 255 + maximum / 2) / maximum)
  }

  /// The pixel's RGBA, or `nil` for a palette index past the palette's end.
  private func rgba(_ samples: [Int], maximum: Int, key: [Int]?) -> (UInt8, UInt8, UInt8, UInt8)? {
    switch header.colorType {
    case .grayscale:
      let v = Self.scale(samples[0], maximum: maximum)
      return (v, v, v, key == [samples[0]] ? 0 : 255)
    case .grayscaleAlpha:
      let v = Self.scale(samples[0], maximum: maximum)
      return (v, v, v, Self.scale(samples[1], maximum: maximum))
    case .rgb:
      let alpha: UInt8 = key == Array(samples[0..<3]) ? 0 : 255
      return (
        Self.scale(samples[0], maximum: maximum), Self.scale(samples[1], maximum: maximum),
        Self.scale(samples[2], maximum: maximum), alpha
      )
    case .rgba:
      return (
        Self.scale(samples[0], maximum: maximum), Self.scale(samples[1], maximum: maximum),
        Self.scale(samples[2], maximum: maximum), Self.scale(samples[3], maximum: maximum)
      )
    case .palette:
      let index = samples[0]
      guard index * 3 + 2 < palette.count else { return nil }
      let alpha = transparency.flatMap { index < $0.count ? $0[index] : nil } ?? 255
      return (palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], alpha)
    }
  }
}

/// Apple's CgBI PNG variant, which Xcode writes into built iOS apps ("Compress PNG Files", pngcrush
/// `-iphone`): a `CgBI` chunk before `IHDR`, raw deflate without the zlib header, pixels in BGR(A) byte
/// order, alpha premultiplied. Standard readers reject or garble these files.
public enum AppleCgBI {
  /// Turns decoded CgBI pixels (read as RGBA: really BGRA, premultiplied) into straight RGBA, in place.
  static func restore(_ pixels: inout [UInt8], colorType: PNGHeader.ColorType) {
    pixels.withUnsafeMutableBufferPointer { buffer in
      for index in Swift.stride(from: 0, to: buffer.count, by: 4) {
        buffer.swapAt(index, index + 2)
        guard colorType == .rgba else { continue }
        let alpha = Int(buffer[index + 3])
        for channel in index..<(index + 3) {
          buffer[channel] = alpha == 0 ? 0 : UInt8(min(255, (Int(buffer[channel]) * 255 + alpha / 2) / alpha))
        }
      }
    }
  }

  /// `pixels` (straight RGBA) premultiplied by alpha, rounded, as CgBI stores them: what a CgBI file of
  /// the image decodes to before un-premultiplying, and what two images that look the same share.
  public static func premultiplied(_ pixels: [UInt8]) -> [UInt8] {
    var result = pixels
    result.withUnsafeMutableBufferPointer { buffer in
      for index in Swift.stride(from: 0, to: buffer.count, by: 4) {
        let alpha = Int(buffer[index + 3])
        for channel in index..<(index + 3) {
          buffer[channel] = UInt8((Int(buffer[channel]) * alpha + 127) / 255)
        }
      }
    }
    return result
  }
}
