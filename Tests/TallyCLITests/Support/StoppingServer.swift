import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// A stand-in PostgreSQL server on a loopback port that accepts every connection's startup (no TLS,
/// no password) and, in the same write as its ReadyForQuery, sends what a server that is stopping
/// sends an idle session, `FATAL:  terminating connection due to administrator command`, then
/// closes. libpq parses both while it connects: the moment that made its shutdown line reach
/// standard error. Deterministic where stopping a real server only sometimes hits that moment.
final class StoppingServer: @unchecked Sendable {
    let port: Int
    private let listener: Int32

    init() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard listener >= 0, bound, listen(listener, 16) == 0 else { throw CocoaError(.fileWriteUnknown) }
        port = Int(UInt16(bigEndian: address.sin_port))
        let descriptor = listener
        Thread {
            while true {
                let client = accept(descriptor, nil, nil)
                guard client >= 0 else { return }
                Self.serve(client)
            }
        }.start()
    }

    deinit {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func message(_ type: UInt8, _ body: [UInt8]) -> [UInt8] {
        [type] + withUnsafeBytes(of: UInt32(body.count + 4).bigEndian, Array.init) + body
    }

    private static func serve(_ client: Int32) {
        defer { close(client) }
        while true {
            var header = [UInt8](repeating: 0, count: 8)
            guard recv(client, &header, 8, Int32(MSG_WAITALL)) == 8 else { return }
            let length = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
            let code = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
            if length > 8 {
                var rest = [UInt8](repeating: 0, count: length - 8)
                guard recv(client, &rest, length - 8, Int32(MSG_WAITALL)) == length - 8 else { return }
            }
            // An SSL or GSS encryption request: refused with 'N', the startup packet follows.
            if code == 80_877_103 || code == 80_877_104 {
                _ = send(client, [UInt8(ascii: "N")], 1, 0)
                continue
            }
            break
        }
        let fatal = Array("SFATAL\0VFATAL\0C57P01\0Mterminating connection due to administrator command\0\0".utf8)
        let reply = message(UInt8(ascii: "R"), [0, 0, 0, 0]) + message(UInt8(ascii: "S"), Array("server_version\u{0}15.0\u{0}".utf8))
            + message(UInt8(ascii: "K"), [0, 0, 0, 1, 0, 0, 0, 2]) + message(UInt8(ascii: "Z"), [UInt8(ascii: "I")])
            + message(UInt8(ascii: "E"), fatal)
        _ = send(client, reply, reply.count, Int32(MSG_NOSIGNAL))
    }
}
