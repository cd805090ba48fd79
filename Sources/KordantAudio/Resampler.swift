import CSoxr

/// A mono float resampler backed by libsoxr at high quality (SOXR_HQ: 20-bit precision, linear
/// phase, 91.3 % passband), single-threaded. Owns its `soxr_t` and an output buffer sized once.
public final class Resampler {
    public let inputRate: Double
    public let outputRate: Double
    private let soxr: soxr_t
    private var output: UnsafeMutableBufferPointer<Float>
    private let maxInput: Int

    /// - Parameter maxInputBlock: the largest block ``process(_:_:)`` will be given; sizes the
    ///   output buffer once so processing never allocates.
    public init(inputRate: Double, outputRate: Double, maxInputBlock: Int = 16_384) throws(AudioError) {
        var error: soxr_error_t?
        // nil specs select libsoxr's defaults: float32 interleaved, SOXR_HQ, one thread.
        guard let s = soxr_create(inputRate, outputRate, 1, &error, nil, nil, nil), error == nil else {
            throw AudioError(.resampleFailed, path: "soxr",
                             "cannot resample \(inputRate) Hz to \(outputRate) Hz: \(error.map { String(cString: $0) } ?? "unknown error")")
        }
        soxr = s
        self.inputRate = inputRate
        self.outputRate = outputRate
        maxInput = maxInputBlock
        let capacity = Int((Double(maxInputBlock) * outputRate / inputRate).rounded(.up)) + 256
        output = .allocate(capacity: capacity)
    }

    deinit {
        soxr_delete(soxr)
        output.deallocate()
    }

    /// Resamples `input` (at most `maxInputBlock` samples), handing every produced block to `emit`.
    public func process(_ input: UnsafeBufferPointer<Float>, _ emit: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        precondition(input.count <= maxInput)
        var consumed = 0
        repeat {
            var idone = 0, odone = 0
            let remaining = input.count - consumed
            let err = soxr_process(soxr, input.baseAddress.map { $0 + consumed }, remaining, &idone,
                                   output.baseAddress, output.count, &odone)
            if let err { throw AudioError(.resampleFailed, path: "soxr", String(cString: err)) }
            consumed += idone
            if odone > 0 { try emit(UnsafeBufferPointer(rebasing: output[0..<odone])) }
            if idone == 0 && odone == 0 { break }
        } while consumed < input.count
    }

    /// Signals the end of input and emits what the filter still holds.
    public func flush(_ emit: (UnsafeBufferPointer<Float>) throws -> Void) throws {
        while true {
            var odone = 0
            let err = soxr_process(soxr, nil, 0, nil, output.baseAddress, output.count, &odone)
            if let err { throw AudioError(.resampleFailed, path: "soxr", String(cString: err)) }
            if odone == 0 { return }
            try emit(UnsafeBufferPointer(rebasing: output[0..<odone]))
        }
    }
}
