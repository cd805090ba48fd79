@preconcurrency import CTesseract

extension Preprocessor {
    /// A fax dithers the photo of an identity page into thousands of dots. Tesseract's layout
    /// analysis takes the dots and the column of labels and values beside them for one block of
    /// text and reads it as noise: on dev faxes whose photo came out dark, every field beside it
    /// was lost (`Hales Of Leet # Daole the nabs` for three lines of a passport). The dithered
    /// regions of a bilevel page are painted paper-white in `image` (8-bit, two levels) before it
    /// is read (a copy: the image as given is left alone); the page's text is left as it was.
    ///
    /// A region is dithered where closing the ink with a 5×5 square fills it almost solid (the
    /// gaps between dots are a pixel or two; between letters, and between lines, they are wider),
    /// a square of 1.5 capital heights then still fits inside (no line of text is that tall), and
    /// its ink falls into many specks: under a quarter of a capital height squared of ink per
    /// component (on the dev faxes, measured with an OpenCV prototype of this rule: photos
    /// 0.03–0.11; words and bold headings 0.6 and more). A paler dither, too sparse to close
    /// under the 5×5 square, is found by its specks (`lightDithers`).
    /// Returns the painted copy and the regions painted (in its pixels), or nil when there are none.
    static func paintHalftones(_ image: LeptImage) throws(OCRError) -> (LeptImage, [BoundingBox])? {
        guard image.depth == 8, let binaryPix = pixConvertTo1(image.pix, 128) else { return nil }
        let binary = LeptImage(binaryPix)
        guard let cap = capHeight(binary) else { return nil }
        let fill = Int32(5)
        let fits = Int32(max(9, (1.5 * cap).rounded()))
        guard let closed = pixCloseSafeBrick(nil, binary.pix, fill, fill) else { return nil }
        let closedImage = LeptImage(closed)
        guard let opened = pixOpenBrick(nil, closedImage.pix, fits, fits) else { return nil }
        let openedImage = LeptImage(opened)
        var painted = denseDithers(binary, opened: openedImage, cap: cap)
        // A light dither (a pale photo) does not close solid under the 5×5 square; its specks do
        // under a larger one.
        painted += lightDithers(binary, cap: cap).filter { box in !painted.contains { $0.intersects(box) } }
        guard !painted.isEmpty else { return nil }
        let copy = try LeptImage.make(pixCopy(nil, image.pix), "halftone")
        for box in painted { copy.fill(box, with: 255) }
        return (copy, painted)
    }

    /// The dense dithers among what survived the opening (`opened`): pieces of pictures, and the
    /// odd bold heading, whose ink is in a few large letters. Only the dithered pieces are kept.
    private static func denseDithers(_ binary: LeptImage, opened openedImage: LeptImage, cap: Double) -> [BoundingBox] {
        let pieces = openedImage.componentBoxes().filter { dithered(binary, $0, cap: cap) }
        guard !pieces.isEmpty, let mask = pixCreate(Int32(binary.width), Int32(binary.height), 1) else { return [] }
        let maskImage = LeptImage(mask)
        for piece in pieces { maskImage.fill(piece, with: 1) }
        // Pieces of one picture (a light dither breaks up under the opening) are joined within
        // six capital heights (only dithered pieces are in the mask), and the box of the joined
        // pieces is grown by strips as long as they are dithered too: a picture painted in part
        // leaves a frame of dots that Tesseract reads worse than the whole.
        let join = Int32(max(3, (6 * cap).rounded()))
        guard let joined = pixCloseSafeBrick(nil, maskImage.pix, join, join) else { return [] }
        var painted: [BoundingBox] = []
        for found in LeptImage(joined).componentBoxes() where Double(found.width) >= 3 * cap && Double(found.height) >= 3 * cap {
            // Pieces of one light picture can join into several boxes that grow into the same one.
            guard dithered(binary, found, cap: cap), !painted.contains(where: { $0.intersects(found) }) else { continue }
            painted.append(grown(found, binary, cap: cap))
        }
        return painted
    }

    /// Light dithers: a pale photo's dots lie too far apart to close under the 5×5 square, and
    /// its ink is under the 8 % `dithered` asks. Its specks (components no larger than a third of
    /// a capital height each way) are closed under a square of three quarters of a capital height
    /// instead, and what then holds a square of 1.5 capital heights, at least 3 capital heights
    /// each way, is a picture when at least 2 % of it is ink, in at least 3 components per capital
    /// height squared, 80 % of them specks (text has at most about 1.5 letters per capital height
    /// squared, few of them specks). On 74 dev faxes of three seeds (an OpenCV copy of this rule,
    /// `benchmarks/page-variants --dithers`): pale photos 0.06–0.09 ink, 5–7.5 components per
    /// capital height squared, 94–100 % specks; the darker photos the dense rule finds too; nothing on any page without a photo.
    /// Returns the boxes, with the 5-pixel rim the closing and opening shaved off.
    private static func lightDithers(_ binary: LeptImage, cap: Double) -> [BoundingBox] {
        let limit = Int32(max(2, cap / 3))
        guard let selected = pixSelectBySize(binary.pix, limit, limit, 8, Int32(L_SELECT_IF_BOTH), Int32(L_SELECT_IF_LTE), nil) else {
            return []
        }
        let specks = LeptImage(selected)
        let close = Int32(max(3, (0.75 * cap).rounded()))
        let fits = Int32(max(9, (1.5 * cap).rounded()))
        guard let closed = pixCloseSafeBrick(nil, specks.pix, close, close) else { return [] }
        let closedImage = LeptImage(closed)
        guard let opened = pixOpenBrick(nil, closedImage.pix, fits, fits) else { return [] }
        let rim = 5
        let found = LeptImage(opened).componentBoxes().compactMap { box -> BoundingBox? in
            guard Double(box.width) >= 3 * cap, Double(box.height) >= 3 * cap,
                  let region = binary.clipped(to: box), let regionSpecks = specks.clipped(to: box) else { return nil }
            var ink: Int32 = 0, components: Int32 = 0, small: Int32 = 0
            guard pixCountPixels(region.pix, &ink, nil) == 0, pixCountConnComp(region.pix, 8, &components) == 0,
                  pixCountConnComp(regionSpecks.pix, 8, &small) == 0, components > 0 else { return nil }
            let area = Double(box.width * box.height)
            let share = Double(ink) / area
            guard share >= 0.02, share <= 0.8, Double(small) >= 0.8 * Double(components),
                  Double(components) * cap * cap >= 3 * area else { return nil }
            let (x0, y0) = (max(0, box.x - rim), max(0, box.y - rim))
            let (x1, y1) = (min(binary.width, box.x + box.width + rim), min(binary.height, box.y + box.height + rim))
            return BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
        }
        // Pieces of one photo that overlap are one region.
        var merged: [BoundingBox] = []
        for box in found {
            var box = box
            while let i = merged.firstIndex(where: { $0.intersects(box) }) { box = box.union(merged.remove(at: i)) }
            merged.append(box)
        }
        return merged
    }

    /// `box` grown side by side, a strip of half a capital height at a time, while the strip
    /// beyond is dithered (held to a tenth of a capital height squared of ink per component:
    /// a strip through letters cuts them into small pieces too), then by the 5-pixel rim of dots
    /// the closing and opening shaved off.
    private static func grown(_ box: BoundingBox, _ binary: LeptImage, cap: Double) -> BoundingBox {
        let step = max(2, Int(cap / 2))
        var (x0, y0, x1, y1) = (box.x, box.y, box.x + box.width, box.y + box.height)
        let (width, height) = (binary.width, binary.height)
        var growing = true
        while growing {
            growing = false
            let strips = [
                BoundingBox(x: max(0, x0 - step), y: y0, width: x0 - max(0, x0 - step), height: y1 - y0),
                BoundingBox(x: x1, y: y0, width: min(width, x1 + step) - x1, height: y1 - y0),
                BoundingBox(x: x0, y: max(0, y0 - step), width: x1 - x0, height: y0 - max(0, y0 - step)),
                BoundingBox(x: x0, y: y1, width: x1 - x0, height: min(height, y1 + step) - y1),
            ]
            for (side, strip) in strips.enumerated() where dithered(binary, strip, cap: cap, perComponent: 0.1) {
                switch side {
                case 0: x0 = strip.x
                case 1: x1 = strip.x + strip.width
                case 2: y0 = strip.y
                default: y1 = strip.y + strip.height
                }
                growing = true
            }
        }
        let rim = 5
        (x0, y0, x1, y1) = (max(0, x0 - rim), max(0, y0 - rim), min(width, x1 + rim), min(height, y1 + rim))
        return BoundingBox(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    /// Whether the ink of `binary` inside `box` is a dither: between 8 % and 80 % of the box, in
    /// components of under `perComponent` capital heights squared of ink each on average.
    private static func dithered(_ binary: LeptImage, _ box: BoundingBox, cap: Double, perComponent: Double = 0.25) -> Bool {
        guard box.width > 0, box.height > 0, let clip = binary.clipped(to: box) else { return false }
        var ink: Int32 = 0, components: Int32 = 0
        guard pixCountPixels(clip.pix, &ink, nil) == 0, pixCountConnComp(clip.pix, 8, &components) == 0,
              components > 0 else { return false }
        let share = Double(ink) / Double(box.width * box.height)
        return share >= 0.08 && share <= 0.8 && Double(ink) / Double(components) <= perComponent * cap * cap
    }
}
