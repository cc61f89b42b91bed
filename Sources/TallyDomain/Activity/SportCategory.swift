/// Maps the sport a file or export names to a tally category.
public enum SportCategory {
    /// `running`, `cycling`, `swimming`, `walking`, `hiking`, ... from GPX `type`, TCX `Sport`,
    /// FIT `sport` (as `fit:N`), Strava's and Garmin's activity types. Unknown sports become a
    /// category of their own when they fit the category rules, else `other`.
    public static func category(_ sport: String?) -> String {
        guard let sport else { return "other" }
        if sport.hasPrefix("fit:"), let number = UInt64(sport.dropFirst(4)) {
            return category(fitSports[number] ?? "other")
        }
        let key = sport.lowercased().filter { $0.isLetter || $0.isNumber }
        if let known = aliases[key] { return known }
        if key.contains("run") { return "running" }
        if key.contains("ride") || key.contains("cycl") || key.contains("bik") { return "cycling" }
        if key.contains("swim") { return "swimming" }
        if key.contains("walk") { return "walking" }
        if key.contains("hik") { return "hiking" }
        let candidate = String(key.prefix(32))
        return (try? Validation.category(candidate)) == candidate ? candidate : "other"
    }

    private static let aliases: [String: String] = [
        "running": "running", "run": "running", "trailrun": "running", "treadmillrunning": "running", "virtualrun": "running",
        "9": "running",
        "cycling": "cycling", "biking": "cycling", "ride": "cycling", "virtualride": "cycling", "ebikeride": "cycling",
        "mountainbikeride": "cycling", "gravelride": "cycling", "roadbiking": "cycling", "1": "cycling",
        "swimming": "swimming", "swim": "swimming", "lapswimming": "swimming", "openwaterswimming": "swimming",
        "walking": "walking", "walk": "walking", "10": "walking",
        "hiking": "hiking", "hike": "hiking", "4": "hiking",
        "generic": "other", "other": "other", "workout": "other", "multisport": "other",
        "crosscountryskiing": "skiing", "nordicski": "skiing", "alpineskiing": "skiing", "alpineski": "skiing", "backcountryski": "skiing",
        "rowing": "rowing", "paddling": "paddling", "kayaking": "paddling", "standuppaddling": "paddling", "standuppaddleboarding": "paddling",
        "fitnessequipment": "gym", "training": "gym", "weighttraining": "gym", "crossfit": "gym",
        "inlineskating": "skating", "inlineskate": "skating", "mountaineering": "hiking", "snowboarding": "snowboarding",
    ]

    /// The FIT `sport` enum's names for the values tally maps to categories.
    public static let fitSports: [UInt64: String] = [
        0: "generic", 1: "running", 2: "cycling", 4: "fitness_equipment", 5: "swimming", 10: "training", 11: "walking",
        12: "cross_country_skiing", 13: "alpine_skiing", 14: "snowboarding", 15: "rowing", 16: "mountaineering",
        17: "hiking", 18: "multisport", 19: "paddling", 37: "stand_up_paddleboarding", 41: "kayaking", 43: "inline_skating",
    ]
}
