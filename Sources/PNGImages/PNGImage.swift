/// A decoded image: 8-bit RGBA, straight (not premultiplied) alpha, rows top to bottom.
public struct PNGImage: Sendable, Hashable {
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// `width × height × 4` bytes: red, green, blue, alpha for each pixel, row by row.
  public var pixels: [UInt8]
  /// What the file held before conversion to RGBA, when it came from a file.
  public var source: PNGHeader?

  /// An image of `width × height` pixels; `pixels` must hold `width × height × 4` bytes.
  ///
  /// - Precondition: the sizes agree.
  public init(width: Int, height: Int, pixels: [UInt8], source: PNGHeader? = nil) {
    precondition(width >= 0 && height >= 0 && pixels.count == width * height * 4, "pixel count mismatch")
    self.width = width
    self.height = height
    self.pixels = pixels
    self.source = source
  }

  /// An image of `width × height` transparent black pixels.
  public init(width: Int, height: Int) {
    self.init(width: width, height: height, pixels: [UInt8](repeating: 0, count: width * height * 4))
  }

  /// The red, green, blue and alpha of the pixel at column `x`, row `y` (0-based, from the top left).
  public func pixel(x: Int, y: Int) -> (red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8) {
    let index = (y * width + x) * 4
    return (pixels[index], pixels[index + 1], pixels[index + 2], pixels[index + 3])
  }
}

/// The header (`IHDR`) of a PNG file, and whether it is Apple's CgBI variant.
public struct PNGHeader: Sendable, Hashable {
  /// The PNG colour types.
  public enum ColorType: UInt8, Sendable, Hashable {
    case grayscale = 0
    case rgb = 2
    case palette = 3
    case grayscaleAlpha = 4
    case rgba = 6

    /// Samples per pixel.
    var channels: Int {
      switch self {
      case .grayscale, .palette: 1
      case .grayscaleAlpha: 2
      case .rgb: 3
      case .rgba: 4
      }
    }

    /// The bit depths the PNG specification allows for this colour type.
    var allowedBitDepths: Set<Int> {
      switch self {
      case .grayscale: [1, 2, 4, 8, 16]
      case .palette: [1, 2, 4, 8]
      case .rgb, .grayscaleAlpha, .rgba: [8, 16]
      }
    }
  }

  /// Width in pixels.
  public var width: Int
  /// Height in pixels.
  public var height: Int
  /// Bits per sample (per palette index for ``ColorType/palette``).
  public var bitDepth: Int
  /// The colour type.
  public var colorType: ColorType
  /// Whether the rows are stored in Adam7 interlaced order.
  public var interlaced: Bool
  /// Whether the file is Apple's CgBI variant (Xcode's "Compress PNG Files"): a `CgBI` chunk first,
  /// raw deflate data, BGR(A) byte order and premultiplied alpha.
  public var isAppleCgBI: Bool
}
