
/// The standard distances tally keeps best efforts for, and how they are found in a track.
public enum BestEfforts {
    /// Distances in metres for running and every category but cycling: 400 m, 1 km, 1 mile, 5 km, 10 km, half marathon, marathon.
    public static let footDistances = [400, 1_000, 1_609, 5_000, 10_000, 21_097, 42_195]
    /// Distances in metres for cycling: 10, 20, 40 and 100 km.
    public static let cyclingDistances = [10_000, 20_000, 40_000, 100_000]

    /// The distances that count for a category; none for a multisport file's transitions.
    public static func distances(category: String) -> [Int] {
        switch category {
        case "cycling": cyclingDistances
        case "transition": []
        default: footDistances
        }
    }

    /// The men's world records on foot (World Athletics, November 2026), seconds: 400 m 43.03
    /// (van Niekerk 2016), 1,000 m 2:11.96 (Ngeny 1999), mile 3:43.13 (El Guerrouj 1999), 5,000 m
    /// 12:35.36 (Cheptegei 2020), 10,000 m 26:11.00 (Cheptegei 2020), half marathon 57:30 (Kiplimo
    /// 2024), marathon 2:00:35 (Kiptum 2023). A stretch of a track faster than these is a GPS error,
    /// a ride or a car, never a best effort on foot.
    public static let footWorldRecords: [Int: Double] = [
        400: 43.03, 1_000: 131.96, 1_609: 223.13, 5_000: 755.36, 10_000: 1_571.0, 21_097: 3_450.0, 42_195: 7_235.0,
    ]

    /// The categories of sports faster than a runner: carried by wheels, skis, a board or blades, an
    /// engine, the wind, a horse or gravity (every one a FIT sport maps to). The records on foot are
    /// no bound for them; the GPS filter's top speed is. Every other category (on foot, in the water,
    /// paddled or rowed, or a sport tally does not know) is bounded by the records on foot.
    public static let fasterThanOnFoot: Set<String> = [
        "cycling", "skiing", "snowboarding", "skating", "motorcycling", "driving", "flying", "boating", "sailing", "windsurfing",
        "kitesurfing", "surfing", "wakeboarding", "waterskiing", "hanggliding", "skydiving", "snowmobiling", "horsebackriding",
    ]

    /// True when `effort` in `category` beats the world record on foot for its distance (never for
    /// the categories of `fasterThanOnFoot`).
    public static func beatsWorldRecord(_ effort: TrackEffort, category: String) -> Bool {
        guard !fasterThanOnFoot.contains(category), let record = footWorldRecords[effort.meters] else { return false }
        return effort.seconds < record
    }

    /// A whole activity without a track counts for a distance when its length is within this fraction of it.
    public static let wholeActivityTolerance = 0.01

    /// A readable name for a standard distance: `400 m`, `1 km`, `1 mile`, `half marathon`, `marathon`.
    public static func label(_ meters: Int) -> String {
        switch meters {
        case 1_609: "1 mile"
        case 21_097: "half marathon"
        case 42_195: "marathon"
        default: meters % 1_000 == 0 ? "\(meters / 1_000) km" : "\(meters) m"
        }
    }

    /// The fastest time (seconds) to cover each of `targets` metres anywhere along the profile.
    ///
    /// A window starts at a point or between two points (time interpolated linearly on distance)
    /// and ends at a point. Distances longer than the track are absent.
    /// - Complexity: O(n) per distance.
    public static func find(in profile: TrackGeometry.Profile, targets: [Int]) -> [TrackEffort] {
        let meters = profile.meters, seconds = profile.seconds
        var result: [TrackEffort] = []
        guard meters.count >= 2 else { return result }
        for target in targets {
            let goal = Double(target)
            guard meters[meters.count - 1] >= goal else { continue }
            var best = Double.infinity
            var start = 0
            for end in 1..<meters.count {
                guard meters[end] >= goal else { continue }
                while start + 1 < end, meters[end] - meters[start + 1] >= goal { start += 1 }
                let from = meters[end] - goal
                let span = meters[start + 1] - meters[start]
                let fraction = span > 0 ? (from - meters[start]) / span : 0
                let begin = seconds[start] + fraction * (seconds[start + 1] - seconds[start])
                best = min(best, seconds[end] - begin)
            }
            // Rounded to a tenth first: a window shorter than 0.05 s is no effort at all.
            let seconds = (best * 10).rounded() / 10
            if seconds.isFinite, seconds > 0 {
                result.append(TrackEffort(meters: target, seconds: seconds))
            }
        }
        return result
    }
}
