#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many columns the output has: the terminal's own answer, then `COLUMNS`, then 80.
enum TerminalWidth {
    /// The narrowest width tables and the progress bar are laid out for; a narrower terminal wraps.
    static let minimum = 20
    /// The width assumed on a terminal that does not say.
    static let fallback = 80

    /// The columns of the terminal on `descriptor` (`ioctl(TIOCGWINSZ)`), or nil when it is not a terminal or does not say.
    static func ofTerminal(_ descriptor: Int32) -> Int? {
        var size = winsize()
        #if canImport(Glibc)
        let request = UInt(TIOCGWINSZ)
        #else
        let request = TIOCGWINSZ
        #endif
        guard ioctl(descriptor, request, &size) == 0, size.ws_col > 0 else { return nil }
        return max(Int(size.ws_col), minimum)
    }

    /// `COLUMNS` when it holds a usable number.
    static func fromEnvironment(_ environment: [String: String]) -> Int? {
        environment["COLUMNS"].flatMap { Int($0) }.flatMap { $0 >= minimum ? $0 : nil }
    }

    /// The width output on `descriptor` is fitted to: the terminal's, else `COLUMNS`, else 80 on a
    /// terminal; nil (nothing is cut) when the output is not a terminal and `COLUMNS` is not set.
    static func forOutput(_ descriptor: Int32, isTerminal: Bool, environment: [String: String]) -> Int? {
        if isTerminal, let columns = ofTerminal(descriptor) { return columns }
        if let columns = fromEnvironment(environment) { return columns }
        return isTerminal ? fallback : nil
    }
}
