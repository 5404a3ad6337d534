import Foundation
import PackagePlugin

/// `swift package --allow-writing-to-package-directory courier-generate <document> --output <dir>
/// [--module-name <name>]`: runs courier-generate with the arguments given, from the package directory.
@main
struct CourierGeneratePlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let tool = try context.tool(named: "courier-generate")
        let process = Process()
        process.executableURL = tool.url
        process.arguments = arguments
        process.currentDirectoryURL = context.package.directoryURL
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw PluginFailure(description: "courier-generate exited with status \(process.terminationStatus)")
        }
    }
}

/// The tool failed; its own message is already on standard error.
struct PluginFailure: Error, CustomStringConvertible {
    let description: String
}
