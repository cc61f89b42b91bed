
/// Maps the sport a file or export names to a tally category (the table is in docs/guide/activities.md).
public enum SportCategory {
    /// `running`, `cycling`, `swimming`, `walking`, `hiking`, ... from GPX `type`, TCX `Sport`,
    /// FIT `sport` and `sub_sport` (as `fit:SPORT` or `fit:SPORT:SUB_SPORT`), Strava's and Garmin's
    /// activity types (names, and Strava's numbers in its GPX files). Unknown sports become a
    /// category of their own when they fit the category rules, else `other`.
    public static func category(_ sport: String?) -> String {
        guard let sport else { return "other" }
        if sport.hasPrefix("fit:") {
            let numbers = sport.dropFirst(4).split(separator: ":", omittingEmptySubsequences: false).map { UInt64($0) }
            guard let first = numbers.first, let number = first, numbers.count <= 2 else { return "other" }
            if numbers.count == 2, let sub = numbers[1], let refined = fitSubSportCategories[sub], refinable.contains(number) {
                return refined
            }
            return fitCategories[number] ?? category(fitSports[number] ?? "other")
        }
        let key = sport.lowercased().filter { $0.isLetter || $0.isNumber }
        if let known = aliases[key] { return known }
        if let number = Int(key) { return stravaTypes[number] ?? "other" }
        if key.contains("run") { return "running" }
        if key.contains("ride") || key.contains("cycl") || key.contains("bik") { return "cycling" }
        if key.contains("swim") { return "swimming" }
        if key.contains("walk") { return "walking" }
        if key.contains("hik") { return "hiking" }
        let candidate = String(key.prefix(32))
        return (try? Validation.category(candidate)) == candidate ? candidate : "other"
    }

    /// True for FIT's `multisport` sport (18): a session of it beside legs of other sports is the
    /// device's summary of the whole, not a leg.
    public static func isMultisportSummary(_ sport: String?) -> Bool {
        guard let sport, sport.hasPrefix("fit:") else { return false }
        return sport.dropFirst(4).split(separator: ":").first == "18"
    }

    /// Names (lower case, letters and digits only) of GPX `type`, TCX `Sport`, Strava and Garmin types.
    static let aliases: [String: String] = [
        "running": "running", "run": "running", "trailrun": "running", "treadmillrunning": "running", "virtualrun": "running",
        "cycling": "cycling", "biking": "cycling", "ride": "cycling", "virtualride": "cycling", "ebikeride": "cycling",
        "mountainbikeride": "cycling", "gravelride": "cycling", "roadbiking": "cycling", "emountainbikeride": "cycling",
        "velomobile": "cycling", "handcycle": "cycling", "ebiking": "cycling",
        "swimming": "swimming", "swim": "swimming", "lapswimming": "swimming", "openwaterswimming": "swimming",
        "walking": "walking", "walk": "walking", "wheelchair": "walking",
        "hiking": "hiking", "hike": "hiking", "mountaineering": "hiking", "snowshoe": "hiking", "snowshoeing": "hiking",
        "generic": "other", "other": "other", "workout": "other", "multisport": "other", "all": "other",
        "transition": "transition",
        "crosscountryskiing": "skiing", "nordicski": "skiing", "alpineskiing": "skiing", "alpineski": "skiing",
        "backcountryski": "skiing", "rollerski": "skiing",
        "rowing": "rowing", "paddling": "paddling", "kayaking": "paddling", "standuppaddling": "paddling",
        "standuppaddleboarding": "paddling", "canoeing": "paddling", "rafting": "paddling",
        "fitnessequipment": "gym", "training": "gym", "weighttraining": "gym", "crossfit": "gym", "elliptical": "gym",
        "stairstepper": "gym", "floorclimbing": "gym", "hiit": "gym", "highintensityintervaltraining": "gym",
        "inlineskating": "skating", "inlineskate": "skating", "iceskate": "skating", "iceskating": "skating",
        "snowboarding": "snowboarding", "snowboard": "snowboarding",
        "rockclimbing": "climbing", "rockclimb": "climbing",
        "windsurf": "windsurfing", "kitesurf": "kitesurfing", "sail": "sailing",
    ]

    /// Strava's activity types by the number its GPX exports write in `<type>` (not published by
    /// Strava; the numbers its exports are known to carry).
    static let stravaTypes: [Int: String] = [
        1: "cycling", 2: "skiing", 3: "skiing", 4: "hiking", 5: "skating", 6: "skating", 7: "skiing", 8: "skiing",
        9: "running", 10: "walking", 11: "other", 12: "snowboarding", 13: "hiking", 14: "kitesurfing", 15: "windsurfing",
        16: "swimming", 17: "cycling", 18: "cycling", 19: "cycling", 21: "paddling", 22: "paddling", 23: "rowing",
        24: "paddling", 25: "surfing", 26: "gym", 27: "gym", 28: "climbing", 29: "gym", 30: "gym", 31: "yoga",
        51: "cycling", 52: "walking", 53: "running",
    ]

    /// FIT sports whose category is not their name's (the rest map by `fitSports` and `aliases`).
    static let fitCategories: [UInt64: String] = [
        3: "transition", 21: "cycling", 22: "motorcycling", 36: "snowmobiling", 254: "other",
    ]

    /// FIT sports a sub-sport may refine (generic, fitness equipment, training): an indoor rower is rowing.
    static let refinable: Set<UInt64> = [0, 4, 10]

    /// FIT sub-sports that name a category of their own when the sport is `refinable`.
    static let fitSubSportCategories: [UInt64: String] = [
        1: "running", 6: "cycling", 14: "rowing", 15: "gym", 16: "gym", 17: "swimming", 18: "swimming",
        19: "gym", 20: "gym", 26: "gym", 27: "walking", 43: "yoga", 44: "pilates", 45: "running",
    ]

    /// The FIT `sport` enum (Garmin FIT profile), by number: every value the profile names up to 48.
    public static let fitSports: [UInt64: String] = [
        0: "generic", 1: "running", 2: "cycling", 3: "transition", 4: "fitness_equipment", 5: "swimming", 6: "basketball",
        7: "soccer", 8: "tennis", 9: "american_football", 10: "training", 11: "walking", 12: "cross_country_skiing",
        13: "alpine_skiing", 14: "snowboarding", 15: "rowing", 16: "mountaineering", 17: "hiking", 18: "multisport",
        19: "paddling", 20: "flying", 21: "e_biking", 22: "motorcycling", 23: "boating", 24: "driving", 25: "golf",
        26: "hang_gliding", 27: "horseback_riding", 28: "hunting", 29: "fishing", 30: "inline_skating", 31: "rock_climbing",
        32: "sailing", 33: "ice_skating", 34: "sky_diving", 35: "snowshoeing", 36: "snowmobiling", 37: "stand_up_paddleboarding",
        38: "surfing", 39: "wakeboarding", 40: "water_skiing", 41: "kayaking", 42: "rafting", 43: "windsurfing",
        44: "kitesurfing", 45: "tactical", 46: "jumpmaster", 47: "boxing", 48: "floor_climbing",
    ]
}
