import PNGImages

/// The background of an opaque icon whose edge is a few flat colours: bands or panels of the design's
/// backdrop, each one colour, meeting at sharp borders.
///
/// GitJournal's icon stands on three flat greens (a dark band on the left, a light panel, medium bars
/// above and below it). Neither one colour nor the edge surface (`EdgeBackground`) describes that: the
/// surface blends the dark band into a ramp across the icon, and the light panel came out as a grey ramp
/// in the template (trial 3, P8). When the ring is three or four flat colours and nothing else, each of
/// them is background and a pixel's distance is its distance from the nearest.
///
/// Two colours are not taken this way: a flat background with a one-colour design along the edge (line art
/// whose frame runs along the border) is also two flat colours, and there the second colour is the design
/// (`backgroundClusterSpread(_:)`). A gradient is not flat: a cluster gathered around its most common
/// colour spreads as wide as the gathering allows, so it is never taken for a band.
struct FlatColours {
  /// The colours, most common on the ring first, each as red, green, blue.
  let colours: [[Int]]

  /// How far a pixel may be from a cluster's centre to belong to it.
  static let gathering = 12
  /// How far the 90th percentile of a cluster's pixels may be from its centre for the cluster to be flat:
  /// anti-aliasing and compression noise, not a gradient.
  static let flatness = 4
  /// The least share of the ring, in thousandths, a colour must hold to be one of the background's.
  static let leastShare = 30
  /// The least share of the ring, in thousandths, the colours together must hold (the rest: the
  /// anti-aliased borders between them).
  static let leastTotal = 950

  /// The flat colours of `ring` in `icon`, or nil unless there are three or four of them holding the ring.
  init?(_ icon: PNGImage, ring: [Int]) {
    guard !ring.isEmpty else { return nil }
    var remaining = ring
    var colours: [[Int]] = []
    var covered = 0
    let pixels = icon.pixels
    while colours.count < 5, !remaining.isEmpty {
      let centre = Self.commonestColour(pixels, remaining)
      var members: [Int] = []
      var distances: [Int] = []
      var others: [Int] = []
      pixels.withUnsafeBufferPointer { buffer in
        for index in remaining {
          let found = TemplateTransform.distance(buffer, index * 4, centre)
          if found <= Self.gathering {
            members.append(index)
            distances.append(found)
          } else {
            others.append(index)
          }
        }
      }
      guard members.count * 1000 >= ring.count * Self.leastShare else { break }
      distances.sort()
      guard distances[(distances.count - 1) * 90 / 100] <= Self.flatness else { return nil }
      colours.append(centre)
      covered += members.count
      remaining = others
    }
    guard (3...4).contains(colours.count), covered * 1000 >= ring.count * Self.leastTotal else { return nil }
    self.colours = colours
  }

  /// The colour of the fullest bin when the pixels are binned by their top five bits per channel, as the
  /// per-channel median of that bin's pixels.
  static func commonestColour(_ pixels: [UInt8], _ indices: [Int]) -> [Int] {
    var counts: [Int: Int] = [:]
    func bin(_ index: Int) -> Int {
      Int(pixels[index * 4] >> 3) << 10 | Int(pixels[index * 4 + 1] >> 3) << 5
        | Int(pixels[index * 4 + 2] >> 3)
    }
    for index in indices { counts[bin(index), default: 0] += 1 }
    // The fullest bin; ties go to the smaller key, so the choice does not depend on hashing.
    let fullest = counts.max { ($0.value, -$0.key) < ($1.value, -$1.key) }?.key ?? 0
    let members = indices.filter { bin($0) == fullest }
    return (0..<3).map { channel in TemplateTransform.median(members.map { Int(pixels[$0 * 4 + channel]) }) }
  }

  /// How far above `low` a pixel is wholly inside the shape: `band`, or less when the design itself
  /// stands closer to the nearest background colour. Against several colours a design is often near one of
  /// them (GitJournal's brown logo is 62 from its dark green, in the largest channel difference), and with
  /// the usual 64 it came out grey: the rise is the median distance of the pixels clearly above `low`
  /// (by 8, clear of anti-aliased borders) less `low`, from 16 up to `band`.
  func rise(_ distances: [Int], low: Int, band: Int) -> Int {
    let design = distances.filter { $0 > low + 8 }.sorted()
    guard !design.isEmpty else { return band }
    return min(band, max(16, design[(design.count - 1) / 2] - low))
  }

  /// The distance of the pixel at `offset` from the nearest of the colours (``TemplateTransform`` step 2).
  @inline(__always)
  func distance(_ pixels: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Int {
    var nearest = Int.max
    for colour in colours {
      nearest = min(nearest, TemplateTransform.distance(pixels, offset, colour))
    }
    return nearest
  }
}
