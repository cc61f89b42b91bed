#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TallyDomain
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyEssentials

/// Numbers and system errors as text, through the C library (FoundationEssentials has no `String(format:)`).
enum CFormat {
    /// `value` with `places` decimals, rounded as `printf("%.*f")` rounds: `fixed(2.345, places: 2)` → `2.35`.
    static func fixed(_ value: Double, places: Int) -> String {
        var buffer = [CChar](repeating: 0, count: 64)
        let written = withVaList([Int32(places), value]) { arguments in
            vsnprintf(&buffer, buffer.count, "%.*f", arguments)
        }
        if written >= buffer.count {
            buffer = [CChar](repeating: 0, count: Int(written) + 1)
            _ = withVaList([Int32(places), value]) { arguments in vsnprintf(&buffer, buffer.count, "%.*f", arguments) }
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Why a file operation failed, in the system's words (`No such file or directory`) when it says.
    static func reason(_ error: any Error) -> String {
        if let posix = error as? POSIXError { return String(cString: strerror(posix.code.rawValue)) }
        if let cocoa = error as? CocoaError, let posix = cocoa.underlying as? POSIXError {
            return String(cString: strerror(posix.code.rawValue))
        }
        return ErrorWords.text(error)
    }
}
