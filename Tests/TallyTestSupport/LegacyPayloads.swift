import TallyDomain

/// Generated payloads as earlier tally versions could store them: figures and instants at, inside
/// and past today's limits, written as their formatters wrote them (a NaN as null, a year past 9999
/// with five digits). For the tests of `LegacyValues`.
public struct LegacyPayloads {
    public var random: SeededRandom

    public init(seed: UInt64) {
        random = SeededRandom(seed: seed)
    }

    mutating func pick(_ values: [String]) -> String {
        values[Int(random.next() % UInt64(values.count))]
    }

    public static let durations = ["-9223372036854775808", "-42", "0", "1", "1800", "604800", "604801", "999999999", "9223372036854775807"]
    public static let distances = ["null", "-1e+300", "-0.5", "0", "5000", "1000000", "1000000.5", "5000000", "1e+300"]
    public static let instants = [
        "2026-11-20T07:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "10000-01-01T04:59:00Z",
        "0000-12-31T23:00:00.500Z", "-0042-03-04T05:06:07Z", "99999-12-31T23:59:59Z", "0001-01-01T00:30:00+01:00",
    ]
    public static let dues = instants + ["2026-12-01", "10000-01-01", "0000-06-30", "-0001-12-31", "null"]
    public static let gains = ["null", "-1", "0", "1234.5", "100000", "100000.1", "5000000", "1e+300"]
    public static let moving = ["-42", "0", "3600", "604800", "604801", "9223372036854775807"]
    public static let effortSeconds = ["null", "-3", "0", "0.1", "421.5", "604800", "604801", "1e+300"]
    public static let effortMeters = ["-5", "0", "400", "1609", "1000000", "1000001"]

    /// A `record.logged` payload of schema 2 with a track, or schema 1 without.
    public mutating func recordLogged() -> (schema: Int, data: String) {
        let base = #""category":"running","date":"\#(pick(Self.instants))","distanceMeters":\#(pick(Self.distances)),"durationSeconds":\#(pick(Self.durations)),"name":"Legacy","note":null,"place":null,"source":"import""#
        guard random.next() % 3 != 0 else { return (1, "{" + base + "}") }
        let efforts = (0..<Int(random.next() % 40)).map { _ in #"{"meters":\#(pick(Self.effortMeters)),"seconds":\#(pick(Self.effortSeconds))}"# }
        let sha = String(repeating: "0123456789abcdef", count: 4)
        let track = #"{"bestEfforts":[\#(efforts.joined(separator: ","))],"elevationGainMeters":\#(pick(Self.gains)),"format":"fit","movingSeconds":\#(pick(Self.moving)),"sha256":"\#(sha)"}"#
        return (2, "{" + base + #","track":"# + track + "}")
    }

    /// A `record.edited` payload changing a random set of figures.
    public mutating func recordEdited() -> String {
        var members: [String] = []
        if random.next() % 2 == 0 { members.append(#""date":"\#(pick(Self.instants))""#) }
        if random.next() % 2 == 0 { members.append(#""distanceMeters":\#(pick(Self.distances))"#) }
        if members.isEmpty || random.next() % 2 == 0 { members.append(#""durationSeconds":\#(pick(Self.durations))"#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    mutating func due() -> String {
        let text = pick(Self.dues)
        return text == "null" ? text : "\"\(text)\""
    }

    /// A `todo.created` payload of schema 4 with a legacy due and wait.
    public mutating func todoCreated() -> String {
        #"{"due":\#(due()),"note":null,"priority":null,"series":null,"tags":["legacy"],"title":"Legacy todo","wait":\#(due())}"#
    }

    /// A `todo.edited` payload of schema 3 setting a legacy due or wait.
    public mutating func todoEdited() -> String {
        random.next() % 2 == 0 ? #"{"due":\#(due())}"# : #"{"due":\#(due()),"wait":\#(due())}"#
    }
}
