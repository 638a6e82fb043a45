import PNGImages

/// The background an opaque icon's design stands on, when it is a gradient: a bilinear surface read from
/// the icon's edge (the ring of step 1).
///
/// Many icons stand on a gradient, not one colour: against the ring's median a light shape on a
/// white-to-teal gradient differs less than the gradient's own ends do, so the threshold that keeps the
/// gradient out drops the shape too (IceCubes' elephant icon kept only its darkest quarter). Each side of
/// the ring is taken as a straight line through the medians of its two halves, so a design touching the
/// edge over less than half a side does not move it; each corner is the mean of its two sides' lines
/// there, and inside the colour is the bilinear blend of the corners, which is exact for a linear gradient
/// in any direction. Four colours cannot follow a design along the edge, which a per-pixel edge profile
/// did (streaks across the icon where a drawing touched its border). ``TemplateTransform/coverage(of:)``
/// uses the surface only when it explains the ring clearly better than one colour does.
struct EdgeBackground {
  let width: Int
  let height: Int
  /// Per channel, the corner colours: top left, top right, bottom left, bottom right.
  let corners: [(topLeft: Int, topRight: Int, bottomLeft: Int, bottomRight: Int)]

  /// The surface of `icon`'s edge, `band` pixels wide; nil for images too small to have halves.
  init?(_ icon: PNGImage, band: Int) {
    guard icon.width >= 4, icon.height >= 4 else { return nil }
    let (width, height) = (icon.width, icon.height)
    self.width = width
    self.height = height
    let pixels = icon.pixels
    /// A side's colour at its start and end: the line through its halves' medians, at a quarter and three
    /// quarters of its length, extended to both ends (doubled, to keep the halves exact in integers).
    func side(count: Int, channel: Int, pixel: (Int, Int) -> Int) -> (start: Int, end: Int) {
      func half(_ range: Range<Int>) -> Int {
        TemplateTransform.median(
          range.flatMap { along in (0..<band).map { Int(pixels[pixel(along, $0) * 4 + channel]) } })
      }
      let first = half(0..<(count / 2))
      let second = half((count / 2)..<count)
      // `first` at 1/4 and `second` at 3/4: at 0, first − (second − first)/2, at the end
      // second + (second − first)/2; doubled, 3·first − second and 3·second − first.
      return (3 * first - second, 3 * second - first)
    }
    corners = (0..<3).map { channel in
      let left = side(count: height, channel: channel) { y, offset in y * width + offset }
      let right = side(count: height, channel: channel) { y, offset in y * width + width - 1 - offset }
      let top = side(count: width, channel: channel) { x, offset in offset * width + x }
      let bottom = side(count: width, channel: channel) { x, offset in (height - 1 - offset) * width + x }
      // Each value is doubled; a corner is the mean of its two sides: the sum of the doubles over 4.
      func corner(_ a: Int, _ b: Int) -> Int { min(255, max(0, (a + b + 2) / 4)) }
      return (
        corner(left.start, top.start), corner(right.start, top.end), corner(left.end, bottom.start),
        corner(right.end, bottom.end)
      )
    }
  }

  /// The background colour at (`x`, `y`) in `channel`: the bilinear blend of the corners, in integers (the
  /// same bytes everywhere).
  func colour(x: Int, y: Int, channel: Int) -> Int {
    let (w, h) = (width - 1, height - 1)
    let c = corners[channel]
    let numerator =
      (w - x) * (h - y) * c.topLeft + x * (h - y) * c.topRight + (w - x) * y * c.bottomLeft + x * y
      * c.bottomRight
    let denominator = w * h
    return (numerator + denominator / 2) / denominator
  }
}
