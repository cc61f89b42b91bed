import Foundation
import Testing
import TallyDomain
import TallyTestSupport
@testable import TallyCLI
@testable import TallyEssentials

@Suite("The manual page")
struct ManPageTests {
    @Test("no word is hyphenated at a line end, TALLY_BUSY_TIMEOUT is documented, SEE ALSO names todo-txt(1)")
    func manPage() throws {
        let tally = TallyRunner()
        let page = tally.run("__man").stdout
        #expect(page.contains(".TP\n\\fBTALLY_BUSY_TIMEOUT\\fR"))
        #expect(page.contains(".BR todo\\-txt (1),") && !page.contains("todo.sh (1)"))
        guard let groff = ShellAndTerminalTests.tool("groff") else { return }
        let file = tally.directory.path("tally.1")
        try Data(page.utf8).write(to: URL(fileURLWithPath: file))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: groff)
        process.arguments = ["-man", "-Tutf8", "-rLL=50n", file]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        let plain = text.replacingOccurrences(of: "\u{8}.", with: "", options: .regularExpression)
        let broken = plain.split(separator: "\n").filter { $0.hasSuffix("\u{2010}") }
        #expect(text.count > 10_000 && broken.isEmpty, "hyphenated lines: \(broken.prefix(5))")
        #expect(plain.contains("~/.local/share/tally/tally.db"))
    }
}
