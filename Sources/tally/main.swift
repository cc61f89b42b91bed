import Foundation
import TallyCLI

exit(TallyCLI.main(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment))
