import PNGImages

/// Turns an app icon into a template image: one colour (black), the design carried by alpha alone.
///
/// The transform, step by step (<doc:OpenInActionExtensionIcons> explains the choices):
///
/// 1. **Background.** The ring of pixels within 1/32 of the side from the edge is the icon's background.
///    When most of the ring is transparent (median alpha below 128), the icon already has a shape of its
///    own and its alpha *is* the coverage (``Method/alpha``).
/// 2. Otherwise (``Method/contrast``, the usual full-bleed opaque icon) the background colour is the
///    per-channel median of the ring. Each pixel is composited over that colour and its distance from it is
///    the largest difference of red, green and blue (0–255), so a shape that differs in hue only still
///    counts. When the ring varies (a gradient) and a model following the icon's edges explains it clearly
///    better, each pixel is compared with that model's colour at its place instead (`EdgeBackground`).
///    When the ring is three or four flat colours and nothing else (bands or panels of a flat design),
///    each is background and a pixel is compared with the nearest (`FlatColours`); the ramp of step 3
///    then ends at the design's median distance when that is nearer than 64.
/// 3. **Threshold with anti-aliasing kept.** Distances at or below `low` become 0, at or above
///    `low + 64` become 255, and in between rise linearly, so a soft edge stays a soft edge. `low` is
///    `max(24, the ring's spread + 8)`, the spread being the 95th percentile of the ring's own distances
///    (capped at 1.7 times the 75th, so a design crossing the edge is not taken for noise): a background
///    gradient or noise stays out of the shape. When that leaves the template nearly empty and the ring is
///    two tones, a flat background and a one-colour design crossing the edge in over a quarter of it (line
///    art whose frame runs along the edges), the spread is measured on the background's pixels alone.
/// 4. **Resampling.** The coverage is scaled to each size with a separable Mitchell–Netravali filter
///    (B = C = 1/3) widened by the reduction factor, so every source pixel contributes (no
///    nearest-neighbour aliasing); a non-square source is fitted and centred.
/// 5. **Output.** Every pixel is black, alpha the resampled coverage.
///
/// The same input gives the same bytes on every platform: integer arithmetic up to the filter, whose
/// weights are computed in `Double` and rounded once.
public enum TemplateTransform {
  /// Where the coverage came from.
  public enum Method: String, Sendable, Hashable {
    /// The icon's own alpha (it is transparent around its shape).
    case alpha
    /// The difference from the background colour (an opaque icon).
    case contrast
  }

  /// An icon's coverage: one byte per source pixel, 0 outside the shape, 255 inside.
  public struct Coverage: Sendable, Hashable {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int
    /// `width × height` values, row by row.
    public var values: [UInt8]
    /// How they were found.
    public var method: Method
    /// The background colour (``Method/contrast`` only).
    public var background: (red: UInt8, green: UInt8, blue: UInt8)?
    /// The lower threshold used (``Method/contrast`` only).
    public var threshold: Int?
    /// Whether the background was followed from the icon's edges (a gradient) rather than taken as one
    /// colour; ``background`` is then the edge's median (``Method/contrast`` only).
    public var backgroundFollowsEdges: Bool
    /// The flat colours the background was taken to be, when the icon's edge is three or four of them
    /// (bands or panels of one colour each); ``background`` is then the first, the commonest on the edge.
    /// Empty otherwise (``Method/contrast`` only).
    public var flatBackground: [(red: UInt8, green: UInt8, blue: UInt8)]

    /// A coverage of `values` (`width × height` of them, row by row), found by `method`.
    public init(
      width: Int, height: Int, values: [UInt8], method: Method,
      background: (red: UInt8, green: UInt8, blue: UInt8)? = nil, threshold: Int? = nil,
      backgroundFollowsEdges: Bool = false, flatBackground: [(red: UInt8, green: UInt8, blue: UInt8)] = []
    ) {
      self.backgroundFollowsEdges = backgroundFollowsEdges
      self.flatBackground = flatBackground
      self.width = width
      self.height = height
      self.values = values
      self.method = method
      self.background = background
      self.threshold = threshold
    }

    /// How much of the icon the shape covers, 0–1: the mean of the values over 255.
    public var coveredFraction: Double {
      guard !values.isEmpty else { return 0 }
      return Double(values.reduce(0) { $0 + Int($1) }) / 255 / Double(values.count)
    }

    /// Coverages are equal when their values, size, method and contrast parameters are; the background colour
    /// is a tuple, so the comparison is written out.
    public static func == (lhs: Coverage, rhs: Coverage) -> Bool {
      lhs.width == rhs.width && lhs.height == rhs.height && lhs.values == rhs.values
        && lhs.method == rhs.method
    }

    /// Hashes what `==` compares.
    public func hash(into hasher: inout Hasher) {
      hasher.combine(width)
      hasher.combine(height)
      hasher.combine(values)
    }
  }

  /// The coverage of `icon` (steps 1–3).
  public static func coverage(of icon: PNGImage) -> Coverage {
    let ring = ringIndices(width: icon.width, height: icon.height)
    let pixels = icon.pixels
    if median(ring.map { Int(pixels[$0 * 4 + 3]) }) < 128 {
      let values = stride(from: 3, to: pixels.count, by: 4).map { pixels[$0] }
      return Coverage(width: icon.width, height: icon.height, values: values, method: .alpha)
    }
    let background = (0..<3).map { channel in median(ring.map { Int(pixels[$0 * 4 + channel]) }) }
    let uniformSpread = pixels.withUnsafeBufferPointer { buffer in
      spread(ring.map { distance(buffer, $0 * 4, background) })
    }
    // An edge of three or four flat colours (bands, panels): each is background, none a gradient.
    if uniformSpread > 24, let flat = FlatColours(icon, ring: ring) {
      let flatSpread = pixels.withUnsafeBufferPointer { buffer in
        spread(ring.map { flat.distance(buffer, $0 * 4) })
      }
      return contrastCoverage(icon, background: background, flat: flat, low: max(24, flatSpread + 8))
    }
    // A gradient background: the edge surface, when it explains the ring clearly better (by twice the
    // threshold's own margin) than one colour does. A flat background keeps the one colour.
    var edges =
      uniformSpread > 24 ? EdgeBackground(icon, band: ringBand(width: icon.width, height: icon.height)) : nil
    var ringSpread = uniformSpread
    if let model = edges {
      let width = icon.width
      let edgeSpread = pixels.withUnsafeBufferPointer { buffer in
        spread(ring.map { distance(buffer, $0 * 4, model, x: $0 % width, y: $0 / width) })
      }
      if edgeSpread + 16 < uniformSpread { ringSpread = edgeSpread } else { edges = nil }
    }
    let found = contrastCoverage(icon, background: background, edges: edges, low: max(24, ringSpread + 8))
    // A design crossing the edge in over a quarter of the ring (kfdm/ios-markdowntodo's black frame on white
    // runs along the top and bottom edges: 44% of the ring) is more than ``spread(_:)`` sets aside as
    // outliers, and more than the edge surface can follow: its own distance became the threshold and the
    // template came out empty. When that leaves almost nothing (under 2%, what the generator warns about)
    // and the ring's median colour still holds at least half of it, the ring is two clusters, background
    // and design: the background's noise is measured on its own cluster, against its one colour.
    guard found.coveredFraction < 0.02,
      let clusterSpread = pixels.withUnsafeBufferPointer({ buffer in
        backgroundClusterSpread(ring.map { distance(buffer, $0 * 4, background) })
      })
    else { return found }
    let retried = contrastCoverage(icon, background: background, edges: nil, low: max(24, clusterSpread + 8))
    return retried.coveredFraction > found.coveredFraction ? retried : found
  }

  /// The contrast coverage of `icon` against `edges` (a gradient followed from the edges), `flat` (a few flat
  /// colours) or, without either, the one `background` colour, with `low` as the lower threshold (step 3).
  static func contrastCoverage(
    _ icon: PNGImage, background: [Int], edges: EdgeBackground? = nil, flat: FlatColours? = nil, low: Int
  ) -> Coverage {
    let band = 64
    var values = [UInt8](repeating: 0, count: icon.width * icon.height)
    icon.pixels.withUnsafeBufferPointer { buffer in
      values.withUnsafeMutableBufferPointer { output in
        if let flat {
          let distances = output.indices.map { flat.distance(buffer, $0 * 4) }
          let rise = flat.rise(distances, low: low, band: band)
          for index in output.indices {
            output[index] = UInt8(clamping: (distances[index] - low) * 255 / rise)
          }
          return
        }
        if let edges {
          for index in output.indices {
            let found = distance(buffer, index * 4, edges, x: index % icon.width, y: index / icon.width)
            output[index] = UInt8(clamping: (found - low) * 255 / band)
          }
          return
        }
        for index in output.indices {
          output[index] = UInt8(clamping: (distance(buffer, index * 4, background) - low) * 255 / band)
        }
      }
    }
    let colour = { (rgb: [Int]) in
      (red: UInt8(clamping: rgb[0]), green: UInt8(clamping: rgb[1]), blue: UInt8(clamping: rgb[2]))
    }
    return Coverage(
      width: icon.width, height: icon.height, values: values, method: .contrast,
      background: colour(flat?.colours.first ?? background), threshold: low,
      backgroundFollowsEdges: edges != nil, flatBackground: flat?.colours.map(colour) ?? [])
  }

  /// The spread (as ``spread(_:)`` measures it) of the ring pixels within 64 of the ring's median distance,
  /// when the ring is two tones: those pixels are at least half of it and flat (spread at most 16), and
  /// the rest, more than a quarter of the ring, lie at least 128 further and are one colour too (their
  /// distances' 10th to 90th percentiles within 16): a flat background and a one-colour design crossing
  /// the edge, as line art on white. `nil` otherwise: a full-bleed illustration crossing the edge in many
  /// colours (IceCubes' comic icon) or on a banded background (a promotion's yellow bands over purple) is
  /// left as it was, with the generator's warning, since its one-colour background would make the
  /// template a filled block.
  static func backgroundClusterSpread(_ distances: [Int]) -> Int? {
    let sorted = distances.sorted()
    guard !sorted.isEmpty else { return nil }
    let median = sorted[(sorted.count - 1) / 2]
    let p75 = sorted[(sorted.count - 1) * 75 / 100]
    guard p75 >= median + 128 else { return nil }
    let background = spread(sorted.filter { $0 <= median + 64 })
    let design = sorted.filter { $0 > median + 64 }
    guard background <= 16, !design.isEmpty,
      design[(design.count - 1) * 90 / 100] - design[(design.count - 1) * 10 / 100] <= 16
    else { return nil }
    return background
  }

  /// How far the ring's background strays from its model: the 95th percentile of its distances, unless a
  /// design crossing the edge makes that an outlier's distance. Background noise is spread smoothly (its
  /// 95th percentile is about 1.7 times its 75th, as for a half-normal distribution), a design is a second
  /// cluster far away; with more than 5% of the ring in the design, its distance had become the threshold
  /// and the whole design was dropped. Outliers in up to a quarter of the ring no longer count.
  static func spread(_ distances: [Int]) -> Int {
    let sorted = distances.sorted()
    guard !sorted.isEmpty else { return 0 }
    let p95 = sorted[(sorted.count - 1) * 95 / 100]
    let p75 = sorted[(sorted.count - 1) * 75 / 100]
    return min(p95, (17 * p75 + 9) / 10)
  }

  /// ``distance(_:_:_:)`` from the edge model's colour at (`x`, `y`).
  static func distance(
    _ pixels: UnsafeBufferPointer<UInt8>, _ offset: Int, _ edges: EdgeBackground, x: Int, y: Int
  ) -> Int {
    distance(
      pixels, offset, red: edges.colour(x: x, y: y, channel: 0), green: edges.colour(x: x, y: y, channel: 1),
      blue: edges.colour(x: x, y: y, channel: 2))
  }

  /// How far the pixel at `offset`, composited over `background`, is from it: the largest difference of
  /// red, green and blue, 0–255.
  @inline(__always)
  static func distance(_ pixels: UnsafeBufferPointer<UInt8>, _ offset: Int, _ background: [Int]) -> Int {
    distance(pixels, offset, red: background[0], green: background[1], blue: background[2])
  }

  /// ``distance(_:_:_:)`` from the background colour given channel by channel.
  @inline(__always)
  static func distance(
    _ pixels: UnsafeBufferPointer<UInt8>, _ offset: Int, red: Int, green: Int, blue: Int
  ) -> Int {
    let alpha = Int(pixels[offset + 3])
    // alpha × colour + (1 − alpha) × background − background = alpha × (colour − background).
    let largest = max(
      abs(Int(pixels[offset]) - red), abs(Int(pixels[offset + 1]) - green),
      abs(Int(pixels[offset + 2]) - blue))
    return (largest * alpha + 127) / 255
  }

  /// The template image of `coverage` at `size × size` pixels (steps 4–5).
  public static func render(_ coverage: Coverage, size: Int) -> PNGImage {
    // Fit the longer side to `size`, centred.
    let longer = max(coverage.width, coverage.height)
    let fittedWidth = max(1, (coverage.width * size + longer / 2) / longer)
    let fittedHeight = max(1, (coverage.height * size + longer / 2) / longer)
    let source = coverage.values.map(Double.init)
    let horizontal = Resampler(from: coverage.width, to: fittedWidth)
    let vertical = Resampler(from: coverage.height, to: fittedHeight)
    // Rows first (each source row to the fitted width), then columns.
    var rows = [Double](repeating: 0, count: fittedWidth * coverage.height)
    horizontal.apply(
      source, lines: coverage.height, along: 1, across: coverage.width, into: &rows, outAlong: 1,
      outAcross: fittedWidth)
    var scaled = [Double](repeating: 0, count: fittedWidth * fittedHeight)
    vertical.apply(
      rows, lines: fittedWidth, along: fittedWidth, across: 1, into: &scaled, outAlong: fittedWidth,
      outAcross: 1)
    var image = PNGImage(width: size, height: size)
    let left = (size - fittedWidth) / 2
    let top = (size - fittedHeight) / 2
    for y in 0..<fittedHeight {
      for x in 0..<fittedWidth {
        let alpha = UInt8(clamping: Int(scaled[y * fittedWidth + x].rounded()))
        image.pixels[((top + y) * size + left + x) * 4 + 3] = alpha
      }
    }
    return image
  }

  /// How many pixels wide the ring is: 1/32 of the shorter side, at least one.
  static func ringBand(width: Int, height: Int) -> Int { max(1, min(width, height) / 32) }

  /// The pixel indices within 1/32 of the side (at least one pixel) from the image's edge.
  static func ringIndices(width: Int, height: Int) -> [Int] {
    let band = ringBand(width: width, height: height)
    var indices: [Int] = []
    for y in 0..<height {
      for x in 0..<width where x < band || y < band || x >= width - band || y >= height - band {
        indices.append(y * width + x)
      }
    }
    return indices
  }

  /// The lower median of `values` (0 for none).
  static func median(_ values: [Int]) -> Int {
    guard !values.isEmpty else { return 0 }
    return values.sorted()[(values.count - 1) / 2]
  }
}

/// Separable resampling weights from `from` samples to `to` samples with the Mitchell–Netravali filter.
struct Resampler {
  /// For each output sample, the first input index it reads.
  let firsts: [Int]
  /// For each output sample, where its weights start in ``weights`` (one more entry: the end).
  let starts: [Int]
  /// Every output sample's weights, one after another, each run summing to 1.
  let weights: [Double]

  init(from: Int, to: Int) {
    let scale = Double(to) / Double(from)
    // Reducing widens the filter so it averages every input sample (support 2 at full size).
    let stretch = min(1, scale)
    let support = 2.0 / stretch
    var firsts: [Int] = []
    var starts: [Int] = [0]
    var weights: [Double] = []
    for output in 0..<to {
      let centre = (Double(output) + 0.5) / scale - 0.5
      let first = max(0, Int((centre - support).rounded(.up)))
      let last = min(from - 1, Int((centre + support).rounded(.down)))
      let run = (first...max(first, last)).map { Resampler.mitchell((Double($0) - centre) * stretch) }
      let total = run.reduce(0, +)
      weights += total == 0 ? run : run.map { $0 / total }
      firsts.append(first)
      starts.append(weights.count)
    }
    self.firsts = firsts
    self.starts = starts
    self.weights = weights
  }

  /// Resamples `lines` lines of `input`: line `l`'s sample `i` is at `l × across + i × along`; the
  /// results go to `output` the same way with `outAcross` and `outAlong`. Values are clamped to 0…255.
  func apply(
    _ input: [Double], lines: Int, along: Int, across: Int, into output: inout [Double], outAlong: Int,
    outAcross: Int
  ) {
    input.withUnsafeBufferPointer { source in
      output.withUnsafeMutableBufferPointer { target in
        weights.withUnsafeBufferPointer { weights in
          for line in 0..<lines {
            let base = line * across
            for index in 0..<firsts.count {
              var sum = 0.0
              var position = base + firsts[index] * along
              for weight in starts[index]..<starts[index + 1] {
                sum += source[position] * weights[weight]
                position += along
              }
              target[line * outAcross + index * outAlong] = min(255, max(0, sum))
            }
          }
        }
      }
    }
  }

  /// Mitchell–Netravali with B = C = 1/3 (Mitchell and Netravali, "Reconstruction Filters in Computer
  /// Graphics", SIGGRAPH 1988), support 2.
  static func mitchell(_ x: Double) -> Double {
    let b = 1.0 / 3.0
    let c = 1.0 / 3.0
    let t = abs(x)
    if t < 1 {
      return ((12 - 9 * b - 6 * c) * t * t * t + (-18 + 12 * b + 6 * c) * t * t + (6 - 2 * b)) / 6
    }
    if t < 2 {
      return ((-b - 6 * c) * t * t * t + (6 * b + 30 * c) * t * t + (-12 * b - 48 * c) * t + (8 * b + 24 * c))
        / 6
    }
    return 0
  }
}
