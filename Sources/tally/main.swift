#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TallyCLI

/// The bytes of a C string, without its terminator.
func bytes(_ pointer: UnsafePointer<CChar>) -> UnsafeBufferPointer<UInt8> {
    UnsafeBufferPointer(start: UnsafeRawPointer(pointer).assumingMemoryBound(to: UInt8.self), count: strlen(pointer))
}

// `argc` is at least 1 (the program's name) on any normal start; a static binary whose runtime could not
// read it (no /proc) sees 0 and says so below instead of trapping on an empty range.
let arguments = (1..<max(Int(CommandLine.argc), 1)).map { index -> [UInt8] in
    guard let pointer = CommandLine.unsafeArgv[index] else { return [] }
    return Array(bytes(pointer))
}

/// The environment as `NAME=value` pairs, read straight from `environ` (the first of a repeated name wins).
var environment: [String: String] = [:]
var entry = environ
while let pointer = entry.pointee {
    let text = bytes(pointer)
    if let equals = text.firstIndex(of: UInt8(ascii: "=")) {
        let name = String(decoding: UnsafeBufferPointer(rebasing: text[..<equals]), as: UTF8.self)
        if environment[name] == nil {
            environment[name] = String(decoding: UnsafeBufferPointer(rebasing: text[(equals + 1)...]), as: UTF8.self)
        }
    }
    entry += 1
}
exit(CommandLine.argc < 1 ? TallyCLI.mainWithoutCommandLine(environment: environment) : TallyCLI.main(rawArguments: arguments, environment: environment))
