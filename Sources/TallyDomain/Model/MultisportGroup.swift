
/// The legs of a multisport activity: the records one multisport file became (`FilePart.Kind.leg`).
extension ReadModel {
    /// The legs of the activity `record` is a leg of, in the file's order (deleted ones too);
    /// just the record when it is no leg.
    /// - Complexity: O(records).
    public func legs(of record: Record) -> [Record] {
        guard let track = record.track, let part = track.part, part.kind == .leg else { return [record] }
        let group = records.filter { other in
            guard let mine = other.track, let theirs = mine.part else { return false }
            return theirs.kind == .leg && mine.sha256 == track.sha256
        }
        return group.sorted { ($0.track?.part?.index ?? 0, $0.number) < ($1.track?.part?.index ?? 0, $1.number) }
    }
}
