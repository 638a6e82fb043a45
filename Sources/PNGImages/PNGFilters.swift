/// The sub-images of a PNG's data: one for a plain image, seven for Adam7.
struct PNGPasses {
  struct Pass {
    var xStart: Int
    var yStart: Int
    var xStep: Int
    var yStep: Int
    var width: Int
    var height: Int
    /// Bytes of one row without its filter-type byte.
    var rowBytes: Int
  }

  var passes: [Pass]

  /// Bytes the inflated data must have: every pass's rows, each with its filter-type byte.
  var totalFilteredBytes: Int {
    passes.reduce(0) { $0 + ($1.width > 0 && $1.height > 0 ? $1.height * ($1.rowBytes + 1) : 0) }
  }

  init(header: PNGHeader) {
    let bitsPerPixel = header.colorType.channels * header.bitDepth
    // Adam7: start column, start row, column step, row step of each of the seven passes.
    let layout: [(Int, Int, Int, Int)] =
      header.interlaced
      ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
      : [(0, 0, 1, 1)]
    passes = layout.map { xStart, yStart, xStep, yStep in
      let width = header.width > xStart ? (header.width - xStart + xStep - 1) / xStep : 0
      let height = header.height > yStart ? (header.height - yStart + yStep - 1) / yStep : 0
      return Pass(
        xStart: xStart, yStart: yStart, xStep: xStep, yStep: yStep, width: width, height: height,
        rowBytes: (width * bitsPerPixel + 7) / 8)
    }
  }
}

extension PNGHeader {
  /// The byte distance filters look back: bytes per complete pixel, at least 1.
  var filterStride: Int { max(1, colorType.channels * bitDepth / 8) }
}

/// PNG's five row filters (specification §9).
enum PNGFilters {
  /// Reverses the filters of `data` (rows of `rowBytes + 1` bytes, the first byte of each its filter type)
  /// in place. Returns the index of the first row with an unknown filter type, or `nil`.
  static func unfilter(_ data: inout [UInt8], rowBytes: Int, bytesPerPixel: Int) -> Int? {
    let stride = rowBytes + 1
    let rows = data.count / stride
    return data.withUnsafeMutableBufferPointer { buffer -> Int? in
      for row in 0..<rows {
        let start = row * stride + 1
        let previous = start - stride
        let hasPrevious = row > 0
        switch buffer[start - 1] {
        case 0: break
        case 1:
          for i in bytesPerPixel..<max(bytesPerPixel, rowBytes) {
            buffer[start + i] &+= buffer[start + i - bytesPerPixel]
          }
        case 2:
          guard hasPrevious else { break }
          for i in 0..<rowBytes { buffer[start + i] &+= buffer[previous + i] }
        case 3:
          for i in 0..<rowBytes {
            let left = i >= bytesPerPixel ? Int(buffer[start + i - bytesPerPixel]) : 0
            let up = hasPrevious ? Int(buffer[previous + i]) : 0
            buffer[start + i] &+= UInt8((left + up) / 2)
          }
        case 4:
          for i in 0..<rowBytes {
            let left = i >= bytesPerPixel ? buffer[start + i - bytesPerPixel] : 0
            let up = hasPrevious ? buffer[previous + i] : 0
            let upLeft = hasPrevious && i >= bytesPerPixel ? buffer[previous + i - bytesPerPixel] : 0
            buffer[start + i] &+= paeth(left, up, upLeft)
          }
        default: return row
        }
      }
      return nil
    }
  }

  /// Filters `rows` (each `rowBytes` long, concatenated) for writing: each row gets the filter whose
  /// output has the smallest sum of absolute values, libpng's heuristic, which deflates well.
  static func filter(_ rows: [UInt8], rowBytes: Int, bytesPerPixel: Int) -> [UInt8] {
    let count = rowBytes == 0 ? 0 : rows.count / rowBytes
    var output = [UInt8]()
    output.reserveCapacity(count * (rowBytes + 1))
    var candidate = [UInt8](repeating: 0, count: rowBytes)
    var best = [UInt8](repeating: 0, count: rowBytes)
    for row in 0..<count {
      let start = row * rowBytes
      var bestType: UInt8 = 0
      var bestScore = Int.max
      for type: UInt8 in 0...4 {
        var score = 0
        for i in 0..<rowBytes {
          let value = rows[start + i]
          let left = i >= bytesPerPixel ? rows[start + i - bytesPerPixel] : 0
          let up = row > 0 ? rows[start + i - rowBytes] : 0
          let upLeft = row > 0 && i >= bytesPerPixel ? rows[start + i - rowBytes - bytesPerPixel] : 0
          let filtered: UInt8
          switch type {
          case 1: filtered = value &- left
          case 2: filtered = value &- up
          case 3: filtered = value &- UInt8((Int(left) + Int(up)) / 2)
          case 4: filtered = value &- paeth(left, up, upLeft)
          default: filtered = value
          }
          candidate[i] = filtered
          score += filtered < 128 ? Int(filtered) : 256 - Int(filtered)
        }
        if score < bestScore {
          bestScore = score
          bestType = type
          swap(&best, &candidate)
        }
      }
      output.append(bestType)
      output.append(contentsOf: best)
    }
    return output
  }

  @inline(__always)
  static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
    let p = Int(a) + Int(b) - Int(c)
    let pa = abs(p - Int(a))
    let pb = abs(p - Int(b))
    let pc = abs(p - Int(c))
    if pa <= pb && pa <= pc { return a }
    return pb <= pc ? b : c
  }
}
