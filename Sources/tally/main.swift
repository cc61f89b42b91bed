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

let arguments = (1..<Int(CommandLine.argc)).map { index -> [UInt8] in
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
exit(TallyCLI.main(rawArguments: arguments, environment: environment))
