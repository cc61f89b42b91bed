import TallyDomain
import TallyEssentials

extension Due {
    /// A day as it is, an instant in local time (`2026-11-29 10:00`): how lists, messages,
    /// history lines and the editor's form show a due or wait date, and how `--due` reads it back.
    func localText(in zone: Zone) -> String {
        switch self {
        case .date(let date): date.description
        case .instant(let ms): Timestamp.formatLocal(ms, in: zone, withTime: true)
        }
    }
}
