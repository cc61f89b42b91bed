#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyEssentials

/// Unicode normalization of user text in payloads: schema 2 of `todo.created` and `todo.edited`.
///
/// Schema 1 stored titles and notes as typed, so "Café" typed as `e` + U+0301 and "Café" typed
/// with the precomposed `é` were different bytes in the log, in exports and under JSON equality
/// (which compares scalars). Schema 2 keeps exactly the schema 1 keys and meanings and adds one
/// guarantee: `title` and `note` are in Normalization Form C. Schema 1 payloads are upcast by
/// normalizing the same two keys; everything else passes through unchanged.
public enum TextForm {
    /// The NFC form of `text`.
    public static func normalized(_ text: String) -> String {
        TextScalars.nfc(text)
    }
}

extension EventCatalog {
    /// Upcaster 1 → 2 of `todo.created` and `todo.edited`: `title` and `note` (when strings) to NFC.
    @Sendable static func normalizingText(_ payload: JSONObject) throws(EventDecodingError) -> JSONObject {
        var upcast = payload
        for key in ["title", "note"] {
            if let text = payload[key]?.stringValue { upcast[key] = .string(TextForm.normalized(text)) }
        }
        return upcast
    }
}
