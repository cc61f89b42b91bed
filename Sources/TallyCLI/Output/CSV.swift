#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RFC 4180 CSV: CRLF line ends; fields with a comma, quote, CR or LF are quoted, quotes doubled.
enum CSV {
    static func field(_ value: String) -> String {
        let needsQuotes = value.contains { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" || $0 == "\r\n" }
        guard needsQuotes else { return value }
        return "\"" + value.replacingAll("\"", with: "\"\"") + "\""
    }

    static func row(_ values: [String]) -> String {
        values.map(field).joined(separator: ",") + "\r\n"
    }
}
