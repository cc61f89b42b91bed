
/// A linear map from data values to a length on a chart, and the round numbers of its axis.
public struct LinearScale: Sendable, Equatable {
    public var domain: ClosedRange<Double>
    public var range: ClosedRange<Double>
    /// True when larger values go towards `range.lowerBound` (an SVG y axis points down).
    public var flipped: Bool

    /// A scale; an empty or non-finite domain is widened to `0...1` so every value maps to a finite point.
    public init(domain: ClosedRange<Double>, range: ClosedRange<Double>, flipped: Bool = false) {
        let finite = domain.lowerBound.isFinite && domain.upperBound.isFinite
        self.domain = finite && domain.upperBound > domain.lowerBound ? domain : (finite ? domain.lowerBound ... domain.lowerBound + 1 : 0 ... 1)
        self.range = range
        self.flipped = flipped
    }

    /// Where `value` falls; values outside the domain are clamped to its ends.
    public func callAsFunction(_ value: Double) -> Double {
        guard value.isFinite else { return flipped ? range.upperBound : range.lowerBound }
        let span = domain.upperBound - domain.lowerBound
        let fraction = min(1, max(0, (value - domain.lowerBound) / span))
        let length = range.upperBound - range.lowerBound
        return flipped ? range.upperBound - fraction * length : range.lowerBound + fraction * length
    }

    /// A "nice" top for an axis holding `maximum`, and its tick step: 1, 2 or 5 times a power of ten,
    /// with at most `ticks` steps: `niceAxis(maximum: 87, ticks: 4)` is `(top: 100, step: 50)`.
    public static func niceAxis(maximum: Double, ticks: Int = 4) -> (top: Double, step: Double) {
        guard maximum.isFinite, maximum > 0 else { return (1, 1) }
        let count = Double(max(1, ticks))
        let raw = maximum / count
        var power = 1.0
        while power * 10 <= raw { power *= 10 }
        while power > raw { power /= 10 }
        let step = [1.0, 2.0, 5.0, 10.0].map { $0 * power }.first { $0 * count >= maximum } ?? power * 10
        return ((maximum / step).rounded(.up) * step, step)
    }
}
