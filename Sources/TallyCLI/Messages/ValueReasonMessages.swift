import TallyDomain

/// The value parsers' reasons through the catalog: one message per `ValueReasonKey`.
enum ValueReasonMessages {
    /// The message id of a reason key (`value-reason.` and the key in kebab case).
    static func id(_ key: ValueReasonKey) -> MessageID? {
        var name = "value-reason."
        for character in key.rawValue {
            if character.isUppercase { name += "-" + character.lowercased() } else { name.append(character) }
        }
        return MessageID(rawValue: name)
    }

    /// The reason in the catalog's language, its arguments filled.
    static func text(_ error: ValueError, catalog: Catalog) -> String {
        guard let id = id(error.key) else { return error.reason }
        return catalog.text(id, error.arguments)
    }

    /// The whole message for an invalid value; reasons that already show examples get no second list of them.
    static func message(_ error: ValueError, catalog: Catalog) -> String {
        let bare = error.key.showsExamples
        let id: MessageID = switch error.kind {
        case .when: bare ? .errorInvalidWhenBare : .errorInvalidWhen
        case .duration: bare ? .errorInvalidDurationBare : .errorInvalidDuration
        case .distance: bare ? .errorInvalidDistanceBare : .errorInvalidDistance
        case .date: .errorInvalidDate
        }
        return catalog.text(id, ["input": error.input, "reason": text(error, catalog: catalog)])
    }
}
