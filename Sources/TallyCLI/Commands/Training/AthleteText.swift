import TallyDomain

/// Athlete settings as the options that set them: `--max-hr 190 --ftp 250`.
enum AthleteText {
    static func values(_ entry: AthleteEntry) -> String {
        values(AthleteSettings(
            maxHeartRate: entry.maxHeartRate, restingHeartRate: entry.restingHeartRate, thresholdHeartRate: entry.thresholdHeartRate,
            ftp: entry.ftp, heartRateZones: entry.heartRateZones
        ))
    }

    static func values(_ settings: AthleteSettings) -> String {
        var parts: [String] = []
        if let value = settings.maxHeartRate { parts.append("--max-hr \(value)") }
        if let value = settings.restingHeartRate { parts.append("--resting-hr \(value)") }
        if let value = settings.thresholdHeartRate { parts.append("--threshold-hr \(value)") }
        if let value = settings.ftp { parts.append("--ftp \(value)") }
        if let zones = settings.heartRateZones { parts.append("--hr-zones " + zones.map(String.init).joined(separator: ",")) }
        return parts.joined(separator: " ")
    }
}
