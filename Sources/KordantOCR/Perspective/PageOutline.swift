@preconcurrency import CTesseract
import Foundation

/// A point in image pixels (x to the right, y down).
public struct PagePoint: Sendable, Hashable, Codable {
    public var x: Double
    public var y: Double

    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// The four corners of a sheet of paper or a card photographed on a darker surface, and the
/// perspective warp that makes it a flat rectangle again.
///
/// A phone photo shows the page as a quadrilateral: turned by any angle, narrower at the far end,
/// on a desk or cloth. Deskewing alone undoes only a small turn of level lines; Tesseract then
/// reads slanted, shrinking lines poorly and the surround as noise. The paper is found as the
/// largest bright region of a reduced copy, its outline as the largest quadrilateral inside the
/// region's convex hull, refined by lines fitted to the region's edges.
struct PageOutline {
    /// Corners in the image, clockwise from the top left of the page as it will be read (the
    /// corner that starts the edge running most nearly left to right).
    var corners: [PagePoint]

    /// Longest side of the reduced copy searched: the outline needs the paper's edges, not its text.
    static let searchSize = 512

    /// The page's outline, or nil when the image does not show a bright quadrilateral on a
    /// clearly darker surround that lies wholly inside the frame (scans, pages cut off by the frame,
    /// paper on white tables, shapes that are not four-sided).
    static func find(in image: GrayImage) -> PageOutline? {
        let k = max(1, (max(image.width, image.height) + searchSize - 1) / searchSize)
        let w = image.width / k, h = image.height / k
        guard w >= 64, h >= 64 else { return nil }
        let small = image.pixels.withUnsafeBufferPointer { src in
            reduced(by: k, width: w, height: h) { y in UnsafeRawPointer(src.baseAddress! + y * image.width) }
        }
        return find(small: small, width: w, height: h, scale: k)
    }

    /// As ``find(in:)`` on an 8-bit Leptonica image, reduced in place (a page without an outline,
    /// most of them, is never copied whole).
    static func find(in pix: UnsafeMutablePointer<Pix>) -> PageOutline? {
        guard pixGetDepth(pix) == 8, pixGetColormap(pix) == nil, let data = pixGetData(pix) else { return nil }
        let width = Int(pixGetWidth(pix)), height = Int(pixGetHeight(pix)), wpl = Int(pixGetWpl(pix))
        let k = max(1, (max(width, height) + searchSize - 1) / searchSize)
        let w = width / k, h = height / k
        guard w >= 64, h >= 64 else { return nil }
        // Leptonica keeps 8-bit pixels big-endian within 32-bit words (pixel x is byte x ^ 3):
        // each row is put in order first.
        var row = [UInt8](repeating: 0, count: width)
        let small = row.withUnsafeMutableBufferPointer { ordered in
            reduced(by: k, width: w, height: h) { y in
                let bytes = UnsafeRawPointer(data + y * wpl).assumingMemoryBound(to: UInt8.self)
                for x in 0..<width { ordered[x] = bytes[x ^ 3] }
                return UnsafeRawPointer(ordered.baseAddress!)
            }
        }
        return find(small: small, width: w, height: h, scale: k)
    }

    static func find(small: [UInt8], width w: Int, height h: Int, scale k: Int) -> PageOutline? {

        // Paper against surround: Otsu's split of the reduced copy, with the two sides clearly apart.
        guard let (threshold, paperMean, surroundMean) = otsu(small), paperMean - surroundMean >= 20 else { return nil }
        // A frame edged mostly by bright pixels has no darker surround (a scan: the paper is the frame).
        var brightEdge = 0
        for x in 0..<w where small[x] > threshold || small[(h - 1) * w + x] > threshold { brightEdge += 1 }
        for y in 0..<h where small[y * w] > threshold || small[y * w + w - 1] > threshold { brightEdge += 1 }
        guard brightEdge * 2 < w + h else { return nil }
        var bright = [Bool](repeating: false, count: w * h)
        for i in 0..<(w * h) { bright[i] = small[i] > threshold }
        // One pixel of erosion cuts thin bright bridges (a light grain of wood touching the paper).
        let core = eroded(bright, width: w, height: h)
        guard let component = largestComponent(core, width: w, height: h) else { return nil }
        let region = filled(dilated(component, width: w, height: h), width: w, height: h)

        var area = 0, onBorder = 0
        for y in 0..<h {
            for x in 0..<w where region[y * w + x] {
                area += 1
                if x == 0 || y == 0 || x == w - 1 || y == h - 1 { onBorder += 1 }
            }
        }
        // Big enough to be the subject, with a surround on every side (a page running off the
        // frame has no fourth corner to find).
        guard area >= w * h / 10, area <= w * h * 95 / 100, onBorder <= (w + h) / 50 else { return nil }

        var boundary: [PagePoint] = []
        for y in 0..<h {
            for x in 0..<w where region[y * w + x] {
                let edge = x == 0 || y == 0 || x == w - 1 || y == h - 1
                    || !region[y * w + x - 1] || !region[y * w + x + 1] || !region[(y - 1) * w + x] || !region[(y + 1) * w + x]
                if edge { boundary.append(PagePoint(x: Double(x) + 0.5, y: Double(y) + 0.5)) }
            }
        }
        let hull = convexHull(boundary)
        guard hull.count >= 4, let quad = largestQuadrilateral(in: hull) else { return nil }
        let quadArea = polygonArea(quad)
        // The region must be that quadrilateral, not a rounder or ragged shape.
        guard quadArea >= Double(area) * 0.9, quadArea >= polygonArea(hull) * 0.95 else { return nil }

        var corners = refined(quad, boundary: boundary) ?? quad
        guard isConvex(corners), corners.allSatisfy({ $0.x > -2 && $0.y > -2 && $0.x < Double(w) + 2 && $0.y < Double(h) + 2 }) else { return nil }
        // Each corner roughly square: a page seen at an angle, not a sliver or a kite.
        for i in 0..<4 {
            let a = corners[(i + 3) % 4], b = corners[i], c = corners[(i + 1) % 4]
            let u = (a.x - b.x, a.y - b.y), v = (c.x - b.x, c.y - b.y)
            let cosine = (u.0 * v.0 + u.1 * v.1) / max(1e-9, (u.0 * u.0 + u.1 * u.1).squareRoot() * (v.0 * v.0 + v.1 * v.1).squareRoot())
            guard abs(cosine) < 0.5 else { return nil }
        }
        // Start at the top-left corner of the page as it lies: the edge pointing most nearly to the
        // right is the top one (clockwise order on screen).
        var start = 0, best = -Double.infinity
        for i in 0..<4 {
            let a = corners[i], b = corners[(i + 1) % 4]
            let dx = b.x - a.x, dy = b.y - a.y
            let rightward = dx / max(1e-9, (dx * dx + dy * dy).squareRoot())
            if rightward > best { (best, start) = (rightward, i) }
        }
        corners = (0..<4).map { corners[(start + $0) % 4] }
        let scale = Double(k)
        return PageOutline(corners: corners.map { PagePoint(x: $0.x * scale, y: $0.y * scale) })
    }

    /// Size of the flat page: the longer of each pair of opposite edges.
    var rectifiedSize: (width: Int, height: Int) {
        func length(_ a: PagePoint, _ b: PagePoint) -> Double { ((a.x - b.x) * (a.x - b.x) + (a.y - b.y) * (a.y - b.y)).squareRoot() }
        let c = corners
        let width = max(length(c[0], c[1]), length(c[3], c[2]))
        let height = max(length(c[0], c[3]), length(c[1], c[2]))
        return (Int(width.rounded()), Int(height.rounded()))
    }

    /// The projective map from the unit square onto the corners (Heckbert's closed form):
    /// `(a, b, c, d, e, f, g, h)` with x = (a·u + b·v + c) / z, y = (d·u + e·v + f) / z and
    /// z = g·u + h·v + 1; (0, 0) goes to `corners[0]`, (1, 0) to `corners[1]`, (1, 1) to `corners[2]`.
    static func unitSquareMap(to corners: [PagePoint]) -> [Double] {
        let c = corners
        let (x0, y0, x1, y1, x2, y2, x3, y3) = (c[0].x, c[0].y, c[1].x, c[1].y, c[2].x, c[2].y, c[3].x, c[3].y)
        let dx1 = x1 - x2, dx2 = x3 - x2, dx3 = x0 - x1 + x2 - x3
        let dy1 = y1 - y2, dy2 = y3 - y2, dy3 = y0 - y1 + y2 - y3
        var g = 0.0, h = 0.0
        let det = dx1 * dy2 - dx2 * dy1
        if abs(det) > 1e-12 {
            g = (dx3 * dy2 - dx2 * dy3) / det
            h = (dx1 * dy3 - dx3 * dy1) / det
        }
        return [x1 - x0 + g * x1, x3 - x0 + h * x3, x0, y1 - y0 + g * y1, y3 - y0 + h * y3, y0, g, h]
    }

    /// The page warped flat: each output pixel samples the photo through ``unitSquareMap(to:)``,
    /// bilinearly.
    func rectified(_ image: GrayImage) -> GrayImage {
        let (width, height) = rectifiedSize
        let m = Self.unitSquareMap(to: corners)
        let (a, b, c, d, e, f, g, h) = (m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7])
        var out = [UInt8](repeating: 255, count: width * height)
        out.withUnsafeMutableBufferPointer { dst in
            for row in 0..<height {
                let v = (Double(row) + 0.5) / Double(height)
                for col in 0..<width {
                    let u = (Double(col) + 0.5) / Double(width)
                    let z = g * u + h * v + 1
                    let sx = (a * u + b * v + c) / z, sy = (d * u + e * v + f) / z
                    dst[row * width + col] = UInt8(min(255, max(0, image.sample(sx, sy).rounded())))
                }
            }
        }
        return GrayImage(width: width, height: height, pixels: out)
    }

    // MARK: - Steps

    /// Box-average reduction by `k` (a whole factor, so every output pixel averages k×k inputs);
    /// `row(y)` gives source row y's pixels in order, valid until the next call.
    static func reduced(by k: Int, width w: Int, height h: Int, row: (Int) -> UnsafeRawPointer) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: w * h)
        var sums = [Int](repeating: 0, count: w)
        for y in 0..<h {
            for i in 0..<w { sums[i] = 0 }
            for yy in (y * k)..<(y * k + k) {
                let src = row(yy).assumingMemoryBound(to: UInt8.self)
                for x in 0..<w {
                    var s = 0
                    for xx in (x * k)..<(x * k + k) { s += Int(src[xx]) }
                    sums[x] += s
                }
            }
            for x in 0..<w { out[y * w + x] = UInt8(sums[x] / (k * k)) }
        }
        return out
    }

    /// Otsu's threshold and the means of the two classes (above, at or below).
    static func otsu(_ pixels: [UInt8]) -> (threshold: UInt8, above: Double, below: Double)? {
        var histogram = [Double](repeating: 0, count: 256)
        for p in pixels { histogram[Int(p)] += 1 }
        guard let threshold = otsuSplit(histogram) else { return nil }
        let total = Double(pixels.count)
        var sumAll = 0.0
        for i in 0..<256 { sumAll += Double(i) * histogram[i] }
        var wb = 0.0, sb = 0.0
        for i in 0...threshold { wb += histogram[i]; sb += Double(i) * histogram[i] }
        return (UInt8(threshold), (sumAll - sb) / (total - wb), sb / wb)
    }

    /// Otsu's split of a 256-level histogram: the level (itself below) that maximises the
    /// between-class variance; nil when the histogram holds one level only.
    static func otsuSplit(_ histogram: [Double]) -> Int? {
        let total = histogram.reduce(0, +)
        var sumAll = 0.0
        for i in 0..<256 { sumAll += Double(i) * histogram[i] }
        var weightBelow = 0.0, sumBelow = 0.0, best = -1.0, threshold = 0
        for t in 0..<255 {
            weightBelow += histogram[t]
            sumBelow += Double(t) * histogram[t]
            let weightAbove = total - weightBelow
            guard weightBelow > 0, weightAbove > 0 else { continue }
            let m0 = sumBelow / weightBelow, m1 = (sumAll - sumBelow) / weightAbove
            let between = weightBelow * weightAbove * (m1 - m0) * (m1 - m0)
            if between > best { (best, threshold) = (between, t) }
        }
        return best > 0 ? threshold : nil
    }

    static func eroded(_ mask: [Bool], width w: Int, height h: Int) -> [Bool] {
        var out = [Bool](repeating: false, count: w * h)
        for y in 1..<(h - 1) {
            for x in 1..<(w - 1) {
                let i = y * w + x
                out[i] = mask[i] && mask[i - 1] && mask[i + 1] && mask[i - w] && mask[i + w]
            }
        }
        return out
    }

    static func dilated(_ mask: [Bool], width w: Int, height h: Int) -> [Bool] {
        var out = mask
        for y in 0..<h {
            for x in 0..<w where mask[y * w + x] {
                if x > 0 { out[y * w + x - 1] = true }
                if x < w - 1 { out[y * w + x + 1] = true }
                if y > 0 { out[(y - 1) * w + x] = true }
                if y < h - 1 { out[(y + 1) * w + x] = true }
            }
        }
        return out
    }

    /// The largest 4-connected set of true pixels.
    static func largestComponent(_ mask: [Bool], width w: Int, height h: Int) -> [Bool]? {
        var label = [Int32](repeating: 0, count: w * h)
        var stack: [Int] = []
        var bestLabel: Int32 = 0, bestSize = 0, next: Int32 = 0
        for seed in 0..<(w * h) where mask[seed] && label[seed] == 0 {
            next += 1
            label[seed] = next
            stack.append(seed)
            var size = 0
            while let i = stack.popLast() {
                size += 1
                let x = i % w, y = i / w
                @inline(__always) func visit(_ n: Int) {
                    if mask[n] && label[n] == 0 {
                        label[n] = next
                        stack.append(n)
                    }
                }
                if x > 0 { visit(i - 1) }
                if x < w - 1 { visit(i + 1) }
                if y > 0 { visit(i - w) }
                if y < h - 1 { visit(i + w) }
            }
            if size > bestSize { (bestSize, bestLabel) = (size, next) }
        }
        guard bestSize > 0 else { return nil }
        return label.map { $0 == bestLabel }
    }

    /// The region with its holes filled: everything not reachable from the frame without
    /// crossing it (text and pictures on the page are holes in the bright mask).
    static func filled(_ region: [Bool], width w: Int, height h: Int) -> [Bool] {
        var outside = [Bool](repeating: false, count: w * h)
        var stack: [Int] = []
        func push(_ i: Int) { if !region[i] && !outside[i] { outside[i] = true; stack.append(i) } }
        for x in 0..<w { push(x); push((h - 1) * w + x) }
        for y in 0..<h { push(y * w); push(y * w + w - 1) }
        while let i = stack.popLast() {
            let x = i % w, y = i / w
            if x > 0 { push(i - 1) }
            if x < w - 1 { push(i + 1) }
            if y > 0 { push(i - w) }
            if y < h - 1 { push(i + w) }
        }
        return outside.map { !$0 }
    }

    /// Andrew's monotone chain; the hull runs clockwise on screen (y down).
    static func convexHull(_ points: [PagePoint]) -> [PagePoint] {
        let p = points.sorted { $0.x != $1.x ? $0.x < $1.x : $0.y < $1.y }
        guard p.count >= 3 else { return p }
        func cross(_ o: PagePoint, _ a: PagePoint, _ b: PagePoint) -> Double { (a.x - o.x) * (b.y - o.y) - (a.y - o.y) * (b.x - o.x) }
        var lower: [PagePoint] = [], upper: [PagePoint] = []
        for q in p {
            while lower.count >= 2 && cross(lower[lower.count - 2], lower[lower.count - 1], q) <= 0 { lower.removeLast() }
            lower.append(q)
        }
        for q in p.reversed() {
            while upper.count >= 2 && cross(upper[upper.count - 2], upper[upper.count - 1], q) <= 0 { upper.removeLast() }
            upper.append(q)
        }
        let hull = Array(lower.dropLast() + upper.dropLast())
        // Counter-clockwise in y-up terms is clockwise on screen only with a positive area below.
        return polygonSignedArea(hull) >= 0 ? hull : hull.reversed()
    }

    static func polygonSignedArea(_ p: [PagePoint]) -> Double {
        var s = 0.0
        for i in 0..<p.count {
            let a = p[i], b = p[(i + 1) % p.count]
            s += a.x * b.y - b.x * a.y
        }
        return s / 2
    }

    static func polygonArea(_ p: [PagePoint]) -> Double { abs(polygonSignedArea(p)) }

    /// The four hull vertices enclosing the most area. For each diagonal (i, k) the best third and
    /// fourth vertices are the ones farthest from it on either side; a convex polygon's distance to
    /// a line is unimodal along it, so each is found by walking forward while the area grows.
    static func largestQuadrilateral(in hull: [PagePoint]) -> [PagePoint]? {
        let n = hull.count
        guard n >= 4 else { return nil }
        func triangle(_ a: Int, _ b: Int, _ c: Int) -> Double {
            let p = hull[a], q = hull[b], r = hull[c]
            return abs((q.x - p.x) * (r.y - p.y) - (q.y - p.y) * (r.x - p.x)) / 2
        }
        var best = 0.0, bestQuad: (Int, Int, Int, Int)?
        for i in 0..<n {
            var j = (i + 1) % n
            for step in 2..<(n - 1) {
                let k = (i + step) % n
                // j in (i, k): walk while the triangle (i, j, k) grows.
                while (j + 1) % n != k && triangle(i, (j + 1) % n, k) >= triangle(i, j, k) { j = (j + 1) % n }
                // l in (k, i).
                var l = (k + 1) % n, lArea = triangle(k, l, i)
                var m = (l + 1) % n
                while m != i {
                    let a = triangle(k, m, i)
                    if a >= lArea { (l, lArea) = (m, a) } else { break }
                    m = (m + 1) % n
                }
                let area = triangle(i, j, k) + lArea
                if area > best { (best, bestQuad) = (area, (i, j, k, l)) }
            }
        }
        guard let q = bestQuad else { return nil }
        return [hull[q.0], hull[q.1], hull[q.2], hull[q.3]]
    }

    /// Corners where lines fitted to each side's boundary pixels meet. Corners of the hull sit on
    /// single pixels (rounded corners, blur); a line through a side's middle stretch is steadier.
    static func refined(_ quad: [PagePoint], boundary: [PagePoint]) -> [PagePoint]? {
        var lines: [(px: Double, py: Double, dx: Double, dy: Double)] = []
        for i in 0..<4 {
            let a = quad[i], b = quad[(i + 1) % 4]
            let ex = b.x - a.x, ey = b.y - a.y
            let length = (ex * ex + ey * ey).squareRoot()
            guard length > 8 else { return nil }
            let ux = ex / length, uy = ey / length
            var sx = 0.0, sy = 0.0, sxx = 0.0, syy = 0.0, sxy = 0.0, n = 0.0
            for p in boundary {
                let rx = p.x - a.x, ry = p.y - a.y
                let along = rx * ux + ry * uy, across = rx * uy - ry * ux
                guard along > length * 0.1, along < length * 0.9, abs(across) <= 2 else { continue }
                sx += p.x; sy += p.y; sxx += p.x * p.x; syy += p.y * p.y; sxy += p.x * p.y; n += 1
            }
            guard n >= 6 else { return nil }
            let mx = sx / n, my = sy / n
            let cxx = sxx / n - mx * mx, cyy = syy / n - my * my, cxy = sxy / n - mx * my
            // Direction of the principal axis (total least squares).
            let angle = 0.5 * atan2(2 * cxy, cxx - cyy)
            lines.append((mx, my, cos(angle), sin(angle)))
        }
        var corners: [PagePoint] = []
        for i in 0..<4 {
            let l1 = lines[(i + 3) % 4], l2 = lines[i]
            let det = l1.dx * l2.dy - l1.dy * l2.dx
            guard abs(det) > 1e-6 else { return nil }
            let t = ((l2.px - l1.px) * l2.dy - (l2.py - l1.py) * l2.dx) / det
            corners.append(PagePoint(x: l1.px + t * l1.dx, y: l1.py + t * l1.dy))
        }
        // Each refined corner stays near its hull corner.
        for i in 0..<4 where abs(corners[i].x - quad[i].x) > 6 || abs(corners[i].y - quad[i].y) > 6 { return nil }
        return corners
    }

    static func isConvex(_ p: [PagePoint]) -> Bool {
        var sign = 0.0
        for i in 0..<p.count {
            let a = p[i], b = p[(i + 1) % p.count], c = p[(i + 2) % p.count]
            let z = (b.x - a.x) * (c.y - b.y) - (b.y - a.y) * (c.x - b.x)
            if z == 0 { return false }
            if sign == 0 { sign = z } else if (z > 0) != (sign > 0) { return false }
        }
        return true
    }
}
