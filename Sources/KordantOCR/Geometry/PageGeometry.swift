import Foundation

/// How the image Tesseract read came from the image as given: the steps that moved pixels
/// (turns, rescaling, deskewing, a photographed page warped flat), in the order they ran.
/// Boxes found on the image read are mapped back through them, so that every box a page reports
/// is in the coordinates of the image the caller handed in, whatever preprocessing did.
struct PageGeometry: Sendable, Equatable {
    enum Step: Sendable, Equatable {
        /// Turned clockwise by a multiple of 90° (Leptonica's `pixRotateOrth`); `width` × `height`
        /// is the size before the turn.
        case turn(clockwise: Int, width: Double, height: Double)
        /// Scaled by the factor along both axes (Leptonica's `pixScale`).
        case scale(Double)
        /// Rotated by `radians` (clockwise positive, Leptonica's sense) about the centre of a
        /// `width` × `height` image, the size kept (`pixRotate` with no expansion).
        case rotate(radians: Double, width: Double, height: Double)
        /// Warped flat to `width` × `height`: each output pixel samples the input through `map`,
        /// the projective map of the unit square onto the page's corners
        /// (``PageOutline/unitSquareMap(to:)``, made once, not per point).
        case warp(map: [Double], width: Double, height: Double)
    }

    /// Size of the image as given.
    private(set) var inputWidth: Int
    private(set) var inputHeight: Int
    private(set) var steps: [Step] = []

    init(width: Int, height: Int) {
        (inputWidth, inputHeight) = (width, height)
    }

    /// Whether boxes on the image read are already in the input's coordinates.
    var isIdentity: Bool { steps.isEmpty }

    /// Adds a step applied to the image as it stands.
    mutating func append(_ step: Step) {
        steps.append(step)
    }

    /// Puts `step` before every step so far: the image these steps started from was itself made
    /// from a `width` × `height` image by `step`.
    mutating func prepend(_ step: Step, inputWidth width: Int, inputHeight height: Int) {
        steps.insert(step, at: 0)
        (inputWidth, inputHeight) = (width, height)
    }

    /// A point of the image read, in the input's coordinates (continuous pixel coordinates: the
    /// top left corner of the image is (0, 0), its bottom right (width, height)).
    func toInput(x: Double, y: Double) -> (x: Double, y: Double) {
        var (x, y) = (x, y)
        for step in steps.reversed() {
            switch step {
            case let .turn(clockwise, width, height):
                switch ((clockwise % 360) + 360) % 360 {
                case 90: (x, y) = (y, height - x)
                case 180: (x, y) = (width - x, height - y)
                case 270: (x, y) = (width - y, x)
                default: break
                }
            case let .scale(factor):
                (x, y) = (x / factor, y / factor)
            case let .rotate(radians, width, height):
                // Output = centre + R(θ)(input − centre) with y down; undone by R(−θ).
                let (cx, cy) = (width / 2, height / 2)
                let (dx, dy) = (x - cx, y - cy)
                let (c, s) = (cos(radians), sin(radians))
                (x, y) = (cx + c * dx + s * dy, cy - s * dx + c * dy)
            case let .warp(m, width, height):
                let (u, v) = (x / width, y / height)
                let z = m[6] * u + m[7] * v + 1
                (x, y) = ((m[0] * u + m[1] * v + m[2]) / z, (m[3] * u + m[4] * v + m[5]) / z)
            }
        }
        return (x, y)
    }

    /// A box of the image read as the smallest box of the input holding its four corners mapped
    /// back, cut to the input image (a turned or flattened page can carry a box past its edge).
    func toInput(_ box: BoundingBox) -> BoundingBox {
        guard !steps.isEmpty else { return box }
        let corners = [(box.x, box.y), (box.x + box.width, box.y), (box.x, box.y + box.height), (box.x + box.width, box.y + box.height)]
            .map { toInput(x: Double($0.0), y: Double($0.1)) }
        let x0 = max(0, min(inputWidth, Int(corners.map(\.x).min()!.rounded(.down))))
        let y0 = max(0, min(inputHeight, Int(corners.map(\.y).min()!.rounded(.down))))
        let x1 = max(x0, min(inputWidth, Int(corners.map(\.x).max()!.rounded(.up))))
        let y1 = max(y0, min(inputHeight, Int(corners.map(\.y).max()!.rounded(.up))))
        return BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }
}

extension PageResult {
    /// The page with its word, field and pair boxes, width and height in the coordinates of the
    /// `width` × `height` image as given (the MRZ's box already is: the zone is read from that
    /// image). hOCR, TSV and ALTO stay in the frame of the image read, which they describe.
    func mapped(to geometry: PageGeometry?, width: Int, height: Int) -> PageResult {
        var page = self
        (page.width, page.height) = (width, height)
        guard let geometry, !geometry.isIdentity else { return page }
        for i in page.words.indices { page.words[i].box = geometry.toInput(page.words[i].box) }
        for (name, field) in page.fields { page.fields[name]?.box = field.box.map(geometry.toInput) }
        for i in page.pairs.indices {
            page.pairs[i].labelBox = geometry.toInput(page.pairs[i].labelBox)
            page.pairs[i].valueBox = geometry.toInput(page.pairs[i].valueBox)
        }
        return page
    }
}
