
/// A head kept outside the log, `SEQ:HASH`: proof that the log still holds that exact history.
///
/// The hash chain makes every event depend on all before it, so the stored hash of event `seq`
/// stands for the whole history 1...seq. An anchor keeps that position and (a prefix of) its
/// hash; `verify --anchor` then detects what the chain alone cannot: a log cut below the anchor,
/// or a history rewritten with freshly computed hashes. Pure.
public struct Anchor: Sendable, Equatable {
    /// The anchored position, at least 1.
    public var seq: Int64
    /// Lowercase hex, a prefix of the stored hash at `seq`: `minimumDigits...64` digits.
    public var hash: String

    /// Digits `tally anchor` prints by default: 128 bits, beyond any search for a matching forgery.
    public static let defaultDigits = 32
    /// The fewest digits an anchor may keep (64 bits): shorter ones would be cheap to forge.
    public static let minimumDigits = 16
    /// Every digit of a SHA-256 link.
    public static let fullDigits = 64
    /// The longest text read as an anchor; longer input is refused before it is looked at.
    public static let maxLength = 20 + 1 + fullDigits

    public init(seq: Int64, hash: String) {
        self.seq = seq
        self.hash = hash
    }

    /// The anchor of `head`, keeping `digits` digits of its hash (clamped to the allowed range).
    public init(head: LogHead, digits: Int = Anchor.defaultDigits) {
        seq = head.seq
        hash = String(head.hash.prefix(min(max(digits, Anchor.minimumDigits), Anchor.fullDigits)))
    }

    /// `SEQ:HASH`.
    public var text: String { "\(seq):\(hash)" }

    /// Why a text is not an anchor.
    public enum ParseError: Error, Sendable, Equatable {
        /// Not of the form `SEQ:HASH` (no colon, more than one, empty sides, too long).
        case shape
        /// SEQ is not a whole number from 1 to the largest position.
        case position
        /// HASH holds something other than hex digits.
        case notHex
        /// HASH has fewer than `minimumDigits` or more than `fullDigits` digits.
        case length(Int)
    }

    /// Reads `SEQ:HASH`: SEQ ASCII digits only (no sign, no spaces), 1 or more; HASH 16 to 64 hex
    /// digits in either case. Nothing else is accepted, so a pasted anchor with a stray character
    /// is refused rather than read as something else.
    public static func parse(_ text: String) throws(ParseError) -> Anchor {
        let bytes = Array(text.utf8)
        guard bytes.count <= maxLength, let colon = bytes.firstIndex(of: UInt8(ascii: ":")) else { throw .shape }
        let seqBytes = bytes[..<colon]
        let hashBytes = bytes[(colon + 1)...]
        guard !seqBytes.isEmpty, !hashBytes.isEmpty, !hashBytes.contains(UInt8(ascii: ":")) else { throw .shape }
        var seq: Int64 = 0
        for byte in seqBytes {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { throw .position }
            let (times, overflowTimes) = seq.multipliedReportingOverflow(by: 10)
            let (sum, overflowSum) = times.addingReportingOverflow(Int64(byte - UInt8(ascii: "0")))
            guard !overflowTimes, !overflowSum else { throw .position }
            seq = sum
        }
        guard seq >= 1 else { throw .position }
        var hash = ""
        hash.reserveCapacity(hashBytes.count)
        for byte in hashBytes {
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "f"):
                hash.unicodeScalars.append(Unicode.Scalar(byte))
            case UInt8(ascii: "A")...UInt8(ascii: "F"):
                hash.unicodeScalars.append(Unicode.Scalar(byte + 32))
            default:
                throw .notHex
            }
        }
        guard (minimumDigits...fullDigits).contains(hash.utf8.count) else { throw .length(hash.utf8.count) }
        return Anchor(seq: seq, hash: hash)
    }

    /// What the log says about an anchor.
    public enum Finding: Sendable, Equatable {
        /// The log holds the anchored history unchanged (and may go on after it).
        case holds
        /// The log ends at `head`, below the anchor: events were removed from its end.
        case truncated(head: Int64)
        /// The history up to the anchor is not the anchored one: the event at the anchor has
        /// another hash (`stored`), or an event at or before it (`at`) breaks the chain or the sequence.
        case rewritten(stored: String?, at: Int64)
    }

    /// Judges the anchor given the log's head, the stored hash at the anchor's position (nil when
    /// the log has no event there) and the problems a full `verify` found.
    ///
    /// A stored hash that matches proves the history only if every link up to it holds, so a
    /// hash or sequence problem at or before the anchor also counts as a rewrite.
    public func judge(head: LogHead, storedHash: String?, problems: [LogProblem]) -> Finding {
        guard head.seq >= seq else { return .truncated(head: head.seq) }
        guard let storedHash else { return .rewritten(stored: nil, at: seq) }
        guard storedHash.hasPrefix(hash) else { return .rewritten(stored: storedHash, at: seq) }
        let broken = problems.first { problem in
            guard problem.seq <= seq else { return false }
            switch problem.kind {
            case .hashMismatch, .sequenceGap: return true
            default: return false
            }
        }
        if let broken { return .rewritten(stored: nil, at: broken.seq) }
        return .holds
    }
}
